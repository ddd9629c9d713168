import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPlaces, SOURCE_PRESETS } from '../../src/ingest/formats.ts';
import { openTestDatabase, testMode, type TestDatabase } from '../helpers/database.ts';
import { hasNycData, MIDTOWN_PBF, NO_NYC_DATA } from '../helpers/data.ts';

// The NYC fixture is the Midtown extract loaded by the real ingest path (test/global-setup.ts).
describe.skipIf(!hasNycData)(`the Midtown OSM extract in the database (${testMode} mode)`, () => {
  let database: TestDatabase;
  let fromFile: { total: number; namedPoints: number; namedStreets: number; polygons: number };
  beforeAll(async () => {
    database = await openTestDatabase('nyc');
    fromFile = { total: 0, namedPoints: 0, namedStreets: 0, polygons: 0 };
    for await (const f of readPlaces(MIDTOWN_PBF, { ...SOURCE_PRESETS.osm, skipInvalid: true, onWarning: () => undefined })) {
      fromFile.total++;
      if (f.geometry.type === 'Point' && f.name) fromFile.namedPoints++;
      if (f.category === 'street' && f.name) fromFile.namedStreets++;
      if (f.geometry.type === 'Polygon' || f.geometry.type === 'MultiPolygon') fromFile.polygons++;
    }
  });
  afterAll(async () => database?.dispose());

  it('holds every feature of the file: named points, named streets and polygons', async () => {
    const { rows } = await sql<{ total: number; named_points: number; named_streets: number; polygons: number }>`
      SELECT count(*)::int AS total,
             count(*) FILTER (WHERE GeometryType(geom) = 'POINT' AND name IS NOT NULL)::int AS named_points,
             count(*) FILTER (WHERE category = 'street' AND name IS NOT NULL)::int AS named_streets,
             count(*) FILTER (WHERE GeometryType(geom) IN ('POLYGON', 'MULTIPOLYGON'))::int AS polygons
      FROM places WHERE source = 'osm'`.execute(database.db);
    expect(rows[0]).toEqual({
      total: fromFile.total,
      named_points: fromFile.namedPoints,
      named_streets: fromFile.namedStreets,
      polygons: fromFile.polygons,
    });
    expect(fromFile.namedPoints).toBeGreaterThan(5000);
    expect(fromFile.namedStreets).toBeGreaterThan(1000);
  });

  it.each([
    ['Bryant Park', 18_000, 45_000],
    ['Madison Square Park', 20_000, 35_000],
  ])('has %s as a park polygon of plausible area', async (name, minM2, maxM2) => {
    const { rows } = await sql<{ area: number; category: string }>`
      SELECT ST_Area(geog) AS area, category FROM places
      WHERE source = 'osm' AND name = ${name} AND GeometryType(geom) IN ('POLYGON', 'MULTIPOLYGON')
      ORDER BY ST_Area(geog) DESC LIMIT 1`.execute(database.db);
    expect(rows[0]?.category).toBe('park');
    expect(rows[0]!.area).toBeGreaterThan(minM2);
    expect(rows[0]!.area).toBeLessThan(maxM2);
  });

  it('keeps the inner rings of multipolygons, with valid RFC 7946 output orientation', async () => {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM places
      WHERE source = 'osm' AND source_id LIKE 'relation/%' AND ST_NumInteriorRings(ST_GeometryN(geom, 1)) > 0`.execute(database.db);
    expect(rows[0]!.n).toBeGreaterThan(0);
  });

  it('keeps source ids and all tags, and describes named places from their tags', async () => {
    const keens = await database.db
      .selectFrom('places')
      .select(['source_id', 'category', 'tags', 'description'])
      .where('source', '=', 'osm')
      .where('name', '=', 'Keens Steakhouse')
      .executeTakeFirstOrThrow();
    expect(keens.source_id).toMatch(/^(node|way|relation)\/\d+$/);
    expect(keens.tags.cuisine).toContain('steak');
    expect(keens.category).toBe('restaurant');
    expect(keens.description.toLowerCase()).toContain('steak');
  });
});

if (!hasNycData) console.warn(NO_NYC_DATA);
