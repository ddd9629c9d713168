/** Turns texts into L2-normalised vectors of one fixed dimension, comparable by cosine. */
export interface Embedder {
  /** Identifies the vector space: vectors of two different model names must never be compared. */
  readonly model: string;
  /** Vector length; 0 only for a remote embedder whose dimension is not known before its first answer. */
  readonly dimension: number;
  /** One vector per text, in the order of `texts`. */
  embed(texts: string[]): Promise<number[][]>;
}

export const DEFAULT_CACHE_ENTRIES = 10_000;

/**
 * Wraps an embedder with an LRU cache keyed by the exact text. Question parts ("a café", "near the
 * station") recur across requests, and for a remote embedder each miss is a network round trip.
 * Promises are cached, not vectors, so concurrent requests for the same text share one inner call; a
 * failed call is dropped from the cache so that it is retried next time. Vectors are copied on the way
 * out, so a caller that mutates its result cannot corrupt the cache.
 */
export function cachedEmbedder(inner: Embedder, maxEntries: number = DEFAULT_CACHE_ENTRIES): Embedder {
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(`cache size must be a positive integer, got ${maxEntries}`);
  }
  const cache = new Map<string, Promise<number[]>>();

  function remember(text: string, vector: Promise<number[]>): void {
    // Map keeps insertion order: re-inserting moves the entry to the most recently used end.
    cache.delete(text);
    cache.set(text, vector);
  }

  function evictOverflow(): void {
    for (const oldest of cache.keys()) {
      if (cache.size <= maxEntries) break;
      cache.delete(oldest);
    }
  }

  function startBatch(missing: string[]): Map<string, Promise<number[]>> {
    const batch = Promise.resolve()
      .then(() => inner.embed(missing))
      .then((vectors) => {
        if (vectors.length !== missing.length) {
          throw new Error(`embedder ${inner.model} returned ${vectors.length} vectors for ${missing.length} texts`);
        }
        return vectors;
      });
    const pending = new Map<string, Promise<number[]>>();
    missing.forEach((text, i) => {
      const vector = batch.then((vectors) => vectors[i]!);
      vector.catch(() => {
        if (cache.get(text) === vector) cache.delete(text);
      });
      pending.set(text, vector);
    });
    return pending;
  }

  return {
    get model() {
      return inner.model;
    },
    get dimension() {
      return inner.dimension;
    },
    async embed(texts: string[]): Promise<number[][]> {
      const missing = [...new Set(texts.filter((text) => !cache.has(text)))];
      const pending = missing.length > 0 ? startBatch(missing) : new Map<string, Promise<number[]>>();
      // Collect every promise before evicting, so a batch larger than the cache still resolves fully.
      const vectors = texts.map((text) => {
        const vector = pending.get(text) ?? cache.get(text)!;
        remember(text, vector);
        return vector;
      });
      evictOverflow();
      return (await Promise.all(vectors)).map((vector) => vector.slice());
    },
  };
}
