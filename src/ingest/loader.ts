/**
 * One load's temporary tables and the statements over them (see load.ts for the whole): a batch is prepared
 * (context, descriptions, vectors) and written; the places waiting for their street are finished after the input.
 */
import { CompiledQuery, sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { Script } from '../db/pglite-dialect.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { ArrayColumns, type RowWriter } from './binary.ts';
import { bboxOf, ContextIndex, mayHaveStreet } from './context.ts';
import { describePlace, describeWithStreetSlot, STREET_SLOT } from './describe.ts';
import type { PlaceFeature, PlaceGeometry } from './feature.ts';
import type { LoadReport } from './load.ts';
import {
  columnList, copyQuery, DESCRIBED_COLUMNS, embeddingText, STAGE_COLUMNS, WAITING_COLUMNS, writeStaged,
  type Columns, type StagedRow, type UpsertResult,
} from './staging.ts';

/** Read-back batch of the places waiting for their street. */
const DEFERRED_BATCH = 5000;

/** A batch ready to write: rows for places now, and rows waiting for their street. */
export interface Prepared {
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
export class Loader {
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
