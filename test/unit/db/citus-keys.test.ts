import { describe, expect, it } from 'vitest';
import { cellKey, LARGE_KEY, MAX_WINDOW_CELLS, shardKeysOfBoxes } from '../../../src/db/citus.ts';

describe('the shard keys of a window (Citus)', () => {
  it('numbers 1-degree cells row by row from the south-west corner of the globe', () => {
    expect(cellKey(-180, -90)).toBe(0);
    expect(cellKey(-179.5, -90)).toBe(0);
    expect(cellKey(-179, -90)).toBe(1);
    expect(cellKey(-180, -89)).toBe(360);
    expect(cellKey(12.5, 41.9)).toBe(131 * 360 + 192);
    // The edges of the globe stay in its last row and column.
    expect(cellKey(180, 90)).toBe(179 * 360 + 359);
  });

  it('takes the cells of the window grown by 0.1 degree, and the key of large places', () => {
    // Well inside one cell.
    expect(shardKeysOfBoxes([[12.4, 41.3, 12.6, 41.6]])).toEqual([LARGE_KEY, cellKey(12.5, 41.5)]);
    // 0.05 degree from a cell edge: a place of 0.1 degree with its middle across the edge can reach it.
    expect(shardKeysOfBoxes([[13.95, 41.4, 13.96, 41.5]])).toEqual([LARGE_KEY, cellKey(13.5, 41.5), cellKey(14.5, 41.5)]);
    // Two windows far apart: the cells of each.
    expect(shardKeysOfBoxes([[2.3, 48.3, 2.4, 48.6], [-0.5, 51.3, -0.4, 51.6]])).toEqual([LARGE_KEY, cellKey(2.35, 48.45), cellKey(-0.45, 51.45)]);
  });

  it('gives up (no filter) on a window of too many cells, or one that is not a box', () => {
    expect(shardKeysOfBoxes([[0, 0, 9, 9]])).toBeNull();
    expect(MAX_WINDOW_CELLS).toBeGreaterThanOrEqual(16);
    expect(shardKeysOfBoxes([[0, 0, Number.NaN, 1]])).toBeNull();
    expect(shardKeysOfBoxes([[1, 0, 0, 1]])).toBeNull();
  });
});
