import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineEmbedderWithLexicons } from '../../src/embedding/configured.ts';
import type { PlaceFeature } from '../../src/ingest/feature.ts';
import type { LandBorder } from '../../src/ingest/land-borders.ts';
import { loadPlaces } from '../../src/ingest/load.ts';
import { fillMissingLandBorders } from '../../src/ingest/seed.ts';
import { openTestDatabase, testMode, type TestDatabase } from '../helpers/database.ts';

// Two invented areas that meet along the meridian 10° E, and a third with no land neighbour.
const square = (west: number, east: number): PlaceFeature['geometry'] => ({
  type: 'Polygon',
  coordinates: [[[west, 50], [east, 50], [east, 51], [west, 51], [west, 50]]],
});
const area = (sourceId: string, name: string, geometry: PlaceFeature['geometry']): PlaceFeature => ({
  source: 'areas-test', sourceId, name, category: 'country', tags: { name }, description: `${name}.`, geometry,
});
const AREAS = [area('w', 'Westmark', square(9, 10)), area('e', 'Eastmark', square(10, 11)), area('i', 'Isle', square(20, 21))];
const SHARED: LandBorder['border'] = { type: 'MultiLineString', coordinates: [[[10, 50], [10, 51]]] };
function* borders(): Generator<LandBorder> {
  yield { sourceId: 'w', border: SHARED };
  yield { sourceId: 'e', border: SHARED };
}

let database: TestDatabase;

describe(`land borders of a database seeded without them (${testMode} mode)`, () => {
  beforeAll(async () => {
    database = await openTestDatabase();
    await loadPlaces(database.db, createOfflineEmbedderWithLexicons(), (async function* () {
      yield* AREAS;
    })());
  }, 120_000);
  afterAll(async () => database?.dispose());

  it('writes the borders of areas that are in but lack them, once', async () => {
    const groups = [{ source: 'areas-test', features: () => AREAS, landBorders: borders }];
    expect(await fillMissingLandBorders(database.db, groups)).toBe(2);
    const { rows } = await sql<{ source_id: string; km: number }>`
      SELECT source_id, ST_Length(border::geography) / 1000 AS km FROM land_borders WHERE source = 'areas-test' ORDER BY source_id`.execute(database.db);
    expect(rows.map((r) => r.source_id)).toEqual(['e', 'w']);
    expect(rows[0]!.km).toBeGreaterThan(100);
    expect(await fillMissingLandBorders(database.db, groups)).toBe(0);
  });

  it('writes nothing for a source whose areas are not loaded', async () => {
    const absent = [{ source: 'areas-not-loaded', features: () => [], landBorders: borders }];
    expect(await fillMissingLandBorders(database.db, absent)).toBe(0);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM land_borders WHERE source = 'areas-not-loaded'`.execute(database.db);
    expect(rows[0]!.n).toBe(0);
  });
});
