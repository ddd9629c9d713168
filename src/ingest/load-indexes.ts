/**
 * The indexes of places around a bulk load: the secondary indexes dropped and rebuilt from their own
 * definitions, and the HNSW vector index, built after the load (or later, see buildVectorIndex).
 */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { PLACES_HNSW_INDEX } from '../db/indexes.ts';

/**
 * maintenance_work_mem for building the HNSW index over about `vectors` vectors. pgvector builds the graph in
 * this memory and goes on much slower past it: at 1M places (204,000 vectors) the build took 30 s with 256 MB,
 * 15 s with 1 GB; 256 MB held ~134,000 vectors of 384 dimensions (~1.95 KB each). More than needed costs
 * too (a parallel build sets the whole area up: Midtown's 9,725 vectors 0.5 s with 64-256 MB, 0.8-0.9 s
 * with 1 GB), so: the estimate with a 25 % margin, at least 64 MB, at most 2 GB (PGlite's WASM heap: 256 MB).
 */
export function hnswBuildMemoryMB(vectors: number, dimension: number, embedded: boolean): number {
  const estimate = Math.ceil((vectors * (dimension * 4 + 400) * 1.25) / 2 ** 20);
  return Math.min(embedded ? 256 : 2048, Math.max(64, estimate));
}

/**
 * Drops the indexes of places that are neither unique, nor the primary key, nor the vector index (dropped
 * separately); returns their definitions (`CREATE INDEX ...`, names included) to build them again.
 */
export async function dropSecondaryIndexes(trx: Transaction<Database>): Promise<string[]> {
  const { rows } = await sql<{ name: string; definition: string }>`
    SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE i.indrelid = 'places'::regclass AND NOT i.indisunique AND NOT i.indisprimary
      AND c.relname <> 'places_embedding_idx'
    ORDER BY c.relname`.execute(trx);
  for (const index of rows) await sql`DROP INDEX ${sql.id(index.name)}`.execute(trx);
  return rows.map((index) => index.definition);
}

/** Whether places has its HNSW vector index (a first start may build it after the service is ready). */
export async function hasVectorIndex(db: Db | Transaction<Database>): Promise<boolean> {
  const { rows } = await sql<{ present: boolean }>`SELECT to_regclass('places_embedding_idx') IS NOT NULL AS present`.execute(db);
  return rows[0]!.present;
}

/**
 * Builds the HNSW vector index over the places that have a vector, with the memory their number needs
 * (hnswBuildMemoryMB). In a transaction: SET LOCAL; on the database handle: one transaction of its own.
 */
export async function buildVectorIndex(db: Db | Transaction<Database>, dimension: number, embedded: boolean, vectors?: number): Promise<void> {
  const build = async (trx: Transaction<Database>) => {
    const count = vectors ?? Number((await sql<{ n: number }>`SELECT count(embedding)::int AS n FROM places`.execute(trx)).rows[0]!.n);
    const memoryMB = hnswBuildMemoryMB(count, dimension, embedded);
    await sql`SET LOCAL maintenance_work_mem = ${sql.lit(`${memoryMB}MB`)}`.execute(trx);
    await sql`${sql.raw(PLACES_HNSW_INDEX)}`.execute(trx);
  };
  if (db.isTransaction) await build(db as Transaction<Database>);
  else await (db as Db).transaction().execute(build);
}
