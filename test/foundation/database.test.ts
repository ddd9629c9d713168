import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { isServer, openTestDatabase, testMode, type TestDatabase } from '../helpers/database.ts';
import { schemaSnapshot } from '../helpers/schema-snapshot.ts';

describe(`database (${testMode} mode)`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => database?.dispose());

  it('runs migrations idempotently: a second run applies nothing and changes no catalogue entry', async () => {
    const before = await schemaSnapshot(database.db);
    const second = await migrateToLatest(database.db);
    expect(second.results).toEqual([]);
    expect(await schemaSnapshot(database.db)).toEqual(before);
  });

  it('has PostGIS, pgvector and pg_trgm', async () => {
    const { rows } = await sql<{ extname: string }>`SELECT extname FROM pg_extension ORDER BY extname`.execute(database.db);
    expect(rows.map((r) => r.extname)).toEqual(expect.arrayContaining(['pg_trgm', 'postgis', 'vector']));
  });

  it('measures metres on geography: Penn Station to Grand Central is about 1.4 km', async () => {
    const { rows } = await sql<{ m: number }>`
      SELECT ST_Distance(ST_GeogFromText('POINT(-73.9935 40.7506)'), ST_GeogFromText('POINT(-73.9772 40.7527)')) AS m`.execute(
      database.db,
    );
    expect(rows[0]!.m).toBeGreaterThan(1350);
    expect(rows[0]!.m).toBeLessThan(1420);
  });

  it('stores places with a generated geography and finds nearest embeddings by cosine distance', async () => {
    const vec = (i: number) => `[${Array.from({ length: 384 }, (_, j) => (j === i ? 1 : j === i + 1 ? 0.5 : 0)).join(',')}]`;
    for (let i = 0; i < 20; i++) {
      await database.db
        .insertInto('places')
        .values({
          source: 'test',
          source_id: `p${i}`,
          name: `place ${i}`,
          category: 'test',
          tags: '{}',
          description: `place number ${i}`,
          geom: sql`ST_SetSRID(ST_MakePoint(${-74 + i * 0.001}, 40.75), 4326)` as never,
          embedding: vec(i),
          embedding_model: 'test',
        })
        .execute();
    }
    const { rows } = await sql<{ source_id: string; m: number }>`
      SELECT source_id, ST_Distance(geog, ST_GeogFromText('POINT(-74 40.75)')) AS m
      FROM places ORDER BY embedding <=> ${vec(7)}::vector LIMIT 3`.execute(database.db);
    expect(rows[0]!.source_id).toBe('p7');
    expect(rows[0]!.m).toBeGreaterThan(580);
    expect(rows[0]!.m).toBeLessThan(600);
  });

  it.skipIf(!isServer)('uses the HNSW index for a KNN query (server mode: EXPLAIN)', async () => {
    await sql`ANALYZE places`.execute(database.db);
    const probe = `[${Array.from({ length: 384 }, (_, j) => (j === 3 ? 1 : 0)).join(',')}]`;
    await sql`SET enable_seqscan = off`.execute(database.db);
    const { rows } = await sql<{ 'QUERY PLAN': string }>`
      EXPLAIN SELECT id FROM places ORDER BY embedding <=> ${probe}::vector LIMIT 5`.execute(database.db);
    await sql`RESET enable_seqscan`.execute(database.db);
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('places_embedding_idx');
  });
  it('stores the tag tokens of a place: key=value per value of a ;-list, key=* unless the value is no/none', async () => {
    // The expected tokens are those of the first, set-based SQL definition (migration 0007), which the
    // PL/pgSQL one of migration 0010 must reproduce token for token.
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, []],
      [{ amenity: 'restaurant', cuisine: 'steak_house' }, ['amenity=restaurant', 'amenity=*', 'cuisine=steak_house', 'cuisine=*']],
      [{ cuisine: 'donut; coffee_shop' }, ['cuisine=donut', 'cuisine=coffee_shop', 'cuisine=*']],
      [{ a: 'x ;y; ' }, ['a=x', 'a=y', 'a=', 'a=*']],
      [{ a: ';' }, ['a=', 'a=', 'a=*']],
      [{ wheelchair: 'no' }, ['wheelchair=no']],
      [{ fee: 'none' }, ['fee=none']],
      [{ a: ' no ' }, ['a=no', 'a=*']],
      [{ a: 'no;yes' }, ['a=no', 'a=yes', 'a=*']],
      [{ a: '' }, ['a=', 'a=*']],
      [{ a: null }, ['a=*']],
      [{ n: 1, b: true }, ['b=true', 'b=*', 'n=1', 'n=*']],
    ];
    for (const [tags, expected] of cases) {
      const { rows } = await sql<{ tokens: string[] }>`SELECT place_tag_tokens(${JSON.stringify(tags)}::jsonb) AS tokens`.execute(database.db);
      expect(rows[0]!.tokens, JSON.stringify(tags)).toEqual(expected);
    }
  });
});
