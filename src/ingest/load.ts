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
 */
import { CompiledQuery, sql, type RawBuilder, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { CopyData, Script } from '../db/pglite-dialect.js';
import type { Embedder } from '../embedding/embedder.js';
import { ensureEmbeddingSpace } from '../embedding/space.js';
import { isDistributed } from '../db/citus.js';
import { PLACES_HNSW_INDEX } from '../db/indexes.js';
import { ArrayColumns, CopyWriter, NonFiniteCoordinate, type ArrayElementType, type RowWriter } from './binary.js';
import { bboxOf, ContextIndex, mayHaveStreet } from './context.js';
import { describePlace, describeWithStreetSlot, STREET_SLOT } from './describe.js';
import { IngestError, type PlaceFeature, type PlaceGeometry } from './feature.js';

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
/** Read-back batch of the places waiting for their street. */
const DEFERRED_BATCH = 5000;
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
      const memoryMB = hnswBuildMemoryMB(existing + loader.vectors, embedder.dimension, embedded);
      await sql`SET LOCAL maintenance_work_mem = ${sql.lit(`${memoryMB}MB`)}`.execute(trx);
      await sql`${sql.raw(PLACES_HNSW_INDEX)}`.execute(trx);
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
async function dropSecondaryIndexes(trx: Transaction<Database>): Promise<string[]> {
  const { rows } = await sql<{ name: string; definition: string }>`
    SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE i.indrelid = 'places'::regclass AND NOT i.indisunique AND NOT i.indisprimary
      AND c.relname <> 'places_embedding_idx'
    ORDER BY c.relname`.execute(trx);
  for (const index of rows) await sql`DROP INDEX ${sql.id(index.name)}`.execute(trx);
  return rows.map((index) => index.definition);
}

/** A row on its way to places. */
interface StagedRow {
  seq: number;
  feature: PlaceFeature;
  description: string;
  vector: number[] | null;
  /**
   * Waiting rows: the description with STREET_SLOT where the street goes if one is found (finished in
   * SQL, so only the geometry of waiting rows is read back; see describeWithStreetSlot).
   */
  descriptionWithStreet?: string;
}

/** A batch ready to write: rows for places now, and rows waiting for their street. */
interface Prepared {
  ready: StagedRow[];
  waiting: StagedRow[];
}

/** A waiting row as read back: geometry as GeoJSON; descriptions only for named rows (their vector). */
interface WaitingRow {
  seq: number;
  name: string | null;
  geometry: string;
  description: string | null;
  description_street: string | null;
}



/** The temporary tables of one load and the statements over them. */
class Loader {
  private seq = 0;
  private readonly context: ContextIndex | null;
  /** Part of the plane whose neighbourhood polygons have been read from the table. */
  private covered: [number, number, number, number] | null = null;
  private waitingCount = 0;
  /** Vectors written by this load (for the HNSW build's memory). */
  vectors = 0;
  private waitingBox: [number, number, number, number] | null = null;
  /** Server mode: type OIDs of the extension types, for binary array parameters. */
  private oids: { geometry: number; vector: number } | null = null;

  constructor(
    private readonly trx: Transaction<Database>,
    private readonly embedder: Embedder,
    private readonly embedded: boolean,
    /** Citus: places has the shard_key column (migration 0011). */
    private readonly distributed: boolean,
    withContext: boolean,
    private readonly report: LoadReport,
    private readonly timings: Record<string, number>,
  ) {
    this.context = withContext ? new ContextIndex() : null;
  }

  private time(name: string, since: number): void {
    this.timings[name] = Math.round((this.timings[name] ?? 0) + performance.now() - since);
  }

  async createTables(): Promise<void> {
    if (!this.embedded) {
      const { rows } = await sql<{ geometry: number; vector: number }>`
        SELECT 'geometry'::regtype::oid::int8 AS geometry, 'vector'::regtype::oid::int8 AS vector`.execute(this.trx);
      this.oids = rows[0]!;
    }
    // Temporary: private to this transaction's connection, gone at the commit or the rollback.
    // places_stage holds the rows of one batch on their way into places; places_waiting the rows
    // waiting for their street; places_described their new descriptions and vectors.
    await sql`
      CREATE TEMPORARY TABLE places_stage (
        seq integer NOT NULL, source text NOT NULL, source_id text NOT NULL, name text, category text,
        tags jsonb NOT NULL, description text NOT NULL, geom geometry NOT NULL, embedding vector
      ) ON COMMIT DROP`.execute(this.trx);
    await sql`CREATE TEMPORARY TABLE places_waiting (LIKE places_stage, description_street text) ON COMMIT DROP`.execute(this.trx);
    await sql`CREATE TEMPORARY TABLE places_described (seq integer NOT NULL, street text, embedding vector) ON COMMIT DROP`.execute(this.trx);
  }

  /** Context, descriptions and vectors of a batch (reading the neighbourhoods of a new area first). */
  async prepare(batch: PlaceFeature[]): Promise<Prepared> {
    const prepared: Prepared = { ready: [], waiting: [] };
    let t = performance.now();
    const index = this.context;
    if (index && batch.some((f) => f.descriptionFromTags)) await this.readNeighbourhoods(batch);
    this.time('stream.neighbourhoodLayer', t);

    t = performance.now();
    const toEmbed: StagedRow[] = [];
    for (const f of batch) {
      const seq = ++this.seq;
      if (index && f.category === 'neighbourhood' && f.name) index.addNeighbourhood(f.name, f.geometry, `${f.source}\u0001${f.sourceId}`);
      let description = f.description;
      if (f.descriptionFromTags) {
        // Built here with the context (also when the reader left it empty: ReaderOptions.describe).
        const neighbourhood = index && f.category !== 'neighbourhood' ? index.neighbourhoodOf(f.geometry) : undefined;
        const context = neighbourhood ? { neighbourhood } : {};
        if (index && mayHaveStreet(f)) {
          const { withStreet, withoutStreet } = describeWithStreetSlot(f, context);
          prepared.waiting.push({ seq, feature: f, description: withoutStreet, vector: null, descriptionWithStreet: withStreet });
          this.noteWaiting(f.geometry);
          continue;
        }
        if (neighbourhood || description === '') description = describePlace(f, context);
      }
      const row: StagedRow = { seq, feature: f, description, vector: null };
      prepared.ready.push(row);
      if (f.name) toEmbed.push(row);
    }
    this.time('stream.describe', t);

    t = performance.now();
    const vectors = await this.embedder.embed(toEmbed.map((r) => embeddingText({ name: r.feature.name, description: r.description })));
    toEmbed.forEach((r, i) => (r.vector = vectors[i]!));
    this.vectors += toEmbed.length;
    this.time('stream.embed', t);
    return prepared;
  }

  private noteWaiting(g: PlaceGeometry): void {
    this.waitingCount++;
    const box = bboxOf(g);
    const b = this.waitingBox;
    if (!b) {
      this.waitingBox = box;
      return;
    }
    // In place: this runs for about half the features of a load.
    b[0] = Math.min(b[0], box[0]);
    b[1] = Math.min(b[1], box[1]);
    b[2] = Math.max(b[2], box[2]);
    b[3] = Math.max(b[3], box[3]);
  }

  /**
   * Reads the named neighbourhood polygons around a batch from the table, once per area: the first batch
   * of a city extract usually covers the whole extract. (Polygons of the input itself are added as they come.)
   */
  private async readNeighbourhoods(batch: PlaceFeature[]): Promise<void> {
    let box: [number, number, number, number] | null = null;
    for (const f of batch) {
      if (!f.descriptionFromTags) continue;
      const [x0, y0, x1, y1] = bboxOf(f.geometry);
      box = box ? [Math.min(box[0], x0), Math.min(box[1], y0), Math.max(box[2], x1), Math.max(box[3], y1)] : [x0, y0, x1, y1];
    }
    if (!box) return;
    const c = this.covered;
    if (c && box[0] >= c[0] && box[1] >= c[1] && box[2] <= c[2] && box[3] <= c[3]) return;
    // Read a little more than needed, so that the next batches of the same area need no query.
    const pad = 0.01;
    const area: [number, number, number, number] = c
      ? [Math.min(c[0], box[0] - pad), Math.min(c[1], box[1] - pad), Math.max(c[2], box[2] + pad), Math.max(c[3], box[3] + pad)]
      : [box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad];
    const { rows } = await sql<{ key: string; name: string; geometry: string }>`
      SELECT source || chr(1) || source_id AS key, name, ST_AsGeoJSON(geom) AS geometry FROM places
      WHERE category = 'neighbourhood' AND name IS NOT NULL
        AND geom && ST_MakeEnvelope(${area[0]}, ${area[1]}, ${area[2]}, ${area[3]}, 4326)
        AND GeometryType(geom) IN ('POLYGON', 'MULTIPOLYGON')`.execute(this.trx);
    for (const r of rows) this.context!.addNeighbourhood(r.name, JSON.parse(r.geometry) as PlaceGeometry, r.key);
    this.covered = area;
  }

  /** Upserts the ready rows of a prepared batch into places, and keeps its waiting rows. */
  async write(prepared: Prepared): Promise<void> {
    let t = performance.now();
    const ready = (w: RowWriter) => writeStaged(w, prepared.ready, false);
    const waiting = (w: RowWriter) => writeStaged(w, prepared.waiting, true);
    if (this.embedded) {
      // One Script (see there): the waiting rows, then the ready rows through the staging table.
      const steps: CompiledQuery[] = [];
      if (prepared.waiting.length > 0) steps.push(copyQuery('places_waiting', WAITING_COLUMNS, waiting));
      if (prepared.ready.length > 0) {
        steps.push(sql`TRUNCATE places_stage`.compile(this.trx), copyQuery('places_stage', STAGE_COLUMNS, ready));
        steps.push(this.upsertQuery(sql`SELECT * FROM places_stage`));
      }
      this.time('stream.encode', t);
      t = performance.now();
      const { rows } = await this.trx.executeQuery<UpsertResult>(CompiledQuery.raw('', [new Script(steps)]));
      if (prepared.ready.length > 0) this.counted(rows);
      this.time('stream.write', t);
      return;
    }
    if (prepared.ready.length > 0) {
      this.counted((await this.trx.executeQuery<UpsertResult>(this.upsertQuery(this.unnest(STAGE_COLUMNS, ready)))).rows);
      this.time('stream.write.ready', t);
      t = performance.now();
    }
    if (prepared.waiting.length > 0) {
      await sql`INSERT INTO places_waiting ${columnList(WAITING_COLUMNS)} ${this.unnest(WAITING_COLUMNS, waiting)}`.execute(this.trx);
      this.time('stream.write.waiting', t);
    }
  }

  /** Server: `SELECT * FROM unnest(...)` over one binary array parameter per column. */
  private unnest(columns: Columns, fill: (w: RowWriter) => void): RawBuilder<unknown> {
    const types = Object.values(columns);
    const w = new ArrayColumns(types, this.oids!);
    fill(w);
    const arrays = w.take().map((buffer, i) => sql`${buffer}::${sql.raw(types[i]!)}[]`);
    return sql`SELECT * FROM unnest(${sql.join(arrays)}) AS r${columnList(columns)}`;
  }

  /**
   * One set-based upsert of staged rows (columns as in places_stage). Invalid geometries are repaired;
   * of rows repeating a source id, the last one is written. Its result goes to `counted`.
   */
  private upsertQuery(rows: RawBuilder<unknown>): CompiledQuery<UpsertResult> {
    const latest = sql`
        SELECT DISTINCT ON (source, source_id)
               source, source_id, name, category, tags, description,
               CASE WHEN valid THEN geom ELSE ST_CollectionExtract(ST_MakeValid(geom), ST_Dimension(geom) + 1) END AS geom,
               embedding, CASE WHEN embedding IS NULL THEN NULL ELSE ${this.embedder.model} END AS embedding_model
        FROM input
        ORDER BY source, source_id, seq DESC`;
    // Citus: each row with its shard key (the middle of its repaired geometry); a place whose key changed
    // is deleted from its old cell, since the upsert key (source, source_id, shard_key) would not meet it.
    const keyed = this.distributed
      ? sql`keyed AS (
        SELECT l.*, place_shard_key(l.geom) AS shard_key FROM (${latest}) AS l
      ), moved AS (
        DELETE FROM places p USING keyed k
        WHERE p.source = k.source AND p.source_id = k.source_id AND p.shard_key <> k.shard_key
      ),`
      : sql``;
    return sql<UpsertResult>`
      WITH input AS (
        SELECT r.*, GeometryType(r.geom) = 'POINT' OR ST_IsValid(r.geom) AS valid FROM (${rows}) AS r
      ), ${keyed} written AS (
        INSERT INTO places (source, source_id, name, category, tags, description, geom, embedding, embedding_model${sql.raw(this.distributed ? ', shard_key' : '')})
        ${this.distributed ? sql`SELECT * FROM keyed` : latest}
        -- updated_at = EXCLUDED.updated_at: the new row's default, now(); Citus refuses now() itself here.
        ON CONFLICT (source, source_id${sql.raw(this.distributed ? ', shard_key' : '')}) DO UPDATE SET
          name = EXCLUDED.name, category = EXCLUDED.category, tags = EXCLUDED.tags,
          description = EXCLUDED.description, geom = EXCLUDED.geom, embedding = EXCLUDED.embedding,
          embedding_model = EXCLUDED.embedding_model, updated_at = EXCLUDED.updated_at
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM written)::int AS written,
             (SELECT array_agg(source_id ORDER BY seq) FROM input WHERE NOT valid) AS repaired`.compile(this.trx);
  }

  private counted(rows: UpsertResult[]): void {
    this.report.written += rows[0]!.written;
    this.report.repaired.push(...(rows[0]!.repaired ?? []));
  }

  /**
   * The rows waiting for their street: the named streets around them are read (this load's streets are
   * in places by now), then the rows come back in batches through a cursor (bounded memory), get their
   * street and vector, and each batch is upserted while the next one is read and prepared.
   */
  async finishDeferred(): Promise<void> {
    if (this.waitingCount === 0 || !this.context || !this.waitingBox) return;
    let t = performance.now();
    const b = this.waitingBox;
    // 0.001 degrees of latitude is 111 m, of longitude >= 40 m below 66 degrees of latitude.
    const m = 0.001 / Math.max(Math.cos((Math.max(Math.abs(b[1]), Math.abs(b[3])) * Math.PI) / 180), 0.025);
    const { rows: streets } = await sql<{ key: string; name: string; geometry: string }>`
      SELECT source || chr(1) || source_id AS key, name, ST_AsGeoJSON(geom) AS geometry FROM places
      WHERE category = 'street' AND name IS NOT NULL
        AND geom && ST_MakeEnvelope(${b[0] - m}, ${b[1] - 0.001}, ${b[2] + m}, ${b[3] + 0.001}, 4326)
        AND GeometryType(geom) IN ('LINESTRING', 'MULTILINESTRING')`.execute(this.trx);
    for (const r of streets) this.context.addStreet(r.name, JSON.parse(r.geometry) as PlaceGeometry, r.key);
    this.time('deferred.streetLayer', t);

    // Each batch read back is upserted (joined on seq) while the next one is read and described.
    await sql`CREATE INDEX places_waiting_seq ON places_waiting (seq)`.execute(this.trx);
    await sql`
      DECLARE places_waiting_rows NO SCROLL CURSOR FOR
      SELECT seq, name, ST_AsGeoJSON(geom) AS geometry,
             CASE WHEN name IS NOT NULL THEN description END AS description,
             CASE WHEN name IS NOT NULL THEN description_street END AS description_street
      FROM places_waiting`.execute(this.trx);
    const fetch = () => sql<WaitingRow>`FETCH ${sql.raw(String(DEFERRED_BATCH))} FROM places_waiting_rows`.execute(this.trx);
    let next = fetch();
    next.catch(() => undefined);
    let writing: Promise<unknown> = Promise.resolve();
    try {
      for (;;) {
        t = performance.now();
        const { rows } = await next;
        this.time('deferred.fetch', t);
        if (rows.length === 0) break;
        next = rows.length === DEFERRED_BATCH ? fetch() : Promise.resolve({ rows: [] as WaitingRow[] });
        next.catch(() => undefined);

        t = performance.now();
        const out: { seq: number; street: string | null; text: string | null }[] = [];
        for (const row of rows) {
          const street = this.context.streetNear(JSON.parse(row.geometry) as PlaceGeometry) ?? null;
          let text: string | null = null;
          if (row.name !== null) {
            const description = street === null ? row.description! : row.description_street!.replace(STREET_SLOT, street);
            text = embeddingText({ name: row.name, description });
          }
          out.push({ seq: row.seq, street, text });
        }
        this.time('deferred.describe', t);

        t = performance.now();
        const named = out.filter((o) => o.text !== null);
        const vectors = await this.embedder.embed(named.map((o) => o.text!));
        this.vectors += named.length;
        const vectorOf = new Map(named.map((o, i) => [o, vectors[i]!]));
        this.time('deferred.embed', t);

        t = performance.now();
        await writing;
        this.time('deferred.waitingForDb', t);
        writing = this.writeDescribed(out.map((o) => ({ seq: o.seq, street: o.street, vector: vectorOf.get(o) ?? null })));
        writing.catch(() => undefined);
      }
    } finally {
      await next.catch(() => undefined);
      await writing.catch(() => undefined);
    }
    t = performance.now();
    await writing;
    this.time('deferred.waitingForDb', t);
    await sql`CLOSE places_waiting_rows`.execute(this.trx);
  }

  /** Upserts a batch of waiting rows with their street (finishing the description) and vector. */
  private async writeDescribed(rows: { seq: number; street: string | null; vector: number[] | null }[]): Promise<void> {
    const t = performance.now();
    const fill = (w: RowWriter) => {
      for (const r of rows) {
        w.row(3);
        w.int4(r.seq);
        w.text(r.street);
        w.vector(r.vector);
      }
    };
    const finished = (described: RawBuilder<unknown>) => sql`
      SELECT w.seq, w.source, w.source_id, w.name, w.category, w.tags,
             CASE WHEN d.street IS NULL THEN w.description ELSE replace(w.description_street, ${STREET_SLOT}, d.street) END AS description,
             w.geom, d.embedding
      FROM (${described}) AS d JOIN places_waiting w USING (seq)`;
    if (this.embedded) {
      const steps = [
        sql`TRUNCATE places_described`.compile(this.trx),
        copyQuery('places_described', DESCRIBED_COLUMNS, fill),
        this.upsertQuery(finished(sql`SELECT * FROM places_described`)),
      ];
      this.counted((await this.trx.executeQuery<UpsertResult>(CompiledQuery.raw('', [new Script(steps)]))).rows);
    } else {
      this.counted((await this.trx.executeQuery<UpsertResult>(this.upsertQuery(finished(this.unnest(DESCRIBED_COLUMNS, fill))))).rows);
    }
    this.time('deferred.write', t);
  }
}

type Columns = Readonly<Record<string, ArrayElementType>>;

interface UpsertResult {
  written: number;
  repaired: string[] | null;
}

/** Embedded: rows into a temporary table by binary COPY through PGlite's /dev/blob. */
function copyQuery(table: string, columns: Columns, fill: (w: RowWriter) => void): CompiledQuery {
  const w = new CopyWriter();
  fill(w);
  return CompiledQuery.raw(`COPY ${table} (${Object.keys(columns).join(', ')}) FROM '/dev/blob' WITH (FORMAT binary)`, [new CopyData(w.take())]);
}

/** Columns of places_stage, in the order writeStaged writes them. */
const STAGE_COLUMNS: Columns = {
  seq: 'int4', source: 'text', source_id: 'text', name: 'text', category: 'text', tags: 'jsonb',
  description: 'text', geom: 'geometry', embedding: 'vector',
};
const WAITING_COLUMNS: Columns = { ...STAGE_COLUMNS, description_street: 'text' };
const DESCRIBED_COLUMNS: Columns = { seq: 'int4', street: 'text', embedding: 'vector' };

function columnList(columns: Columns): RawBuilder<unknown> {
  return sql.raw(`(${Object.keys(columns).join(', ')})`);
}

function writeStaged(w: RowWriter, rows: StagedRow[], waiting: boolean): void {
  for (const { seq, feature: f, description, vector, descriptionWithStreet } of rows) {
    w.row(waiting ? 10 : 9);
    w.int4(seq);
    w.text(f.source);
    w.text(f.sourceId);
    w.text(f.name);
    w.text(f.category);
    w.jsonb(JSON.stringify(f.tags));
    w.text(description);
    try {
      w.geometry(f.geometry);
    } catch (e) {
      // Readers check coordinates; this catches features built in code.
      if (e instanceof NonFiniteCoordinate) throw new IngestError(f.source, f.sourceId, e.message);
      throw e;
    }
    w.vector(vector);
    if (waiting) w.text(descriptionWithStreet ?? null);
  }
}

/** What the vector of a place stands for: its name, kind and description. */
export function embeddingText(feature: Pick<PlaceFeature, 'name' | 'description'>): string {
  return feature.name && !feature.description.includes(feature.name)
    ? `${feature.name}. ${feature.description}`
    : feature.description;
}

export { IngestError };
