import { sql } from 'kysely';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineEmbedder } from '../../src/embedding/offline-embedder.ts';
import { createOfflineEmbedderWithLexicons } from '../../src/embedding/configured.ts';
import { reembedPlaces } from '../../src/embedding/reembed.ts';
import { EmbeddingSpaceMismatch } from '../../src/embedding/space.ts';
import type { IngestError, PlaceFeature } from '../../src/ingest/feature.ts';
import { readPlaces, SOURCE_PRESETS } from '../../src/ingest/formats.ts';
import { embeddingText, loadPlaces } from '../../src/ingest/load.ts';
import { countRows, openTestDatabase, testMode, type TestDatabase } from '../helpers/database.ts';
import { hasNycData, NO_NYC_DATA, NYC_NEIGHBORHOODS, WIKIVOYAGE } from '../helpers/data.ts';
import { existsSync } from 'node:fs';

const embedder = createOfflineEmbedderWithLexicons();

function featureCollection(features: object[]) {
  return { type: 'FeatureCollection', features };
}
const point = (id: string, name: string, lon: number, lat: number) => ({
  type: 'Feature',
  id,
  properties: { name, category: 'cafe' },
  geometry: { type: 'Point', coordinates: [lon, lat] },
});

describe(`loading places (${testMode} mode)`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => database?.dispose());

  it('writes places with descriptions, embeddings of the recorded model, and upserts on re-import', async () => {
    const file = join(tmpdir(), `srag-small-${process.pid}.geojson`);
    writeFileSync(file, JSON.stringify(featureCollection([point('a', 'Cafe A', -73.98, 40.75), point('b', 'Cafe B', -73.99, 40.74)])));
    const first = await loadPlaces(database.db, embedder, readPlaces(file, { source: 'small' }));
    expect(first).toMatchObject({ read: 2, written: 2 });
    const again = await loadPlaces(database.db, embedder, readPlaces(file, { source: 'small' }));
    expect(again.written).toBe(2);
    expect(await countRows(database.db, 'places')).toBe(2);
    const row = await database.db.selectFrom('places').selectAll().where('source_id', '=', 'a').executeTakeFirstOrThrow();
    expect(row.description).toContain('Cafe A');
    expect(row.embedding_model).toBe(embedder.model);
    const space = await database.db.selectFrom('embedding_spaces').selectAll().executeTakeFirstOrThrow();
    expect(space).toMatchObject({ name: 'places', model: embedder.model, dimension: embedder.dimension });
  });

  it('leaves the database unchanged when a feature in the middle of a file is bad (no --skip-invalid)', async () => {
    const before = await countRows(database.db, 'places');
    const features = Array.from({ length: 2500 }, (_, i) => point(`f${i}`, `Place ${i}`, -73.9 - i * 1e-5, 40.7));
    features[2100] = { ...point('bad', 'Bad', 0, 0), geometry: { type: 'Point', coordinates: [200, 95] } };
    const file = join(tmpdir(), `srag-bad-${process.pid}.geojson`);
    writeFileSync(file, JSON.stringify(featureCollection(features)));
    // Two batches are written before the bad record is reached: the transaction must undo them.
    await expect(loadPlaces(database.db, embedder, readPlaces(file, { source: 'bad' }))).rejects.toThrow(/feature 2101/);
    expect(await countRows(database.db, 'places')).toBe(before);

    const skipped: IngestError[] = [];
    const report = await loadPlaces(database.db, embedder, readPlaces(file, { source: 'bad', skipInvalid: true, onWarning: (w) => skipped.push(w) }));
    expect(report.written).toBe(2499);
    expect(skipped.map((s) => s.location)).toEqual(['feature 2101']);
  });

  it('repairs invalid polygons with ST_MakeValid and reports them', async () => {
    const bowtie = {
      type: 'Feature',
      id: 'bowtie',
      properties: { name: 'Bow tie' },
      geometry: { type: 'Polygon', coordinates: [[[-73.98, 40.75], [-73.97, 40.76], [-73.97, 40.75], [-73.98, 40.76], [-73.98, 40.75]]] },
    };
    const report = await loadPlaces(database.db, embedder, readPlaces(writeTemp('bowtie', featureCollection([bowtie])), { source: 'repair' }));
    expect(report.repaired).toEqual(['bowtie']);
    const { rows } = await sql<{ valid: boolean; type: string }>`
      SELECT ST_IsValid(geom) AS valid, GeometryType(geom) AS type FROM places WHERE source = 'repair'`.execute(database.db);
    expect(rows[0]).toMatchObject({ valid: true, type: 'MULTIPOLYGON' });
  });

  it('refuses to mix vectors of two models, and reembed switches the model and dimension', async () => {
    const other = createOfflineEmbedder({ dimension: 256 });
    await expect(loadPlaces(database.db, other, [])).rejects.toThrow(EmbeddingSpaceMismatch);
    const named = await database.db.selectFrom('places').select('id').where('name', 'is not', null).execute();
    expect(await reembedPlaces(database.db, other)).toBe(named.length);
    const { rows } = await sql<{ dims: number; models: string[] }>`
      SELECT max(vector_dims(embedding)) AS dims, array_agg(DISTINCT embedding_model) AS models
      FROM places WHERE embedding IS NOT NULL`.execute(database.db);
    expect(rows[0]).toEqual({ dims: 256, models: [other.model] });
    await expect(loadPlaces(database.db, embedder, [])).rejects.toThrow(/npm run reembed/);
    await reembedPlaces(database.db, embedder); // back, for the tests after this one
  });

  it('stores every geometry type exactly as read (binary transfer), holes included', async () => {
    const geometries = [
      { type: 'Point', coordinates: [-73.9851234, 40.7581234] },
      { type: 'LineString', coordinates: [[-73.98, 40.75], [-73.97, 40.751], [-73.96, 40.7525]] },
      { type: 'Polygon', coordinates: [[[-73.99, 40.74], [-73.98, 40.74], [-73.98, 40.75], [-73.99, 40.75], [-73.99, 40.74]], [[-73.988, 40.742], [-73.988, 40.744], [-73.986, 40.744], [-73.986, 40.742], [-73.988, 40.742]]] },
      { type: 'MultiPoint', coordinates: [[-73.9, 40.7], [-73.91, 40.71]] },
      { type: 'MultiLineString', coordinates: [[[-73.9, 40.7], [-73.91, 40.71]], [[-73.92, 40.72], [-73.93, 40.73]]] },
      { type: 'MultiPolygon', coordinates: [[[[-73.9, 40.7], [-73.89, 40.7], [-73.89, 40.71], [-73.9, 40.7]]], [[[-73.8, 40.7], [-73.79, 40.7], [-73.79, 40.71], [-73.8, 40.7]]]] },
    ];
    const features = geometries.map((geometry, i) => ({ type: 'Feature', id: `g${i}`, properties: { name: `G${i}` }, geometry }));
    await loadPlaces(database.db, embedder, readPlaces(writeTemp('types', featureCollection(features)), { source: 'types' }));
    const { rows } = await sql<{ source_id: string; geojson: string }>`
      SELECT source_id, ST_AsGeoJSON(geom, 15) AS geojson FROM places WHERE source = 'types' ORDER BY source_id`.execute(database.db);
    expect(rows.map((r) => JSON.parse(r.geojson))).toEqual(geometries);
  });

  it('describes places with the street they are on and the neighbourhood they are in, from data loaded before or later', async () => {
    const m = (x: number, y: number): [number, number] => [-73.99 + x / 84_300, 40.75 + y / 111_195];
    await loadPlaces(database.db, embedder, [
      {
        source: 'ctx-areas', sourceId: 'testville', name: 'Testville', category: 'neighbourhood', tags: {}, description: 'Testville.',
        geometry: { type: 'Polygon', coordinates: [[m(-500, -500), m(500, -500), m(500, 500), m(-500, 500), m(-500, -500)]] },
      },
    ]);
    // The cafes come before the street in the file, as shops come before ways in OSM extracts.
    const file = writeTemp('context', featureCollection([
      { type: 'Feature', id: 'joe', properties: { name: 'Cafe Joe', category: 'cafe' }, geometry: { type: 'Point', coordinates: m(50, 12) } },
      { type: 'Feature', id: 'ann', properties: { name: 'Cafe Ann', category: 'cafe', 'addr:street': 'Broadway', 'addr:housenumber': '1' }, geometry: { type: 'Point', coordinates: m(60, 12) } },
      { type: 'Feature', id: 'far', properties: { category: 'bench' }, geometry: { type: 'Point', coordinates: m(50, 100) } },
      { type: 'Feature', id: 'main', properties: { name: 'Main Street', category: 'street' }, geometry: { type: 'LineString', coordinates: [m(-400, 0), m(400, 0)] } },
    ]));
    await loadPlaces(database.db, embedder, readPlaces(file, { source: 'ctx', describe: false }));
    const rows = await database.db.selectFrom('places').select(['source_id', 'description', 'embedding_model']).where('source', '=', 'ctx').orderBy('source_id').execute();
    expect(Object.fromEntries(rows.map((r) => [r.source_id, r.description]))).toEqual({
      ann: 'Cafe Ann is a cafe at 1 Broadway in Testville.',
      far: 'An unnamed bench in Testville.',
      joe: 'Cafe Joe is a cafe on Main Street in Testville.',
      main: 'Main Street is a street in Testville.',
    });
    expect(rows.find((r) => r.source_id === 'joe')!.embedding_model).toBe(embedder.model);
    const [joe] = await embedder.embed([embeddingText({ name: 'Cafe Joe', description: 'Cafe Joe is a cafe on Main Street in Testville.' })]);
    const { rows: sim } = await sql<{ d: number }>`
      SELECT embedding <=> ${`[${joe!.join(',')}]`}::vector AS d FROM places WHERE source = 'ctx' AND source_id = 'joe'`.execute(database.db);
    expect(sim[0]!.d).toBeLessThan(1e-5); // the vector is of the final description
  });

  it('keeps the last of repeated source ids, within a batch and across batches', async () => {
    const f = (name: string): PlaceFeature => ({
      source: 'dup', sourceId: 'x', name, category: 'cafe', tags: { name }, description: `${name}.`, geometry: { type: 'Point', coordinates: [-73.9, 40.7] },
    });
    await loadPlaces(database.db, embedder, [f('First'), f('Second')]);
    expect((await database.db.selectFrom('places').select('name').where('source', '=', 'dup').execute()).map((r) => r.name)).toEqual(['Second']);
    await loadPlaces(database.db, embedder, [f('Third'), f('Fourth'), f('Fifth')], { batchSize: 1 });
    expect((await database.db.selectFrom('places').select('name').where('source', '=', 'dup').execute()).map((r) => r.name)).toEqual(['Fifth']);
  });

  it('rebuilds the vector index after a bulk load, and keeps it when a bulk load fails', async () => {
    const many = (n: number, bad?: number) =>
      Array.from({ length: n }, (_, i): PlaceFeature => ({
        source: 'bulk', sourceId: String(i), name: `Bulk ${i}`, category: 'cafe', tags: {}, description: `Bulk ${i}.`,
        geometry: { type: 'Point', coordinates: i === bad ? [Number.NaN, 0] : [-73.9 + i * 1e-4, 40.7] },
      }));
    const hasIndex = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = 'places_embedding_idx'`.execute(database.db)).rows[0]!.n;
    // Embedded, the bulk mode drops the other secondary indexes too: all come back exactly as migrated.
    const indexes = async () =>
      (await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE tablename = 'places' ORDER BY indexname`.execute(database.db)).rows.map((r) => r.indexdef);
    const migrated = await indexes();
    expect(migrated.length).toBeGreaterThanOrEqual(7);
    // A first full batch into a small table: the bulk mode drops the HNSW index and builds it at the end.
    await loadPlaces(database.db, embedder, many(30), { batchSize: 10 });
    expect(await hasIndex()).toBe(1);
    expect(await indexes()).toEqual(migrated);
    const before = await countRows(database.db, 'places');
    await expect(loadPlaces(database.db, embedder, many(30, 25), { batchSize: 10 })).rejects.toThrow(/bulk: 25: coordinate \[NaN, 0\] is not/);
    expect(await hasIndex()).toBe(1);
    expect(await indexes()).toEqual(migrated);
    expect(await countRows(database.db, 'places')).toBe(before);
    await loadPlaces(database.db, embedder, many(30), { deferVectorIndex: true });
    expect(await indexes()).toEqual(migrated);
  });

  it('leaves no pending entries in the GIN indexes (every search would read them in full)', async () => {
    // A load that keeps the indexes (not bulk): new entries go to the GIN pending lists first.
    await loadPlaces(database.db, embedder, (async function* () {
      for (let i = 0; i < 300; i++) {
        yield { source: 'gin', sourceId: String(i), name: `Gin Place ${i}`, category: 'cafe', tags: { amenity: 'cafe', 'name:zh': `咖啡${i}` }, description: `Gin ${i}.`,
          geometry: { type: 'Point', coordinates: [-73.95 + i * 1e-4, 40.71] } } satisfies PlaceFeature;
      }
    })(), { deferVectorIndex: false });
    const { rows } = await sql<{ name: string; pages: number }>`
      SELECT c.relname AS name, gin_clean_pending_list(i.indexrelid)::int AS pages
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
      WHERE i.indrelid = 'places'::regclass AND a.amname = 'gin' ORDER BY 1`.execute(database.db);
    expect(rows.map((r) => r.name)).toEqual(['places_candidate_tags_idx', 'places_name_trgm_idx', 'places_names_idx']);
    expect(rows.map((r) => r.pages)).toEqual([0, 0, 0]);
  });

  it.skipIf(!hasNycData)('loads the 386 NYC neighbourhood polygons with their summaries', async () => {
    const report = await loadPlaces(database.db, embedder, readPlaces(NYC_NEIGHBORHOODS, SOURCE_PRESETS.nycNeighborhoods));
    expect(report.written).toBe(386);
    const { rows } = await sql<{ n: number; polygons: number; with_summary: number }>`
      SELECT count(*)::int AS n,
             count(*) FILTER (WHERE GeometryType(geom) IN ('POLYGON', 'MULTIPOLYGON'))::int AS polygons,
             count(*) FILTER (WHERE description = tags->>'summary')::int AS with_summary
      FROM places WHERE source = 'nyc-neighborhoods'`.execute(database.db);
    expect(rows[0]).toEqual({ n: 386, polygons: 386, with_summary: 386 });
  });

  it.skipIf(!existsSync(WIKIVOYAGE))('loads the 17,428 Wikivoyage destinations as points', async () => {
    const report = await loadPlaces(database.db, embedder, readPlaces(WIKIVOYAGE, SOURCE_PRESETS.wikivoyage), {
      deferVectorIndex: database.mode === 'embedded',
    });
    expect(report.written).toBe(17_428);
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM places WHERE source = 'wikivoyage' AND GeometryType(geom) = 'POINT'`.execute(database.db);
    expect(rows[0]!.n).toBe(17_428);
  }, 300_000);
});

function writeTemp(name: string, content: object): string {
  const file = join(tmpdir(), `srag-${name}-${process.pid}.geojson`);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

if (!hasNycData) console.warn(NO_NYC_DATA);
