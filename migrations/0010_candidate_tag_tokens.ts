import { sql, type Kysely } from 'kysely';
import { SET_BASED_TAG_TOKENS } from './0007_candidate_indexes.ts';

/**
 * Cheaper stored tag tokens (migration 0009), which were more than half of the database's work per inserted
 * row (measured on the server, 49,206 Midtown rows INSERT ... SELECT into a table without indexes: 1.10 s with
 * the generated columns, 0.23 s without):
 * - only for the candidates (named places that are not streets), the only rows the question path matches
 *   by tags and the rows of the partial GIN index over the column: 7,700 of the 49,000 Midtown rows.
 *   Other rows hold NULL (0.88 -> 0.61 s for the INSERT above);
 * - `place_tag_tokens` in PL/pgSQL, with the same output token for token and in the same order: the
 *   set-based SQL version (a join, a regular expression per tag, an aggregate) cannot be inlined, and
 *   most values have no `;`, so they skip the regular expression (530 -> 217 ms over all rows as a SELECT).
 * The column is added again, so the table is rewritten once.
 */
const CANDIDATE = sql`name IS NOT NULL AND coalesce(category, '') <> 'street'`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION place_tag_tokens(tags jsonb) RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
    DECLARE
      k text;
      v text;
      part text;
      tokens text[] := '{}';
    BEGIN
      FOR k, v IN SELECT key, value FROM jsonb_each_text(tags) LOOP
        IF v IS NULL THEN
          -- a JSON null: no value to split, but the key is set
          tokens := tokens || (k || '=*');
          CONTINUE;
        END IF;
        IF strpos(v, ';') = 0 THEN
          tokens := tokens || (k || '=' || trim(v));
        ELSE
          FOREACH part IN ARRAY regexp_split_to_array(trim(v), '\\s*;\\s*') LOOP
            tokens := tokens || (k || '=' || part);
          END LOOP;
        END IF;
        IF v NOT IN ('no', 'none') THEN
          tokens := tokens || (k || '=*');
        END IF;
      END LOOP;
      RETURN tokens;
    END
    $$`.execute(db);
  await storeTagTokens(db, sql`CASE WHEN ${CANDIDATE} THEN place_tag_tokens(tags) END`);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION place_tag_tokens(tags jsonb) RETURNS text[]
${sql.raw(SET_BASED_TAG_TOKENS)}`.execute(db);
  await storeTagTokens(db, sql`place_tag_tokens(tags)`);
}

/** (Re)creates the generated column with this expression, and its partial GIN index. */
async function storeTagTokens(db: Kysely<any>, expression: ReturnType<typeof sql>): Promise<void> {
  await sql`ALTER TABLE places DROP COLUMN tag_tokens`.execute(db);
  await sql`ALTER TABLE places ADD COLUMN tag_tokens text[] GENERATED ALWAYS AS (${expression}) STORED`.execute(db);
  await sql`CREATE INDEX places_candidate_tags_idx ON places USING gin (tag_tokens) WHERE ${CANDIDATE}`.execute(db);
}
