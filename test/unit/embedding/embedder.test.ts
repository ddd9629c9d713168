import { describe, expect, it } from 'vitest';
import { cachedEmbedder, type Embedder } from '../../../src/embedding/embedder.ts';

/** An inner embedder that records what it was asked; the vector encodes the text length. */
function recordingEmbedder(options: { failFirst?: boolean; delayMs?: number } = {}) {
  const calls: string[][] = [];
  let failNext = options.failFirst ?? false;
  const embedder: Embedder = {
    model: 'recording',
    dimension: 2,
    async embed(texts) {
      calls.push([...texts]);
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      if (failNext) {
        failNext = false;
        throw new Error('inner failure');
      }
      return texts.map((t) => [t.length, 1]);
    },
  };
  return { embedder, calls };
}

describe('cachedEmbedder', () => {
  it('embeds a repeated text once', async () => {
    const { embedder, calls } = recordingEmbedder();
    const cached = cachedEmbedder(embedder, 10);
    const first = await cached.embed(['a café', 'a bar']);
    const second = await cached.embed(['a café']);
    const third = await cached.embed(['a bar', 'a café', 'a pub']);
    expect(calls).toEqual([['a café', 'a bar'], ['a pub']]);
    expect(second[0]).toEqual(first[0]);
    expect(third).toEqual([[5, 1], [6, 1], [5, 1]]);
  });

  it('sends a text repeated within one call once, and answers every position', async () => {
    const { embedder, calls } = recordingEmbedder();
    const vectors = await cachedEmbedder(embedder).embed(['x', 'yy', 'x']);
    expect(calls).toEqual([['x', 'yy']]);
    expect(vectors).toEqual([[1, 1], [2, 1], [1, 1]]);
  });

  it('shares one inner call between concurrent requests for the same text', async () => {
    const { embedder, calls } = recordingEmbedder({ delayMs: 20 });
    const cached = cachedEmbedder(embedder);
    const [a, b] = await Promise.all([cached.embed(['near the station']), cached.embed(['near the station'])]);
    expect(calls).toHaveLength(1);
    expect(a).toEqual(b);
  });

  it('evicts the least recently used text', async () => {
    const { embedder, calls } = recordingEmbedder();
    const cached = cachedEmbedder(embedder, 2);
    await cached.embed(['a', 'b']);
    await cached.embed(['a']); // a is now more recent than b
    await cached.embed(['c']); // evicts b
    await cached.embed(['a', 'b']);
    expect(calls).toEqual([['a', 'b'], ['c'], ['b']]);
  });

  it('answers a batch larger than the cache', async () => {
    const { embedder } = recordingEmbedder();
    const vectors = await cachedEmbedder(embedder, 2).embed(['a', 'bb', 'ccc', 'dddd']);
    expect(vectors.map((v) => v[0])).toEqual([1, 2, 3, 4]);
  });

  it('does not cache failures', async () => {
    const { embedder, calls } = recordingEmbedder({ failFirst: true });
    const cached = cachedEmbedder(embedder);
    await expect(cached.embed(['x'])).rejects.toThrow('inner failure');
    await expect(cached.embed(['x'])).resolves.toEqual([[1, 1]]);
    expect(calls).toHaveLength(2);
  });

  it('hands out copies, so a caller cannot corrupt the cache', async () => {
    const { embedder } = recordingEmbedder();
    const cached = cachedEmbedder(embedder);
    const [first] = await cached.embed(['x']);
    first![0] = 99;
    expect(await cached.embed(['x'])).toEqual([[1, 1]]);
  });

  it('passes model and dimension through, and rejects a bad size', () => {
    const { embedder } = recordingEmbedder();
    const cached = cachedEmbedder(embedder, 5);
    expect(cached.model).toBe('recording');
    expect(cached.dimension).toBe(2);
    expect(() => cachedEmbedder(embedder, 0)).toThrow(RangeError);
  });

  it('reports an inner embedder that returns the wrong number of vectors', async () => {
    const broken: Embedder = { model: 'broken', dimension: 1, embed: async () => [[1]] };
    await expect(cachedEmbedder(broken).embed(['a', 'b'])).rejects.toThrow(/returned 1 vectors for 2 texts/);
  });
});
