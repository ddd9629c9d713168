/**
 * The bulk loader: PlaceFeatures -> the places table, in ONE transaction per call (a failure anywhere
 * leaves the database exactly as it was; re-loading upserts on source + source_id).
 *
 * While the input streams in, batch after batch (one batch is written while the next is read and prepared):
 *   - descriptions built from tags get their neighbourhood (named polygons from the table and from the
 *     input so far, see context.ts), and named places their vector;
 *   - the batch goes to the database in PostgreSQL's binary formats, so nothing is parsed from text there
 *     (measured: parsing vectors as text dominated the old load in WASM). Embedded: binary COPY into a
 *     temporary table through PGlite's /dev/blob, the statements of one write sent as one Script that the
 *     database thread runs without waiting for this one; server: one binary array parameter per column,
 *     unnested. One set-based statement upserts the batch, repairing invalid geometries with ST_MakeValid (reported);
 *   - except the places that may get a street ("the street it is on": points and small areas without an
 *     address, see context.ts). A file's streets usually come after its shops (OSM: nodes before ways), so
 *     these wait in a temporary table, with their description written around a slot for the street.
 *     After the input, they come back in batches through a cursor (only their geometry, and the texts of
 *     named ones), get the nearest street, their vector, and are upserted while the next batch is read.
 * In bulk mode the HNSW index is dropped and built once at the end (embedded, into a small table, the other
 * secondary indexes too). Memory stays bounded by the batch
 * size: waiting rows are in the database, not in Node.
 *
 * Here the whole; loader.ts prepares and writes the batches and the waiting rows, staging.ts holds the rows'
 * columns and binary formats, load-indexes.ts the index work around a bulk load.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { ensureEmbeddingSpace } from '../embedding/space.ts';
import { isDistributed } from '../db/citus.ts';
import { IngestError, type PlaceFeature } from './feature.ts';
import { buildVectorIndex, dropSecondaryIndexes } from './load-indexes.ts';
import { Loader } from './loader.ts';

export type LoadPhase = 'reading' | 'describing' | 'indexing';

export interface LoadProgress {
  /** Features read so far. */
  features: number;
  elapsedMs: number;
  /** `reading` while the input streams in, then the places waiting for their street, then the indexes. */
  phase: LoadPhase;
}

export interface LoadOptions {
  /** Delete every place of the sources being loaded before writing (in the same transaction). */
  replaceSources?: string[];
  /** Features per batch (default 5000). */
  batchSize?: number;
  /**
   * Bulk mode: drop the HNSW index during the load and build it once at the end, much cheaper than
   * maintaining it row by row, but the table is locked until the commit. `true`: always (the embedded
   * mode: one connection anyway); `false`: never; unset: for bulk loads (a first batch that is full) into
   * a table of fewer than AUTO_DEFER_MAX_ROWS places, where the rebuild is cheap and locks out nobody.
   * Embedded, into such a table, the other secondary indexes are dropped and rebuilt too (see loadPlaces).
   */
  deferVectorIndex?: boolean;
  /**
   * With the vector index dropped (deferVectorIndex): leave it to the caller, who builds it with
   * buildVectorIndex after the commit (a first start does, once the service is ready). Until then vector
   * searches scan the table: exact, and at a few ten thousand vectors fast enough.
   */
  vectorIndexLater?: boolean;
  /** Add the street and neighbourhood to descriptions built from tags (default true). */
  context?: boolean;
  onProgress?: (progress: LoadProgress) => void;
  /** Receives milliseconds per stage (benchmarks, profiling). */
  timings?: Record<string, number>;
}

export interface LoadReport {
  read: number;
  /** Rows inserted or updated. */
  written: number;
  /** Source ids whose invalid polygons were repaired with ST_MakeValid. */
  repaired: string[];
  ms: number;
}

const DEFAULT_BATCH = 5000;
/** Batches queued for writing while the next one is read. */
const WRITES_IN_FLIGHT = 2;
/** See LoadOptions.deferVectorIndex. */
export const AUTO_DEFER_MAX_ROWS = 20_000;

/**
 * Writes places inside ONE transaction: a failure anywhere (a bad record without --skip-invalid, a
 * database error) leaves the database exactly as it was. Re-loading the same records updates them in
 * place (upsert on source + source_id), so an import can be repeated safely.
 */
export async function loadPlaces(
  db: Db,
  embedder: Embedder,
  features: AsyncIterable<PlaceFeature> | Iterable<PlaceFeature>,
  options: LoadOptions = {},
): Promise<LoadReport> {
  const started = performance.now();
  const timings = options.timings ?? {};
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const report: LoadReport = { read: 0, written: 0, repaired: [], ms: 0 };
  const progress = (phase: LoadPhase) =>
    options.onProgress?.({ features: report.read, elapsedMs: performance.now() - started, phase });
  let mark = started;
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round((timings[name] ?? 0) + now - mark);
    mark = now;
  };

  await db.transaction().execute(async (trx) => {
    await ensureEmbeddingSpace(trx, 'places', embedder);
    const { rows } = await sql<{ embedded: boolean; existing: number }>`
      SELECT version() LIKE '%PGlite%' AS embedded,
             (SELECT count(*) FROM (SELECT 1 FROM places LIMIT ${AUTO_DEFER_MAX_ROWS}) AS p)::int AS existing`.execute(trx);
    const { embedded, existing } = rows[0]!;
    const distributed = await isDistributed(trx);
    // Sorts and joins of a batch (DISTINCT ON, the waiting rows) in memory rather than spilled to disk.
    await sql`SET LOCAL work_mem = '64MB'`.execute(trx);
    // The temporary tables have no statistics, so the estimates are wild and a server with JIT compiled
    // the final upsert for ~0.3 s (measured) to run it in ~1 s.
    if (!embedded) await sql`SET LOCAL jit = off`.execute(trx);
    for (const source of options.replaceSources ?? []) {
      await trx.deleteFrom('places').where('source', '=', source).execute();
    }
    const loader = new Loader(trx, embedder, embedded, distributed, options.context !== false, report, timings);
    await loader.createTables();
    let vectorIndexDropped = false;
    let droppedIndexes: string[] = [];
    const dropVectorIndex = async () => {
      await sql`DROP INDEX IF EXISTS places_embedding_idx`.execute(trx);
      vectorIndexDropped = true;
      // Embedded, into a small table: the other secondary indexes too (GiST on geom and geog, trigram,
      // category), rebuilt from their own definitions after the load. Measured on the Midtown load in
      // PGlite: the upserts took ~1.7 s less CPU without them, and building them afterwards ~1.1 s.
      // Not into a large table (rebuilding its indexes costs more than maintaining them for one file),
      // and not on a server (measured there: no gain). ON CONFLICT needs the unique indexes: kept.
      if (embedded && existing < AUTO_DEFER_MAX_ROWS) droppedIndexes = await dropSecondaryIndexes(trx);
    };
    // Citus: no DDL on places after this transaction wrote to its shards over several connections (Citus
    // refuses it), so the index is maintained row by row on the workers.
    const mayDefer = !distributed;
    if (options.deferVectorIndex === true && mayDefer) await dropVectorIndex();
    lap('setup');

    // Stream: batches are written while the next ones are read and prepared (at most WRITES_IN_FLIGHT
    // queued on the connection, so a slow write does not stop the reading, and memory stays bounded).
    const writing: Promise<void>[] = [];
    let batch: PlaceFeature[] = [];
    let batches = 0;
    const flush = async () => {
      const current = batch;
      batch = [];
      if (current.length === 0) return;
      if (batches++ === 0 && mayDefer && options.deferVectorIndex === undefined && current.length >= batchSize && existing < AUTO_DEFER_MAX_ROWS) {
        await dropVectorIndex();
      }
      progress('reading');
      const prepared = await loader.prepare(current);
      const t = performance.now();
      if (writing.length >= WRITES_IN_FLIGHT) await writing.shift();
      timings.waitingForDb = Math.round((timings.waitingForDb ?? 0) + performance.now() - t);
      // Never interleaved: in the embedded mode a write is several statements on one staging table
      // (TRUNCATE, COPY, upsert), and two interleaved writes would lose each other's rows. There a write
      // is one Script, run whole by the database thread in the order sent, so it is sent at once (the
      // database thread does not wait for this thread between two writes); on a server, writes are chained.
      const previous = writing.at(-1) ?? Promise.resolve();
      const write = embedded ? loader.write(prepared) : previous.then(() => loader.write(prepared));
      // Handled when awaited; until then a failure must not count as an unhandled rejection.
      write.catch(() => undefined);
      writing.push(write);
    };
    try {
      for await (const feature of features) {
        report.read++;
        batch.push(feature);
        if (batch.length >= batchSize) await flush();
      }
      await flush();
    } finally {
      // Never leave a write in flight when the transaction ends: a statement sent after the
      // rollback would run outside it.
      await Promise.allSettled(writing);
    }
    for (const write of writing) await write;
    lap('stream');

    progress('describing');
    await loader.finishDeferred();
    lap('deferred');

    // Caches derived from places (resolved names) see the change: a trigger bumps places_version, except
    // on Citus, where this does (migration 0011).
    await sql`SELECT places_written()`.execute(trx);

    progress('indexing');
    if (vectorIndexDropped) {
      await sql`SET LOCAL maintenance_work_mem = '256MB'`.execute(trx);
      for (const definition of droppedIndexes) await sql.raw(definition).execute(trx);
      lap('indexes');
      if (!options.vectorIndexLater) await buildVectorIndex(trx, embedder.dimension, embedded, existing + loader.vectors);
    }
    lap('vectorIndex');
    // Fresh statistics for the planner: the embedded database has no autovacuum to gather them, and a
    // server's would come minutes later. Without them the question queries misjudge the tag and window
    // indexes (measured in PGlite: a tag filter evaluated row by row, 7.5 s instead of an index lookup).
    // A 6,000-row sample (statistics target 20) is enough for those choices and measured 7x cheaper than the
    // default's 30,000 in PGlite (0.3 s instead of 2.1 s on Midtown); a server's autovacuum refines it later.
    await sql`SET LOCAL default_statistics_target = 20`.execute(trx);
    await sql`ANALYZE places`.execute(trx);
    lap('analyze');
    // A GIN index keeps new entries in a pending list that every search reads in full until a VACUUM merges
    // it (PGlite never runs one, a server's autovacuum later). After a Midtown load on a server: 161 pages
    // in the tag index, 426 in the name index, and the tag and name lookups of a question 5-10x slower.
    await sql`
      SELECT gin_clean_pending_list(i.indexrelid)
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
      WHERE i.indrelid = 'places'::regclass AND a.amname = 'gin'`.execute(trx);
    lap('ginPending');
  });
  lap('commit');
  report.ms = Math.round(performance.now() - started);
  return report;
}

export { embeddingText } from './staging.ts';
export { hnswBuildMemoryMB } from './load-indexes.ts';
export { IngestError };
