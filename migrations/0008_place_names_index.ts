import { sql, type Kysely } from 'kysely';

/**
 * An index for the resolver's exact-name lookup (src/spatial/resolve.ts): a Chinese or alternative name
 * ("麦迪逊广场公园", an `alt_name`) is compared with `name`, `name:zh`, `name:zh-Hans`, `name:zh-Hant` and
 * `alt_name`. Written as an OR of five tag lookups, that was a sequential scan of places for every name not
 * yet cached (issue 8: EXPLAIN at 10k-1M places). `place_names` gathers the five into one array, which a
 * GIN index answers with `@>`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION place_names(tags jsonb, name text) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT array_remove(ARRAY[name, tags->>'name:zh', tags->>'name:zh-Hans', tags->>'name:zh-Hant', tags->>'alt_name'], NULL)
    $$`.execute(db);
  await sql`CREATE INDEX places_names_idx ON places USING gin (place_names(tags, name)) WHERE name IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS places_names_idx`.execute(db);
  await sql`DROP FUNCTION IF EXISTS place_names(jsonb, text)`.execute(db);
}
