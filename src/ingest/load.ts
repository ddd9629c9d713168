import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { Embedder } from '../embedding/embedder.js';
import { ensureEmbeddingSpace, toVectorLiteral } from '../embedding/space.js';
import { PLACES_HNSW_INDEX } from '../../migrations/0001_places.js';
import { IngestError, type PlaceFeature } from './feature.js';

export interface LoadProgress {
  features: number;
  elapsedMs: number;
}

export interface LoadOptions {
  /** Delete every place of the sources being loaded before writing (in the same transaction). */
  replaceSources?: string[];
  batchSize?: number;
  /**
   * Drop the HNSW index during the load and build it once at the end. Much faster for bulk loads, but it
   * locks the table for the whole load: meant for the embedded mode (one connection anyway) and first loads.
   */
  deferVectorIndex?: boolean;
  onProgress?: (progress: LoadProgress) => void;
}

export interface LoadReport {
  read: number;
  /** Rows inserted or updated. */
  written: number;
  /** Source ids whose invalid polygons were repaired with ST_MakeValid. */
  repaired: string[];
  ms: number;
}

const DEFAULT_BATCH = 1000;

/**
 * Writes places in batches inside ONE transaction: a failure anywhere (a bad record without
 * --skip-invalid, a database error) leaves the database exactly as it was. Re-loading the same records
 * updates them in place (upsert on source + source_id), so an import can be repeated safely.
 */
export async function loadPlaces(
  db: Db,
  embedder: Embedder,
  features: AsyncIterable<PlaceFeature> | Iterable<PlaceFeature>,
  options: LoadOptions = {},
): Promise<LoadReport> {
  const started = performance.now();
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const report: LoadReport = { read: 0, written: 0, repaired: [], ms: 0 };
  await db.transaction().execute(async (trx) => {
    await ensureEmbeddingSpace(trx, 'places', embedder);
    for (const source of options.replaceSources ?? []) {
      await trx.deleteFrom('places').where('source', '=', source).execute();
    }
    if (options.deferVectorIndex) await sql`DROP INDEX IF EXISTS places_embedding_idx`.execute(trx);
    // One batch is written while the next one is read and parsed.
    let writing: Promise<void> = Promise.resolve();
    let batch: PlaceFeature[] = [];
    const flush = async () => {
      const toWrite = batch;
      batch = [];
      await writing;
      if (toWrite.length === 0) return;
      writing = writeBatch(trx, embedder, toWrite).then(({ written, repaired }) => {
        report.written += written;
        report.repaired.push(...repaired);
        options.onProgress?.({ features: report.read, elapsedMs: performance.now() - started });
      });
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
      await writing.catch(() => undefined);
    }
    await writing;
    if (options.deferVectorIndex) {
      await sql`SET LOCAL maintenance_work_mem = '256MB'`.execute(trx);
      await sql`${sql.raw(PLACES_HNSW_INDEX)}`.execute(trx);
    }
  });
  report.ms = Math.round(performance.now() - started);
  return report;
}

async function writeBatch(
  trx: Transaction<Database>,
  embedder: Embedder,
  batch: PlaceFeature[],
): Promise<{ written: number; repaired: string[] }> {
  // Only named places get a vector: unnamed benches, kerbs and footways are never an answer by meaning,
  // and a vector costs more to store and index than the rest of the row.
  const named = batch.filter((f) => f.name);
  const vectors = await embedder.embed(named.map(embeddingText));
  const vectorOf = new Map(named.map((f, i) => [f, vectors[i]!]));
  const rows = batch.map((f) => ({
    source: f.source,
    source_id: f.sourceId,
    name: f.name,
    category: f.category,
    tags: f.tags,
    description: f.description,
    geometry: JSON.stringify(f.geometry),
    embedding: vectorOf.has(f) ? toVectorLiteral(vectorOf.get(f)!) : null,
  }));
  // One statement per batch: the rows travel as one JSON parameter (no parameter-count limit, one
  // round trip), invalid polygons are repaired on the way in, and the repaired ids come back.
  const result = await sql<{ written: number; repaired: string[] | null }>`
    WITH input AS (
      SELECT r.*, ST_SetSRID(ST_GeomFromGeoJSON(r.geometry), 4326) AS g
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
        source text, source_id text, name text, category text, tags jsonb, description text,
        geometry text, embedding text)
    ), checked AS (
      SELECT input.*, ST_IsValid(g) AS valid FROM input
    ), written AS (
      INSERT INTO places (source, source_id, name, category, tags, description, geom, embedding, embedding_model)
      SELECT DISTINCT ON (source, source_id)
             source, source_id, name, category, tags, description,
             CASE WHEN valid THEN g ELSE ST_CollectionExtract(ST_MakeValid(g), ST_Dimension(g) + 1) END,
             embedding::vector, CASE WHEN embedding IS NULL THEN NULL ELSE ${embedder.model} END
      FROM checked
      ON CONFLICT (source, source_id) DO UPDATE SET
        name = EXCLUDED.name, category = EXCLUDED.category, tags = EXCLUDED.tags,
        description = EXCLUDED.description, geom = EXCLUDED.geom, embedding = EXCLUDED.embedding,
        embedding_model = EXCLUDED.embedding_model, updated_at = now()
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM written)::int AS written,
           (SELECT array_agg(source_id) FROM checked WHERE NOT valid) AS repaired`.execute(trx);
  const row = result.rows[0]!;
  return { written: row.written, repaired: row.repaired ?? [] };
}

/** What the vector of a place stands for: its name, kind and description. */
export function embeddingText(feature: Pick<PlaceFeature, 'name' | 'description'>): string {
  return feature.name && !feature.description.includes(feature.name)
    ? `${feature.name}. ${feature.description}`
    : feature.description;
}

export { IngestError };
