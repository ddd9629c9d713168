import { Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, DummyDriver } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/schema.ts';
import type { Constraint, SpatialPlan } from '../../../src/planning/plan.ts';
import { chooseTradeOff, rankCandidates } from '../../../src/ranking/rank.ts';
import type { ResolvedReference } from '../../../src/spatial/resolve.ts';
import { buildRetrievalQuery, type Candidate } from '../../../src/spatial/retrieve.ts';

// The SQL, its parameters and the ranking of every spatial function, frozen: a refactoring of the functions
// must leave them byte for byte as they are. Plans are written out here (not parsed), so that a change of the
// grammars does not move these files.
const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const point = (id: string, lon: number, lat: number): ResolvedReference => ({
  id,
  text: `place ${id}`,
  match: { placeId: 900 + Number(id.slice(1)), name: `Place ${id}`, category: null },
  shape: 'point',
  geometry: { type: 'Point', coordinates: [lon, lat] },
  centroid: { lon, lat },
});
const square: ResolvedReference = {
  id: 'r1',
  text: 'a square park',
  match: { placeId: 950, name: 'Square Park', category: 'park' },
  shape: 'polygon',
  geometry: { type: 'Polygon', coordinates: [[[-73.985, 40.752], [-73.981, 40.752], [-73.981, 40.755], [-73.985, 40.755], [-73.985, 40.752]]] },
  centroid: { lon: -73.983, lat: 40.7535 },
};
/** The square as a country: its code, and a land border along its west and north sides (its south and east a coast). */
const country: ResolvedReference = {
  ...square,
  countryCode: 'QQ',
  landBorder: { type: 'MultiLineString', coordinates: [[[-73.985, 40.752], [-73.985, 40.755], [-73.981, 40.755]]] },
};
/** The square as an island country: no land border. */
const island: ResolvedReference = { ...country, landBorder: { type: 'MultiLineString', coordinates: [] } };
const avenue: ResolvedReference = {
  id: 'r1',
  text: 'an avenue',
  match: { placeId: 960, name: 'Long Avenue', category: 'street' },
  shape: 'line',
  geometry: { type: 'LineString', coordinates: [[-73.99, 40.74], [-73.975, 40.76], [-73.96, 40.78]] },
  centroid: { lon: -73.975, lat: 40.76 },
};

function plan(constraints: Constraint[], refs: ResolvedReference[], extra: Partial<SpatialPlan> = {}): SpatialPlan {
  return {
    references: refs.map((r) => ({ id: r.id, text: r.text })),
    targets: { text: 'cafes', concepts: ['cafe'], tags: [['amenity', ['cafe']]], categories: ['cafe'] },
    constraints,
    semantic: { text: 'quiet', cues: ['quiet'] },
    spatialText: 'somewhere',
    preference: 'balanced',
    lang: 'en',
    confidence: 1,
    notes: [],
    ...extra,
  };
}

const cases: Array<[string, SpatialPlan, ResolvedReference[]]> = [
  ['within_distance-point', plan([{ fn: 'within_distance', ref: 'r1', distanceM: 250 }], [point('r1', -73.98, 40.75)]), [point('r1', -73.98, 40.75)]],
  ['within_distance-area', plan([{ fn: 'within_distance', ref: 'r1', distanceM: 400 }], [square]), [square]],
  ['inside', plan([{ fn: 'inside', ref: 'r1' }], [square]), [square]],
  ['along', plan([{ fn: 'along', ref: 'r1', bufferM: 80 }], [avenue]), [avenue]],
  ['nearest', plan([{ fn: 'nearest', ref: 'r1', k: 3 }], [point('r1', -73.98, 40.75)], { preference: 'nearest' }), [point('r1', -73.98, 40.75)]],
  [
    'between',
    plan([{ fn: 'between', refs: ['r1', 'r2'], bufferM: 150 }], [point('r1', -73.98, 40.75), point('r2', -73.97, 40.755)]),
    [point('r1', -73.98, 40.75), point('r2', -73.97, 40.755)],
  ],
  ['intersects', plan([{ fn: 'intersects', ref: 'r1' }], [avenue]), [avenue]],
  [
    'route-and-inside',
    plan([{ fn: 'along', ref: 'route', bufferM: 200 }, { fn: 'inside', ref: 'r3' }], [point('r1', -73.99, 40.75), point('r2', -73.97, 40.752), { ...square, id: 'r3' }], {
      route: { from: 'r1', to: 'r2' },
    }),
    [point('r1', -73.99, 40.75), point('r2', -73.97, 40.752), { ...square, id: 'r3' }],
  ],
  ['within_distance-sphere', plan([{ fn: 'within_distance', ref: 'r1', distanceM: 30_000 }], [point('r1', -73.98, 40.75)]), [point('r1', -73.98, 40.75)]],
  ['direction-point', plan([{ fn: 'direction', ref: 'r1', bearing: 'north_east', distanceM: 300 }], [point('r1', -73.98, 40.75)]), [point('r1', -73.98, 40.75)]],
  ['direction-area', plan([{ fn: 'direction', ref: 'r1', bearing: 'south', distanceM: 500 }], [square]), [square]],
  ['direction-sphere', plan([{ fn: 'direction', ref: 'r1', bearing: 'west', distanceM: 30_000 }], [point('r1', -73.98, 40.75)]), [point('r1', -73.98, 40.75)]],
  ['border-area', plan([{ fn: 'border', ref: 'r1', distanceM: 120 }], [square]), [square]],
  ['border-and-inside', plan([{ fn: 'border', ref: 'r1', distanceM: 120 }, { fn: 'inside', ref: 'r1' }], [square]), [square]],
  ['inside-country', plan([{ fn: 'inside', ref: 'r1' }], [country]), [country]],
  ['border-land-and-inside-country', plan([{ fn: 'border', ref: 'r1', distanceM: 120 }, { fn: 'inside', ref: 'r1' }], [country]), [country]],
  ['border-island', plan([{ fn: 'border', ref: 'r1', distanceM: 120 }], [island]), [island]],
  [
    'population-order-inside',
    plan([{ fn: 'inside', ref: 'r1' }], [square], {
      targets: { text: 'cities', concepts: ['city'], tags: [['place', ['city', 'town']]], categories: ['city', 'town'] },
      order: { by: 'population', direction: 'desc', k: 3 },
    }),
    [square],
  ],
];

function compiled(p: SpatialPlan, refs: ResolvedReference[], options: { taggedOnly?: boolean; vectors?: boolean; targetMatches?: number }) {
  const { sql, parameters } = buildRetrievalQuery({
    plan: p,
    references: refs,
    ...(options.vectors === false ? {} : { semanticVector: [1, 0, 0], spatialVector: [0, 1, 0] }),
    embeddingModel: 'test-model',
    ...(options.taggedOnly ? { taggedOnly: true } : {}),
    ...(options.targetMatches !== undefined ? { targetMatches: options.targetMatches } : {}),
  }).compile(db);
  return `${sql}\n-- parameters: ${JSON.stringify(parameters)}\n`;
}

/** Candidates at fixed distances, half of them satisfying each constraint, to freeze the ranking's scores. */
function candidates(p: SpatialPlan): Candidate[] {
  return [0, 1, 2, 3, 4, 5, 6, 7].map((i) => ({
    id: i + 1,
    sourceId: `node/${i + 1}`,
    name: `Candidate ${i + 1}`,
    category: 'cafe',
    description: null,
    bbox: [-73.98, 40.75, -73.98, 40.75],
    distances: p.constraints.map((_, j) => 40 + i * 90 + j * 7),
    satisfied: p.constraints.map(() => i % 3 !== 2),
    tagMatch: i % 4 !== 3,
    population: p.order ? 10_000 * (1 + ((i * 5) % 8)) : null,
    semanticSimilarity: 0.2 + (i % 5) * 0.1,
    spatialSimilarity: 0.5 - (i % 3) * 0.1,
  }));
}

describe('golden SQL and ranking of every spatial function', () => {
  it.each(cases)('%s', async (name, p, refs) => {
    const text = [
      '-- all pools, with query vectors',
      compiled(p, refs, {}),
      '-- tagged pool alone, rare targets',
      compiled(p, refs, { taggedOnly: true, targetMatches: 12 }),
      '-- all pools, without query vectors',
      compiled(p, refs, { vectors: false }),
    ].join('\n');
    await expect(text).toMatchFileSnapshot(`../../golden/sql/${name}.sql`);
    const ranked = rankCandidates(p, candidates(p), chooseTradeOff(p)).map((c) => ({
      id: c.id,
      satisfied: c.satisfied,
      spatial: Math.round(c.spatial * 1e6) / 1e6,
      scores: c.scores,
      pareto: c.pareto,
    }));
    await expect(`${JSON.stringify(ranked, null, 1)}\n`).toMatchFileSnapshot(`../../golden/spatial/${name}.rank.json`);
  });
});
