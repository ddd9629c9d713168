import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellKey, LARGE_KEY, REFERENCE_TABLES, shardKeysOfBoxes, shardsTouched } from '../../src/db/citus.ts';
import { createOfflineEmbedderWithLexicons } from '../../src/embedding/configured.ts';
import type { PlaceFeature } from '../../src/ingest/feature.ts';
import { loadPlaces } from '../../src/ingest/load.ts';
import { queryEmbedderFor } from '../../src/embedding/query-embedding.ts';
import { planOffline } from '../../src/planning/offline-planner.ts';
import { resolveReferences } from '../../src/spatial/resolve.ts';
import { retrievalQuery } from '../../src/spatial/retrieve.ts';
import { isCitus } from '../helpers/citus.ts';
import { countRows, openTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { hasNycData, NO_NYC_DATA } from '../helpers/data.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

const NOT_CITUS = 'skipped: not the Citus test mode (DATABASE_URL of scripts/setup-citus.sh and CITUS_ADMIN_URL)';
const embedder = createOfflineEmbedderWithLexicons();

const cafe = (sourceId: string, name: string, lon: number, lat: number): PlaceFeature => ({
  source: 'test',
  sourceId,
  name,
  category: 'cafe',
  tags: { amenity: 'cafe', name },
  description: `${name}, a cafe.`,
  geometry: { type: 'Point', coordinates: [lon, lat] },
});

describe.skipIf(!isCitus)(`the distributed schema on Citus${isCitus ? '' : ` (${NOT_CITUS})`}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => database?.dispose());

  it('distributes places on shard_key and copies the small tables to every node', async () => {
    const { rows } = await sql<{ table: string; method: string; column: string | null }>`
      SELECT logicalrelid::text AS table, partmethod AS method, column_to_column_name(logicalrelid, partkey) AS column
      FROM pg_dist_partition ORDER BY 1`.execute(database.db);
    expect(rows.find((r) => r.table === 'places')).toEqual({ table: 'places', method: 'h', column: 'shard_key' });
    for (const table of REFERENCE_TABLES) expect(rows.find((r) => r.table === table)?.method, table).toBe('n');
  });

  it('computes the same shard key in SQL (place_shard_key) as the window keys in TypeScript', async () => {
    // Points and boxes around the world, on and near cell edges, small and large.
    const shapes: [number, number, number, number][] = [];
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < 300; i++) {
      const x = -180 + random() * 359.8;
      const y = -90 + random() * 179.8;
      const size = [0, 0.001, 0.05, 0.0999, 0.2, 3][i % 6]!;
      shapes.push([x, y, Math.min(180, x + size), Math.min(90, y + size * random())]);
    }
    shapes.push([-74, 40, -74, 40], [-73.99999, 40.99999, -73.99999, 40.99999], [179.99, 89.99, 180, 90], [-180, -90, -180, -90]);
    const column = (i: number) => shapes.map((b) => b[i]!);
    const { rows } = await sql<{ key: number }>`
      SELECT place_shard_key(ST_MakeEnvelope(x0, y0, x1, y1, 4326)) AS key
      FROM unnest(${column(0)}::float8[], ${column(1)}::float8[], ${column(2)}::float8[], ${column(3)}::float8[])
           WITH ORDINALITY AS u(x0, y0, x1, y1, n)
      ORDER BY n`.execute(database.db);
    shapes.forEach((b, i) => {
      const key = rows[i]!.key;
      const large = b[2] - b[0] > 0.1 || b[3] - b[1] > 0.1;
      expect(key, `${b}`).toBe(large ? LARGE_KEY : cellKey((b[0] + b[2]) / 2, (b[1] + b[3]) / 2));
      // Every place meets the windows around it: a window touching the place's box needs its key.
      const window: [number, number, number, number] = [b[2], b[3], b[2] + 0.01, b[3] + 0.01];
      expect(shardKeysOfBoxes([window]), `${b}`).toContain(key);
    });
  });

  it('loads through the bulk path into the shards, moves a place whose cell changed, and bumps places_version', async () => {
    const version = async () => Number((await database.db.selectFrom('places_version').select('version').executeTakeFirstOrThrow()).version);
    const before = await version();
    const many = Array.from({ length: 1200 }, (_, i) => cafe(`c${i}`, `Cafe ${i}`, -120 + (i % 40) * 3, -50 + Math.floor(i / 40) * 3));
    const report = await loadPlaces(database.db, embedder, many, { batchSize: 500 });
    expect(report).toMatchObject({ read: 1200, written: 1200 });
    expect(await countRows(database.db, 'places')).toBe(1200);
    expect(await version()).toBeGreaterThan(before);
    // The rows are on several workers' shards, each under its own cell.
    const { rows: spread } = await sql<{ nodes: number; keys: number }>`
      SELECT (SELECT count(DISTINCT nodeport) FROM citus_shards WHERE table_name = 'places'::regclass AND shard_size > 8192)::int AS nodes,
             (SELECT count(DISTINCT shard_key) FROM places)::int AS keys`.execute(database.db);
    expect(spread[0]!.keys).toBe(1200); // 40 x 30 points 3 degrees apart: a cell each
    expect(spread[0]!.nodes).toBeGreaterThanOrEqual(2);

    // Cafe 0 moves to another cell: still one row, under its new key.
    await loadPlaces(database.db, embedder, [cafe('c0', 'Cafe 0 moved', 10.5, 10.5)]);
    const { rows } = await sql<{ shard_key: number; name: string }>`SELECT shard_key, name FROM places WHERE source_id = 'c0'`.execute(database.db);
    expect(rows).toEqual([{ shard_key: cellKey(10.5, 10.5), name: 'Cafe 0 moved' }]);
    expect(await countRows(database.db, 'places')).toBe(1200);
  });

});

describe.skipIf(!isCitus || !hasNycData)(`shard pruning of a window question on Citus${isCitus ? (hasNycData ? '' : ` (${NO_NYC_DATA})`) : ` (${NOT_CITUS})`}`, () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({}, { fixture: 'nyc' });
  });
  afterAll(async () => service?.stop());

  it('reads only the shards of the window cells (EXPLAIN), where a scan of all places reads every shard', async () => {
    const db = service.database.db;
    const question = 'pharmacies within 300 m of Bryant Park';
    const plan = planOffline(question);
    const resolution = await resolveReferences(db, plan);
    if (!resolution.ok) throw new Error(`"${question}" asked for a clarification`);
    const embedded = await queryEmbedderFor(embedder).embed([plan.semantic.text || question, plan.spatialText || question]);
    if (!embedded.ok) throw new Error('offline embedder failed');
    const query = await retrievalQuery(db, {
      plan,
      references: resolution.references,
      semanticVector: embedded.vectors[0]!,
      spatialVector: embedded.vectors[1]!,
      embeddingModel: embedder.model,
    });
    const compiled = query.compile(db);
    expect(compiled.sql).toContain('p.shard_key = ANY(');
    expect((await query.execute(db)).rows.length).toBeGreaterThan(0);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_dist_shard WHERE logicalrelid = 'places'::regclass`.execute(db);
    const shards = rows[0]!.n;
    const touched = await shardsTouched(db, compiled);
    // The window grown by 0.1 degree covers two cells (it crosses the 74th meridian west), plus the key of
    // large places: at most three shards of the table's.
    expect(touched).toBeGreaterThanOrEqual(1);
    expect(touched).toBeLessThanOrEqual(3);
    expect(shards).toBeGreaterThan(2);
    expect(await shardsTouched(db, { sql: 'SELECT id FROM places WHERE name = $1', parameters: ['x'] })).toBe(shards);
  });

  it('bumps tools_revision on a tool write, so the tool search sees it at once (no trigger on a reference table)', async () => {
    const revision = async () => Number((await sql<{ r: string }>`SELECT revision AS r FROM tools_revision`.execute(service.database.db)).rows[0]!.r);
    const search = async () => {
      const res = await fetch(`${service.url}/v1/tools/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'map the floating kelp canopy', k: 5 }),
      });
      return ((await res.json()) as { tools: { id: string }[] }).tools.map((t) => t.id);
    };
    // The catalog is cached by the first search, and rebuilt only when tools_revision moves.
    expect(await search()).not.toContain('test.kelp-canopy-mapper');
    const before = await revision();
    const put = await fetch(`${service.url}/v1/tools`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'test.kelp-canopy-mapper', name: 'Kelp canopy mapper', description: 'Maps floating kelp canopy extent from multispectral imagery.' }),
    });
    expect(put.status).toBeLessThan(300);
    expect(await revision()).toBeGreaterThan(before);
    expect(await search()).toContain('test.kelp-canopy-mapper');
  });
});
