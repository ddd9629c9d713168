import { describe, expect, it } from 'vitest';
import { createWordVectors, wordVectors } from '../../../src/lexicon/word-vectors.ts';

describe('word vectors (GloVe table shipped in seed/lexicon)', () => {
  const wv = wordVectors();

  it('holds everyday words and the rarer words of the shipped catalogs', () => {
    expect(wv.size).toBeGreaterThan(100_000);
    for (const w of ['bakery', 'river', 'hospital', 'rainfall', 'evapotranspiration']) expect(wv.has(w)).toBe(true);
    expect(wv.has('xqzvb')).toBe(false);
  });

  it('puts related words closer than unrelated ones', () => {
    expect(wv.similarity('bakery', 'bread')!).toBeGreaterThan(wv.similarity('bakery', 'volcano')!);
    expect(wv.similarity('lake', 'pond')!).toBeGreaterThan(wv.similarity('lake', 'invoice')!);
    expect(wv.similarity('bakery', 'xqzvb')).toBeUndefined();
  });

  it('finds neighbours within a candidate set', () => {
    const query = wv.vector('doctor')!;
    const best = wv.nearest(query, 1, ['clinic', 'garage', 'stadium', 'xqzvb'])[0]!;
    expect(best.word).toBe('clinic');
    expect(wv.nearest(query, 3).map((n) => n.word)).toContain('doctor');
  });

  it('averages known words only, to unit length', () => {
    const mean = wv.mean(['quiet', 'xqzvb', 'garden'])!;
    expect(Math.hypot(...mean)).toBeCloseTo(1, 5);
    expect(wv.mean(['xqzvb'])).toBeUndefined();
  });

  it('rejects a table that does not match its word list', () => {
    expect(() => createWordVectors(['a', 'b'], new Int8Array(150))).toThrow(/does not match/);
  });
});
