import { sql, type Kysely } from 'kysely';
import { grantReaderSql } from '../src/db/readonly-role.ts';

/**
 * Indexes that bound the work of one question to the candidates it can return (issue 4: latency).
 *
 * Question answering only ever returns named places that are not streets ("candidates"); in the Midtown
 * extract they are 7,700 of 49,000 rows. Measured on the server (EXPLAIN ANALYZE, a 1.5 km window around
 * the Vessel): the full GiST index on `geog` handed 28,000 rows to the filters for 2,900 candidates.
 *
 * - `places_candidate_geom_idx`: partial GiST over the candidates, for the window (`&&`) and the
 *   nearest-first scans (`<->`) of src/spatial/retrieve.ts.
 * - `place_tag_tokens(tags)`: `key=value` tokens, multi-valued tags split on `;` (`cuisine=donut;coffee_shop`
 *   gives both), plus `key=*` for every key not set to no/none. A GIN index over it finds the places
 *   matching a plan's tag targets with one index lookup instead of a regular expression per row.
 * - The vectors stay in the row (STORAGE MAIN: compressed if possible, out of line only as a last resort):
 *   with the default (EXTENDED) a 384-dimensional vector moved to the TOAST table and every exact distance
 *   cost a TOAST fetch (measured: 57 ms -> 16 ms for the 1,556 candidates of a 1 km window). It applies to
 *   rows written from now on; `npm run reembed` rewrites older ones.
 * - `places_version`: a counter every statement that changes places bumps (statement-level trigger), so
 *   that caches of what is derived from places (resolved references, src/spatial/resolve.ts) know when
 *   they are stale, in every service instance, with one cheap read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION place_tag_tokens(tags jsonb) RETURNS text[]
${sql.raw(SET_BASED_TAG_TOKENS)}`.execute(db);
  await sql`
    CREATE INDEX places_candidate_geom_idx ON places USING gist (geom)
    WHERE name IS NOT NULL AND coalesce(category, '') <> 'street'`.execute(db);
  await sql`
    CREATE INDEX places_candidate_tags_idx ON places USING gin (place_tag_tokens(tags))
    WHERE name IS NOT NULL AND coalesce(category, '') <> 'street'`.execute(db);
  await sql`ALTER TABLE places ALTER COLUMN embedding SET STORAGE MAIN`.execute(db);

  await sql`CREATE TABLE places_version (version bigint NOT NULL)`.execute(db);
  await sql`INSERT INTO places_version VALUES (1)`.execute(db);
  await sql`
    CREATE FUNCTION bump_places_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE places_version SET version = version + 1;
      RETURN NULL;
    END
    $$`.execute(db);
  await sql`
    CREATE TRIGGER places_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON places
    FOR EACH STATEMENT EXECUTE FUNCTION bump_places_version()`.execute(db);
  await sql.raw(grantReaderSql()).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS places_changed ON places`.execute(db);
  await sql`DROP FUNCTION IF EXISTS bump_places_version()`.execute(db);
  await sql`DROP TABLE IF EXISTS places_version`.execute(db);
  await sql`ALTER TABLE places ALTER COLUMN embedding SET STORAGE EXTENDED`.execute(db);
  await sql`DROP INDEX IF EXISTS places_candidate_tags_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS places_candidate_geom_idx`.execute(db);
  await sql`DROP FUNCTION IF EXISTS place_tag_tokens(jsonb)`.execute(db);
}

/** The first definition of place_tag_tokens (after its signature); migration 0010 restores it on the way down. */
export const SET_BASED_TAG_TOKENS = `    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT coalesce(array_agg(e.key || '=' || part), '{}')
      FROM jsonb_each_text(tags) AS e,
           unnest(CASE WHEN e.value IN ('no', 'none') THEN regexp_split_to_array(trim(e.value), '\\s*;\\s*')
                       ELSE regexp_split_to_array(trim(e.value), '\\s*;\\s*') || '*'::text END) AS part
    $$`;
