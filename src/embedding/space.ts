import { sql, type Kysely } from 'kysely';
import pgvector from 'pgvector';
import type { Database } from '../db/schema.ts';
import type { Embedder } from './embedder.ts';

/**
 * pgvector's text form (the `pgvector` package's serialiser), with 6 significant digits: enough for cosine
 * ranking, and half the bytes of full precision for a dense vector (docs/architecture.md).
 */
export function toVectorLiteral(vector: readonly number[]): string {
  // Most components of an offline vector are 0 (hashed n-grams): skip the number formatting for them.
  return pgvector.toSql(Array.from(vector, (v) => (v === 0 ? 0 : Number(v.toPrecision(6))))) as string;
}

/** The numbers of a vector in pgvector's text form (as sent or as read back without type registration). */
export function fromVectorLiteral(literal: string): number[] {
  return pgvector.fromSql(literal) as number[];
}

/** Raised when stored vectors come from another model than the configured one: comparing them is meaningless. */
export class EmbeddingSpaceMismatch extends Error {
  override name = 'EmbeddingSpaceMismatch';
}

/** Declared dimension of a vector column, e.g. 384 for `vector(384)`. */
export async function vectorColumnDimension(db: Kysely<Database>, table: string, column = 'embedding'): Promise<number> {
  const { rows } = await sql<{ dim: number }>`
    SELECT atttypmod AS dim FROM pg_attribute
    WHERE attrelid = ${table}::regclass AND attname = ${column}`.execute(db);
  return rows[0]?.dim ?? -1;
}

/**
 * Records which model fills a vector space (`places`, `tools`), or checks that the configured embedder
 * is that model. Switching models is done by `npm run reembed`, never by mixing vectors.
 */
export async function ensureEmbeddingSpace(db: Kysely<Database>, space: string, embedder: Embedder): Promise<void> {
  const current = await db.selectFrom('embedding_spaces').selectAll().where('name', '=', space).executeTakeFirst();
  if (current && current.model !== embedder.model) {
    throw new EmbeddingSpaceMismatch(
      `the ${space} vectors were made by ${current.model} but the configured embedder is ${embedder.model}: run \`npm run reembed\``,
    );
  }
  if (!current) {
    const dimension = await vectorColumnDimension(db, space);
    if (embedder.dimension && dimension > 0 && dimension !== embedder.dimension) {
      throw new EmbeddingSpaceMismatch(
        `the ${space} vector column has dimension ${dimension} but ${embedder.model} makes ${embedder.dimension}: run \`npm run reembed\``,
      );
    }
    await db
      .insertInto('embedding_spaces')
      .values({ name: space, model: embedder.model, dimension: embedder.dimension || dimension })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }
}
