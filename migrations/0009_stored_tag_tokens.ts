import { sql, type Kysely } from 'kysely';

/**
 * The tag tokens of a place stored in the row (`tag_tokens`, generated from `tags` by place_tag_tokens of
 * migration 0007), and the candidates' GIN index over the column instead of over the expression.
 *
 * Where the planner expects a question's window to hold few places, it checks the target tags row by row
 * instead of combining the tag index with the window's GiST bitmap. With the expression, each check
 * decomposed the row's jsonb (measured at 100k places, Midtown's data plus a copy and the Wikivoyage points
 * around the world, whose spread makes PostGIS's estimate of a Manhattan window ~1 row: 10,900 rows, 630 ms
 * for "the nearest dog run"); with the column it is an array overlap.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE places ADD COLUMN tag_tokens text[] GENERATED ALWAYS AS (place_tag_tokens(tags)) STORED`.execute(db);
  await sql`DROP INDEX places_candidate_tags_idx`.execute(db);
  await sql`
    CREATE INDEX places_candidate_tags_idx ON places USING gin (tag_tokens)
    WHERE name IS NOT NULL AND coalesce(category, '') <> 'street'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS places_candidate_tags_idx`.execute(db);
  await sql`ALTER TABLE places DROP COLUMN IF EXISTS tag_tokens`.execute(db);
  await sql`
    CREATE INDEX places_candidate_tags_idx ON places USING gin (place_tag_tokens(tags))
    WHERE name IS NOT NULL AND coalesce(category, '') <> 'street'`.execute(db);
}
