import { area as turfArea, booleanPointInPolygon } from '@turf/turf';
import { createOSMStream } from 'osm-pbf-parser-node';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PlaceFeature, Position } from '../../../src/ingest/feature.ts';
import { assembleArea, emptyOsmStats, isAreaTags, readOsmPbf, type WayPath } from '../../../src/ingest/osm.ts';
import { readFileSync } from 'node:fs';
import { hasMidtown, MIDTOWN_PBF, needs, tempFile } from './data.ts';

/** Twice the signed area; > 0 = counter-clockwise. Written here again so the test does not trust the code under test. */
function signedArea2(ring: Position[]): number {
  let s = 0;
  for (let i = 0; i + 1 < ring.length; i++) s += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
  return s;
}

function polygonsOf(f: PlaceFeature): Position[][][] {
  if (f.geometry.type === 'Polygon') return [f.geometry.coordinates];
  if (f.geometry.type === 'MultiPolygon') return f.geometry.coordinates;
  return [];
}

describe('assembleArea (hand-made ways)', () => {
  const way = (wayId: number, pts: [number, number, number][]): WayPath => ({
    wayId,
    refs: pts.map((p) => p[0]),
    coords: pts.map((p) => [p[1], p[2]] as Position),
  });

  it('joins open ways end to end (one reversed) into a closed CCW ring', () => {
    const r = assembleArea([
      way(1, [[1, 0, 0], [2, 10, 0], [3, 10, 10]]),
      way(2, [[1, 0, 0], [4, 0, 10], [3, 10, 10]]), // runs the "wrong" way
    ]);
    expect('geometry' in r).toBe(true);
    if (!('geometry' in r) || r.geometry.type !== 'Polygon') throw new Error('expected Polygon');
    const ring = r.geometry.coordinates[0]!;
    expect(ring).toHaveLength(5);
    expect(ring[0]).toEqual(ring[4]);
    expect(signedArea2(ring)).toBeGreaterThan(0);
  });

  it('puts holes in their outer ring (CW) and islands in holes as new polygons', () => {
    const square = (id: number, base: number, x0: number, size: number, cw: boolean) => {
      const pts: [number, number, number][] = [
        [base, x0, x0], [base + 1, x0 + size, x0], [base + 2, x0 + size, x0 + size], [base + 3, x0, x0 + size], [base, x0, x0],
      ];
      return way(id, cw ? pts.reverse() : pts);
    };
    const r = assembleArea([square(3, 300, 4, 2, false), square(1, 100, 0, 10, true), square(2, 200, 2, 6, false), square(4, 400, 20, 1, false)]);
    if (!('geometry' in r) || r.geometry.type !== 'MultiPolygon') throw new Error(`expected MultiPolygon, got ${JSON.stringify(r)}`);
    const polys = r.geometry.coordinates;
    expect(polys.map((p) => p.length).sort()).toEqual([1, 1, 2]); // big square with hole, island, far square
    for (const p of polys) {
      expect(signedArea2(p[0]!)).toBeGreaterThan(0);
      for (const hole of p.slice(1)) expect(signedArea2(hole)).toBeLessThan(0);
    }
  });

  it('reports an open ring instead of throwing', () => {
    const r = assembleArea([way(7, [[1, 0, 0], [2, 1, 0], [3, 1, 1]])]);
    expect(r).toEqual({ error: expect.stringContaining('way/7 is open at node/3') });
  });
});

describe('isAreaTags', () => {
  it('follows the documented area rules', () => {
    expect(isAreaTags({ building: 'yes' })).toBe(true);
    expect(isAreaTags({ leisure: 'park' })).toBe(true);
    expect(isAreaTags({ highway: 'pedestrian' })).toBe(false);
    expect(isAreaTags({ highway: 'pedestrian', area: 'yes' })).toBe(true);
    expect(isAreaTags({ barrier: 'fence' })).toBe(false);
    expect(isAreaTags({ natural: 'coastline' })).toBe(false);
    expect(isAreaTags({ natural: 'water' })).toBe(true);
    expect(isAreaTags({ building: 'yes', area: 'no' })).toBe(false);
  });
});

describe('readOsmPbf on broken input', () => {
  const drain = async (path: string) => {
    for await (const _ of readOsmPbf(path)) {
      // drain
    }
  };

  it('throws an IngestError for a missing file and for a file that is not PBF', async () => {
    await expect(drain('/nonexistent/x.osm.pbf')).rejects.toThrow(/x.osm.pbf: file: file does not exist/);
    await expect(drain(tempFile('x.osm.pbf', 'not a pbf at all'))).rejects.toThrow(/cannot read the PBF data/);
  });

  it.skipIf(!hasMidtown)(`throws an IngestError naming where a truncated or corrupt file broke${needs(MIDTOWN_PBF)}`, async () => {
    const bytes = readFileSync(MIDTOWN_PBF);
    await expect(drain(tempFile('cut.osm.pbf', bytes.subarray(0, 900_000)))).rejects.toThrow(/: data block \d+: cannot read the PBF data/);
    const corrupt = Buffer.from(bytes);
    corrupt.fill(0x55, 500_000, 500_100);
    await expect(drain(tempFile('bad.osm.pbf', corrupt))).rejects.toThrow(/: data block \d+: cannot read the PBF data \(incorrect data check\)/);
  });
});

describe.skipIf(!hasMidtown)(`readOsmPbf on the Midtown extract${needs(MIDTOWN_PBF)}`, () => {
  const features: PlaceFeature[] = [];
  const byId = new Map<string, PlaceFeature>();
  const warnings: string[] = [];
  const stats = emptyOsmStats();
  const truth = {
    nodes: 0,
    featureNodes: 0,
    namedFeatureNodes: 0,
    featureWays: 0,
    namedStreetNames: new Set<string>(),
    namedStreetWays: 0,
    taggedAreaRelations: 0,
  };

  beforeAll(async () => {
    const t0 = performance.now();
    for await (const f of readOsmPbf(MIDTOWN_PBF, { stats, onWarning: (w) => warnings.push(w.message) })) {
      features.push(f);
      byId.set(f.sourceId, f);
    }
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `readOsmPbf: ${features.length} features in ${seconds.toFixed(2)} s = ${Math.round(features.length / seconds)} features/s; ` +
        `${stats.nodes} nodes, ${stats.ways} ways, ${stats.relations} relations; ${warnings.length} warnings`,
    );

    // Independent second pass over the raw entities with the plain parser, counting by the spec's rules.
    const ignored = (k: string) => ['created_by', 'source', 'note', 'fixme', 'FIXME', 'converted_by', 'attribution', 'odbl', 'odbl:note'].includes(k) || k.startsWith('source:');
    const meaningful = (tags: Record<string, string> | undefined, except?: string) => Object.keys(tags ?? {}).some((k) => k !== except && !ignored(k));
    type Raw = { type?: string; id: number; tags?: Record<string, string>; refs?: number[] };
    for await (const item of createOSMStream(MIDTOWN_PBF) as AsyncIterable<Raw>) {
      if (item.type === 'node') {
        truth.nodes++;
        if (meaningful(item.tags)) {
          truth.featureNodes++;
          if (item.tags?.name) truth.namedFeatureNodes++;
        }
      } else if (item.type === 'way') {
        if (!meaningful(item.tags)) continue;
        truth.featureWays++;
        const t = item.tags!;
        const closed = item.refs!.length >= 4 && item.refs![0] === item.refs![item.refs!.length - 1];
        if (t.highway && t.name && !(closed && t.area === 'yes') && item.refs!.length >= 2) {
          truth.namedStreetWays++;
          truth.namedStreetNames.add(t.name);
        }
      } else if (item.type === 'relation') {
        const type = item.tags?.type;
        if ((type === 'multipolygon' || type === 'boundary') && meaningful(item.tags, 'type')) truth.taggedAreaRelations++;
      }
    }
  }, 120_000);

  it('emits one Point per node with meaningful tags, and every named one', () => {
    const points = features.filter((f) => f.sourceId.startsWith('node/'));
    expect(stats.nodes).toBe(truth.nodes);
    expect(points).toHaveLength(truth.featureNodes);
    expect(points.every((f) => f.geometry.type === 'Point')).toBe(true);
    expect(points.filter((f) => f.name !== null)).toHaveLength(truth.namedFeatureNodes);
    expect(truth.featureNodes).toBeGreaterThan(20_000); // README: ~22.6k tagged nodes
  });

  it('emits every tagged way (minus the ones reported as too short) and no untagged member way', () => {
    const ways = features.filter((f) => f.sourceId.startsWith('way/'));
    const tooShort = warnings.filter((w) => /way\/\d+: has \d+ node\(s\) in the file/.test(w)).length;
    expect(ways.length + tooShort).toBe(truth.featureWays);
    expect(ways.every((f) => Object.keys(f.tags).length > 0)).toBe(true);
  });

  it('names streets: named highway lines get category street unless a higher-priority key decides', () => {
    const higher = ['amenity', 'shop', 'tourism', 'leisure', 'historic', 'healthcare', 'office', 'craft', 'public_transport', 'railway', 'aeroway'];
    const namedHighwayLines = features.filter((f) => f.sourceId.startsWith('way/') && f.tags.highway && f.name && f.geometry.type === 'LineString');
    expect(namedHighwayLines).toHaveLength(truth.namedStreetWays);
    expect(new Set(namedHighwayLines.map((f) => f.name))).toEqual(truth.namedStreetNames);
    const streets = features.filter((f) => f.category === 'street');
    expect(streets.every((f) => f.geometry.type === 'LineString' && f.name && f.tags.highway)).toBe(true);
    for (const f of namedHighwayLines) if (f.category !== 'street') expect(higher.some((k) => f.tags[k]), f.sourceId).toBe(true);
    expect(streets.length).toBeGreaterThan(0.9 * namedHighwayLines.length);
    const streetNames = new Set(streets.map((f) => f.name));
    for (const name of ['West 34th Street', 'Lexington Avenue', 'Broadway', 'High Line']) expect(streetNames.has(name), name).toBe(true);
    console.log(`named highway lines: ${namedHighwayLines.length} ways, ${truth.namedStreetNames.size} distinct names; category street: ${streets.length}`);
  });

  it('has Bryant Park and Madison Square Park as park polygons of plausible size', () => {
    for (const [name, minM2, maxM2] of [['Bryant Park', 15_000, 50_000], ['Madison Square Park', 15_000, 40_000]] as const) {
      const parks = features.filter((f) => f.name === name && f.category === 'park');
      expect(parks.length, name).toBeGreaterThan(0);
      const park = parks[0]!;
      expect(['Polygon', 'MultiPolygon']).toContain(park.geometry.type);
      const m2 = turfArea(park.geometry as Parameters<typeof turfArea>[0]);
      expect(m2, name).toBeGreaterThan(minM2);
      expect(m2, name).toBeLessThan(maxM2);
    }
  });

  it('assembles multipolygon relations, holes kept inside their outer ring', () => {
    const relations = features.filter((f) => f.sourceId.startsWith('relation/'));
    expect(relations.length + stats.failedRelations).toBe(truth.taggedAreaRelations);
    expect(relations.length).toBeGreaterThan(100);
    const withHoles = relations.filter((f) => polygonsOf(f).some((p) => p.length > 1));
    expect(withHoles.length).toBeGreaterThan(10);
    for (const f of withHoles) {
      for (const poly of polygonsOf(f)) {
        const outer = { type: 'Polygon' as const, coordinates: [poly[0]!] };
        for (const hole of poly.slice(1)) {
          // The hole's centroid-ish vertex average lies inside the outer ring.
          const inside = hole.slice(0, -1).some((p) => booleanPointInPolygon(p, outer, { ignoreBoundary: true }));
          expect(inside, f.sourceId).toBe(true);
        }
      }
    }
    // A failure is a warning naming the relation, never an exception.
    expect(warnings.filter((w) => /relation\/\d+: cannot build/.test(w))).toHaveLength(stats.failedRelations);
  });

  it('orients every ring per RFC 7946 (outer CCW, holes CW) and closes it', () => {
    let rings = 0;
    for (const f of features) {
      for (const poly of polygonsOf(f)) {
        poly.forEach((ring, i) => {
          rings++;
          expect(ring.length).toBeGreaterThanOrEqual(4);
          expect(ring[0]).toEqual(ring[ring.length - 1]);
          const a = signedArea2(ring);
          if (a !== 0) expect(i === 0 ? a > 0 : a < 0, `${f.sourceId} ring ${i}`).toBe(true);
        });
      }
    }
    expect(rings).toBeGreaterThan(10_000);
  });

  it('keeps all tags, builds ids and descriptions', () => {
    const keens = features.find((f) => f.name === 'Keens Steakhouse');
    expect(keens).toBeDefined();
    expect(keens!.sourceId).toMatch(/^(node|way|relation)\/\d+$/);
    expect(keens!.tags.amenity).toBe('restaurant');
    expect(keens!.category).toBe('restaurant');
    expect(keens!.description).toContain('Keens Steakhouse is a steak restaurant');
    expect(features.every((f) => f.source === 'osm' && f.description.length > 0)).toBe(true);
    expect(new Set(features.map((f) => f.sourceId)).size).toBe(features.length);
    // Coordinates are lon/lat inside the extract's bbox (-74.014,40.736 .. -73.963,40.759), give or take cut ways.
    const p = keens!.geometry.coordinates as Position;
    expect(p[0]).toBeGreaterThan(-74.02);
    expect(p[0]).toBeLessThan(-73.95);
    expect(p[1]).toBeGreaterThan(40.73);
    expect(p[1]).toBeLessThan(40.77);
    expect(byId.get('way/22727025')?.name).toBe('Bryant Park');
  });
});
