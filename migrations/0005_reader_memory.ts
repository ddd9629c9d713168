import { sql, type Kysely } from 'kysely';
import { grantReaderSql } from '../src/db/readonly-role.ts';

/**
 * Server mode: the tool search and workflow plans now run on the read-only, time-bounded connections too, and
 * they read the distilled workflow memory (src/memory/priors.ts): the reader role gets SELECT on those tables.
 * The same constant SQL as 0003 (idempotent), now over the longer READER_TABLES list.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(grantReaderSql()).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DO $srag$
    BEGIN
      IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'srag_reader') THEN
        REVOKE ALL ON memory_workflows, memory_experiences FROM srag_reader;
      END IF;
    END
    $srag$`.execute(db);
}
