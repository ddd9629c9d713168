import { sql } from 'kysely';
import { isDistributed } from '../db/citus.ts';
import { PLACES_HNSW_INDEX } from '../db/indexes.ts';
import type { Db } from '../db/database.ts';
import { embeddingText } from '../ingest/load.ts';
import type { Embedder } from './embedder.ts';
import { toVectorLiteral, vectorColumnDimension } from './space.ts';

const BATCH = 1000;

/**
 * Rebuilds every place vector with the given embedder, in one transaction: the column's dimension follows
 * the new model, the HNSW index is rebuilt, and the space records the new model. Readers never see a mix.
 */
export async function reembedPlaces(db: Db, embedder: Embedder, onProgress?: (done: number) => void): Promise<number> {
  const [probe] = await embedder.embed(['dimension probe']);
  const dimension = probe!.length;
  let done = 0;
  await db.transaction().execute(async (trx) => {
    // Citus refuses DDL on a table after the transaction wrote to its shards over several connections: there
    // the index is kept and maintained row by row instead of rebuilt at the end.
    const distributed = await isDistributed(trx);
    if (!distributed) await sql`DROP INDEX IF EXISTS places_embedding_idx`.execute(trx);
    if ((await vectorColumnDimension(trx, 'places')) !== dimension) {
      await sql`ALTER TABLE places ALTER COLUMN embedding TYPE ${sql.raw(`vector(${dimension})`)} USING NULL`.execute(trx);
    }
    await sql`UPDATE places SET embedding = NULL, embedding_model = NULL WHERE embedding IS NOT NULL`.execute(trx);
    let after = 0;
    for (;;) {
      const rows = await trx
        .selectFrom('places')
        .select(['id', 'name', 'description'])
        .where('name', 'is not', null)
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) break;
      const vectors = await embedder.embed(rows.map(embeddingText));
      const updates = rows.map((r, i) => ({ id: r.id, embedding: toVectorLiteral(vectors[i]!) }));
      await sql`
        UPDATE places p SET embedding = u.embedding::vector, embedding_model = ${embedder.model}
        FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS u(id bigint, embedding text)
        WHERE p.id = u.id`.execute(trx);
      after = rows[rows.length - 1]!.id;
      done += rows.length;
      onProgress?.(done);
    }
    await sql`SELECT places_written()`.execute(trx);
    if (!distributed) {
      await sql`SET LOCAL maintenance_work_mem = '256MB'`.execute(trx);
      await sql`${sql.raw(PLACES_HNSW_INDEX)}`.execute(trx);
    }
    await trx
      .insertInto('embedding_spaces')
      .values({ name: 'places', model: embedder.model, dimension })
      .onConflict((oc) => oc.column('name').doUpdateSet({ model: embedder.model, dimension, updated_at: sql`excluded.updated_at` as never }))
      .execute();
  });
  return done;
}
