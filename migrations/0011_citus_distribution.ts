import { sql, type Kysely } from 'kysely';
import { distributeTables } from '../src/db/citus.ts';

/**
 * The distributed mode: when the `citus` extension is installed in the database (scripts/setup-citus.sh;
 * DATABASE_DISTRIBUTION=citus requires it), the tables become Citus tables (distributeTables in
 * src/db/citus.ts says how and why). Elsewhere only the two change-notes are created, doing nothing: there
 * the statement triggers of migrations 0002 and 0007 bump the change counters.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ citus: boolean }>`SELECT EXISTS (SELECT FROM pg_extension WHERE extname = 'citus') AS citus`.execute(db);
  if (!rows[0]!.citus) {
    await sql`CREATE FUNCTION places_written() RETURNS void LANGUAGE plpgsql AS $$ BEGIN END $$`.execute(db);
    await sql`CREATE FUNCTION tools_written() RETURNS void LANGUAGE plpgsql AS $$ BEGIN END $$`.execute(db);
    return;
  }
  await distributeTables(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ citus: boolean }>`SELECT EXISTS (SELECT FROM pg_extension WHERE extname = 'citus') AS citus`.execute(db);
  if (rows[0]!.citus) throw new Error('0011_citus_distribution cannot be undone in place: dump the data and load it into a new database');
  await sql`DROP FUNCTION IF EXISTS places_written()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS tools_written()`.execute(db);
}
