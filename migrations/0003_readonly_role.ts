import { sql, type Kysely } from 'kysely';
import { grantReaderSql, revokeReaderSql } from '../src/db/readonly-role.ts';

/**
 * The read-only role question answering runs as in server mode (src/db/readonly-role.ts): created when the
 * migrating user may create roles, granted SELECT on the tables question answering reads. Constant SQL text.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(grantReaderSql()).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(revokeReaderSql()).execute(db);
}
