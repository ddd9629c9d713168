import { describe, expect, it } from 'vitest';
import { hnswBuildMemoryMB } from '../../../src/ingest/load.ts';

describe('hnswBuildMemoryMB', () => {
  it('gives a graph of 384-dimensional vectors room beyond the measured ~1.95 KB per vector', () => {
    // 256 MB held ~134,000 such vectors in pgvector's build; the 1M-place benchmark has 204,358.
    expect(hnswBuildMemoryMB(204_358, 384, false) * 2 ** 20).toBeGreaterThan(204_358 * 1.95 * 1024);
    expect(hnswBuildMemoryMB(204_358, 384, false)).toBeLessThan(1024);
  });

  it('keeps small builds at 64 MB, large ones at 2 GB, and the embedded database at 256 MB', () => {
    expect(hnswBuildMemoryMB(9_725, 384, false)).toBe(64);
    expect(hnswBuildMemoryMB(0, 384, true)).toBe(64);
    expect(hnswBuildMemoryMB(5_000_000, 384, false)).toBe(2048);
    expect(hnswBuildMemoryMB(204_358, 384, true)).toBe(256);
  });

  it('grows with the dimension', () => {
    expect(hnswBuildMemoryMB(100_000, 1536, false)).toBeGreaterThan(3 * hnswBuildMemoryMB(100_000, 384, false));
  });
});
