/**
 * The distributed mode on Citus (docs/operations.md#distributed-mode-citus).
 *
 * `places` is hash-distributed on `shard_key`, the grid cell of the middle of a place's bounding box, so the
 * places of one area share a shard and a question's window needs only the shards of its cells:
 *
 *   shard_key = floor(lat_mid + 90) * 360 + floor(lon_mid + 180)   (cells of 1 degree, clamped to the globe)
 *             = -1                                                   (LARGE_KEY: wider or taller than LOCAL_EXTENT_DEG)
 *
 * A place no larger than LOCAL_EXTENT_DEG either way that meets a window has its middle within
 * LOCAL_EXTENT_DEG of the window, so the cells of the window grown by that much, plus LARGE_KEY, hold every
 * place the window can meet (shardKeysOfBoxes). Citus prunes the shards of the other keys.
 */
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Db } from './database.ts';

export const LOCAL_EXTENT_DEG = 0.1;
export const LARGE_KEY = -1;
/** Beyond this many cells a window is not worth a filter: it touches most shards anyway. */
export const MAX_WINDOW_CELLS = 64;

const COLUMNS = 360;
const ROWS = 180;

function column(lon: number): number {
  return Math.min(COLUMNS - 1, Math.max(0, Math.floor(lon + 180)));
}

function row(lat: number): number {
  return Math.min(ROWS - 1, Math.max(0, Math.floor(lat + 90)));
}

/** The key of a local place whose bounding box has this middle. */
export function cellKey(lon: number, lat: number): number {
  return row(lat) * COLUMNS + column(lon);
}

/**
 * The shard keys a set of windows ([x0, y0, x1, y1] in degrees) can meet: the cells of each window grown by
 * LOCAL_EXTENT_DEG, and LARGE_KEY. null when they are too many to be worth a filter.
 */
export function shardKeysOfBoxes(boxes: readonly (readonly [number, number, number, number])[]): number[] | null {
  const keys = new Set<number>([LARGE_KEY]);
  // A hair more than the extent, so that a middle exactly on the grown edge is not lost to rounding.
  const grow = LOCAL_EXTENT_DEG + 1e-9;
  for (const [x0, y0, x1, y1] of boxes) {
    if (![x0, y0, x1, y1].every(Number.isFinite) || x0 > x1 || y0 > y1) return null;
    const [c0, c1, r0, r1] = [column(x0 - grow), column(x1 + grow), row(y0 - grow), row(y1 + grow)];
    if ((c1 - c0 + 1) * (r1 - r0 + 1) > MAX_WINDOW_CELLS) return null;
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) keys.add(r * COLUMNS + c);
    if (keys.size > MAX_WINDOW_CELLS + 1) return null;
  }
  return [...keys].sort((a, b) => a - b);
}

const distributed = new WeakMap<object, Promise<boolean>>();

/**
 * Whether places is distributed here (it then has the shard_key column; migration 0011). Asked once per
 * database handle.
 */
export function isDistributed(db: Db): Promise<boolean> {
  let known = distributed.get(db);
  if (!known) {
    known = sql<{ distributed: boolean }>`
      SELECT EXISTS (SELECT FROM pg_attribute WHERE attrelid = to_regclass('places') AND attname = 'shard_key' AND NOT attisdropped) AS distributed`
      .execute(db)
      .then((r) => r.rows[0]!.distributed);
    // A failed check (the database unreachable) is asked again next time.
    known.catch(() => distributed.delete(db));
    distributed.set(db, known);
  }
  return known;
}

/** The tables copied to every node (the coordinator included, which then reads them locally). */
export const REFERENCE_TABLES = [
  'embedding_spaces', 'tools', 'tools_revision', 'places_version',
  'runs', 'memory_workflows', 'memory_transitions', 'memory_experiences', 'memory_sops',
];

/**
 * Makes the tables of a migrated database Citus tables (migration 0011 when the citus extension is there;
 * also an existing server-mode database after CREATE EXTENSION citus and citus_add_node: its rows move to the
 * workers). One transaction with the caller's.
 *
 * - `places` is distributed on `shard_key` (place_shard_key: the arithmetic of cellKey above). Citus requires
 *   the distribution column in every unique constraint, so the primary key becomes (id, shard_key) and the
 *   upsert key (source, source_id, shard_key); the loader writes the key and deletes a place from its old
 *   cell when its key changed. Tables per place added later go on the same key, co-located with places.
 * - The EO tools, the embedding spaces, the workflow memory and the two change counters are reference tables.
 * - Citus runs no trigger of a distributed or reference table, so the statement triggers that bump
 *   `places_version` and `tools_revision` are dropped, and the writers' places_written() / tools_written()
 *   (no-ops elsewhere) bump them instead.
 */
export async function distributeTables(db: Kysely<any>): Promise<void> {
  const { rows: workers } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_dist_node WHERE groupid <> 0 AND noderole = 'primary' AND isactive`.execute(db);
  if (workers[0]!.n === 0) {
    throw new Error('the citus extension is installed but no worker node is registered (SELECT citus_add_node(...) on the coordinator; scripts/setup-citus.sh does it)');
  }

  await sql`
    CREATE OR REPLACE FUNCTION place_shard_key(g geometry) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT CASE
        WHEN ST_XMax(g) - ST_XMin(g) > 0.1 OR ST_YMax(g) - ST_YMin(g) > 0.1 THEN -1
        ELSE least(179, greatest(0, floor((ST_YMin(g) + ST_YMax(g)) / 2 + 90)))::int * 360
           + least(359, greatest(0, floor((ST_XMin(g) + ST_XMax(g)) / 2 + 180)))::int
      END
    $$`.execute(db);
  await sql`DROP TRIGGER places_changed ON places`.execute(db);
  await sql`DROP TRIGGER tools_revision_trigger ON tools`.execute(db);
  await sql`ALTER TABLE places ADD COLUMN shard_key integer`.execute(db);
  await sql`UPDATE places SET shard_key = place_shard_key(geom)`.execute(db);
  await sql`
    ALTER TABLE places
      ALTER COLUMN shard_key SET NOT NULL,
      DROP CONSTRAINT places_pkey,
      ADD CONSTRAINT places_pkey PRIMARY KEY (id, shard_key),
      DROP CONSTRAINT places_source_key,
      ADD CONSTRAINT places_source_key UNIQUE (source, source_id, shard_key)`.execute(db);
  await sql`SELECT create_distributed_table('places', 'shard_key')`.execute(db);
  for (const table of REFERENCE_TABLES) await sql`SELECT create_reference_table(${table})`.execute(db);

  await sql`
    CREATE OR REPLACE FUNCTION places_written() RETURNS void LANGUAGE sql AS $$
      UPDATE places_version SET version = version + 1
    $$`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION tools_written() RETURNS void LANGUAGE sql AS $$
      UPDATE tools_revision SET revision = revision + 1
    $$`.execute(db);
}

/**
 * How many shards a statement reads on Citus, from its distributed plan (EXPLAIN without ANALYZE): the
 * largest "Task Count" of its distributed steps (each CTE or subquery that reads places is one step, one
 * task per shard it needs). The statement is planned with its parameters, as when it runs.
 */
export async function shardsTouched(db: Db, statement: { sql: string; parameters: readonly unknown[] }): Promise<number> {
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${statement.sql}`, [...statement.parameters]));
  const counts = rows.flatMap((r) => [...r['QUERY PLAN'].matchAll(/Task Count: (\d+)/g)].map((m) => Number(m[1])));
  return counts.length === 0 ? 0 : Math.max(...counts);
}
