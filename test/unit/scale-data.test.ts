import { describe, expect, it } from 'vitest';
import { BLOCK_DEG, copyFeature, JITTER_DEG, scaleFeatures, tileCell, tileStep } from '../../bench/scale-data.ts';
import { parseSize, planUse, sizeLabel } from '../../bench/scale.ts';
import type { PlaceFeature } from '../../src/ingest/feature.ts';

const cafe: PlaceFeature = {
  source: 'osm',
  sourceId: 'node/1',
  name: 'Blue Bottle Coffee',
  category: 'cafe',
  tags: { amenity: 'cafe', cuisine: 'coffee_shop' },
  description: 'A cafe.',
  descriptionFromTags: true,
  geometry: { type: 'Point', coordinates: [-73.98, 40.75] },
};
const block: PlaceFeature = {
  ...cafe,
  sourceId: 'way/2',
  name: null,
  geometry: { type: 'Polygon', coordinates: [[[-73.99, 40.74], [-73.98, 40.74], [-73.98, 40.745], [-73.99, 40.74]]] },
};

describe('scale data generator', () => {
  it('lays tiles on a spiral: each cell once, ring by ring', () => {
    const cells = Array.from({ length: 49 }, (_, t) => tileCell(t));
    expect(cells[0]).toEqual([0, 0]);
    expect(new Set(cells.map((c) => c.join(','))).size).toBe(49);
    // The first 9 tiles fill the 3x3 square, the first 25 the 5x5 one.
    expect(cells.slice(0, 9).every(([x, y]) => Math.abs(x) <= 1 && Math.abs(y) <= 1)).toBe(true);
    expect(cells.slice(0, 25).every(([x, y]) => Math.abs(x) <= 2 && Math.abs(y) <= 2)).toBe(true);
  });

  it('steps by the extent rounded up to whole blocks', () => {
    const [sx, sy] = tileStep([-74.01, 40.74, -73.96, 40.77]);
    expect(sx).toBeGreaterThanOrEqual(0.05);
    expect(sy).toBeGreaterThanOrEqual(0.03);
    expect(Math.abs(sx / BLOCK_DEG[0] - Math.round(sx / BLOCK_DEG[0]))).toBeLessThan(1e-9);
    expect(Math.abs(sy / BLOCK_DEG[1] - Math.round(sy / BLOCK_DEG[1]))).toBeLessThan(1e-9);
  });

  it('copies are shifted by their tile plus a small jitter, renamed, tags kept, deterministic', () => {
    const step: [number, number] = [0.051, 0.0304];
    const copy = copyFeature(cafe, 1, step);
    const [col, row] = tileCell(1);
    const [x, y] = copy.geometry.coordinates as [number, number];
    expect(Math.abs(x - (-73.98 + col * step[0]))).toBeLessThanOrEqual(JITTER_DEG + 1e-7);
    expect(Math.abs(y - (40.75 + row * step[1]))).toBeLessThanOrEqual(JITTER_DEG + 1e-7);
    expect([x, y]).not.toEqual([-73.98 + col * step[0], 40.75 + row * step[1]]);
    expect(copy.name).toBe('Blue Bottle Coffee · t1');
    expect(copy.sourceId).toBe('node/1@t1');
    expect(copy.tags).toEqual(cafe.tags);
    expect(copyFeature(cafe, 1, step)).toEqual(copy);
    expect(copyFeature(cafe, 2, step).geometry).not.toEqual(copy.geometry);
    expect(copyFeature(block, 3, step).name).toBeNull();
  });

  it('moves all vertices of a feature by the same offset (shapes stay valid)', () => {
    const copy = copyFeature(block, 5, [0.051, 0.0304]);
    const before = (block.geometry.coordinates as number[][][])[0]!;
    const after = (copy.geometry.coordinates as number[][][])[0]!;
    const dx = after.map((p, i) => p[0]! - before[i]![0]!);
    const dy = after.map((p, i) => p[1]! - before[i]![1]!);
    expect(Math.max(...dx) - Math.min(...dx)).toBeLessThan(1e-6);
    expect(Math.max(...dy) - Math.min(...dy)).toBeLessThan(1e-6);
    // Closed rings stay closed.
    expect(after[0]).toEqual(after[after.length - 1]);
  });

  it('streams the original, then the extra points, then copies, cut at n', () => {
    const extra = { ...cafe, source: 'wikivoyage', sourceId: 'Paris', geometry: { type: 'Point' as const, coordinates: [2.35, 48.85] as [number, number] } };
    const out = [...scaleFeatures([cafe, block], [extra], 7, [0.05, 0.03])];
    expect(out.map((f) => f.sourceId)).toEqual(['node/1', 'way/2', 'Paris', 'node/1@t1', 'way/2@t1', 'node/1@t2', 'way/2@t2']);
    expect(out[0]).toBe(cafe);
    expect([...scaleFeatures([cafe, block], [extra], 1, [0.05, 0.03])]).toEqual([cafe]);
    expect(new Set(out.map((f) => f.sourceId)).size).toBe(out.length);
  });
});

describe('scale benchmark helpers', () => {
  it('parses sizes', () => {
    expect(parseSize('10k')).toBe(10_000);
    expect(parseSize('1M')).toBe(1_000_000);
    expect(parseSize('250000')).toBe(250_000);
    expect(() => parseSize('lots')).toThrow(/not a size/);
    expect([10_000, 1_000_000, 250_500].map(sizeLabel)).toEqual(['10k', '1m', '250500']);
  });

  it('finds the nodes and indexes a plan uses on places, and its sequential scans', () => {
    const plan = [{
      Plan: {
        'Node Type': 'Limit',
        Plans: [
          { 'Node Type': 'Index Scan', 'Relation Name': 'places', 'Index Name': 'places_candidate_geom_idx' },
          { 'Node Type': 'Bitmap Heap Scan', 'Relation Name': 'places', Plans: [{ 'Node Type': 'Bitmap Index Scan', 'Index Name': 'places_candidate_tags_idx' }] },
          { 'Node Type': 'Seq Scan', 'Relation Name': 'places_version' },
        ],
      },
    }];
    expect(planUse(plan)).toEqual({
      nodes: ['Bitmap Heap Scan', 'Bitmap Index Scan', 'Index Scan'],
      indexes: ['places_candidate_geom_idx', 'places_candidate_tags_idx'],
      seqScansOnPlaces: 0,
    });
    expect(planUse([{ Plan: { 'Node Type': 'Seq Scan', 'Relation Name': 'places' } }]).seqScansOnPlaces).toBe(1);
  });

  it('reads the per-shard plans of a Citus plan (subplans and remote plans, shard suffixes dropped)', () => {
    const remote = (plan: object) => ({ Job: { Tasks: [{ 'Remote Plan': [[{ Plan: plan }]] }] } });
    const plan = [{
      Plan: {
        'Node Type': 'Custom Scan',
        'Distributed Query': {
          Subplans: [{ PlannedStmt: [{ Plan: { 'Node Type': 'Custom Scan', 'Distributed Query': remote({ 'Node Type': 'Index Scan', 'Relation Name': 'places_102008', 'Index Name': 'places_candidate_geom_idx_102008' }) } }] }],
          ...remote({ 'Node Type': 'Seq Scan', 'Relation Name': 'places_102010' }),
        },
      },
    }];
    expect(planUse(plan)).toEqual({ nodes: ['Index Scan', 'Seq Scan'], indexes: ['places_candidate_geom_idx'], seqScansOnPlaces: 1 });
  });
});
