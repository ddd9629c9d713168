/**
 * 32-bit FNV-1a over UTF-16 code units, finished with murmur3's fmix32. FNV-1a alone mixes the low bits of
 * short strings poorly, and the bucket index (h mod dimension) and the sign both come from one hash; the
 * finaliser makes them behave as independent. The seed separates feature families (a word and a
 * character n-gram with the same letters must not share a bucket by construction).
 */
export function hashRange(text: string, start: number, end: number, seed: number): number {
  let h = (0x811c9dc5 ^ Math.imul(seed, 0x9e3779b1)) >>> 0;
  for (let i = start; i < end; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  return fmix32(h);
}

export function hashString(text: string, seed: number): number {
  return hashRange(text, 0, text.length, seed);
}

export function fmix32(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
