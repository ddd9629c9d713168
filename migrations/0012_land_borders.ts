import { sql, type Kysely } from 'kysely';
import { grantReaderSql } from '../src/db/readonly-role.ts';

/**
 * The land borders of areas (src/ingest/land-borders.ts): "near the border of a country" measures to the
 * outline it shares with its neighbours, not to its coast. A table of its own, keyed like places by source
 * and source id: only the world seed's countries have one, and the loader of places stays as it is. Read by
 * question answering, so the reader role may SELECT it; a plain table under Citus too (read on its own,
 * one row per question).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE land_borders (
      source text NOT NULL,
      source_id text NOT NULL,
      border geometry(MultiLineString, 4326) NOT NULL,
      PRIMARY KEY (source, source_id)
    )`.execute(db);
  await sql.raw(grantReaderSql()).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE land_borders`.execute(db);
}
