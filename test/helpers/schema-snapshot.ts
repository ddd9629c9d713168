import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';

/** What must be identical in both database modes: tables, columns and types, indexes, extensions. */
export async function schemaSnapshot(db: Db) {
  const columns = await sql<{ table_name: string; column_name: string; type: string; nullable: string; generated: string }>`
    SELECT c.table_name, c.column_name, format_type(a.atttypid, a.atttypmod) AS type, c.is_nullable AS nullable,
           c.is_generated AS generated
    FROM information_schema.columns c
    JOIN pg_attribute a ON a.attrelid = (quote_ident(c.table_schema) || '.' || quote_ident(c.table_name))::regclass
                       AND a.attname = c.column_name
    WHERE c.table_schema = 'public' AND c.table_name NOT IN ('spatial_ref_sys')
      AND c.table_name IN (SELECT tablename FROM pg_tables WHERE schemaname = 'public')
    ORDER BY c.table_name, c.column_name`.execute(db);
  const indexes = await sql<{ indexname: string; indexdef: string }>`
    SELECT indexname, indexdef FROM pg_indexes
    WHERE schemaname = 'public' AND tablename NOT IN ('spatial_ref_sys') ORDER BY indexname`.execute(db);
  const extensions = await sql<{ extname: string }>`SELECT extname FROM pg_extension ORDER BY extname`.execute(db);
  const migrations = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
  return {
    columns: columns.rows,
    indexes: indexes.rows,
    // plpgsql is built in everywhere; versions differ between the WASM build and Debian's packages.
    extensions: extensions.rows.map((r) => r.extname).filter((name) => name !== 'plpgsql'),
    migrations: migrations.rows.map((r) => r.name),
  };
}
