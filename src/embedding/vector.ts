import { hashString } from './hashing.ts';

/** Scales a vector to unit length in place; a zero vector is left as it is (there is no direction to keep). */
export function l2NormaliseInPlace(vector: Float64Array | number[]): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) {
    for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  }
  return norm;
}

/** Cosine similarity; 0 when either vector is zero, so callers never see NaN. */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError(`cosine of vectors of different dimensions (${a.length} and ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * The vector of a text with nothing to embed (empty, whitespace, punctuation only). A zero vector would be
 * stored by pgvector but gives NaN cosine distances and is skipped by HNSW indexes, so a fixed unit vector
 * is used instead: every entry is ±1/√d with pseudo-random signs, which makes it nearly orthogonal
 * (|cos| ≈ 1/√d) to every real text while all empty texts stay identical to each other.
 */
export function blankTextVector(dimension: number): number[] {
  const magnitude = 1 / Math.sqrt(dimension);
  const vector = new Array<number>(dimension);
  for (let i = 0; i < dimension; i++) {
    vector[i] = (hashString(String(i), 0x626c6e6b) & 1) === 0 ? magnitude : -magnitude;
  }
  return vector;
}

/** Empty or whitespace only: such texts are not sent to remote embedders (OpenAI rejects empty input). */
export function isBlankText(text: string): boolean {
  return text.trim() === '';
}
