import { Migrator, sql, type MigrationResultSet } from 'kysely';
import { migrations } from '../../migrations/index.ts';
import type { Db } from './database.ts';

export interface MigrateOptions {
  /** `citus`: refuse a database without the citus extension instead of leaving its tables local (config DATABASE_DISTRIBUTION). */
  distribution?: 'auto' | 'citus';
}

/** Brings the schema up to date. Already-applied migrations are skipped, so running it twice changes nothing. */
export async function migrateToLatest(db: Db, options: MigrateOptions = {}): Promise<MigrationResultSet> {
  const citus = await hasCitus(db);
  if (options.distribution === 'citus' && !citus) {
    throw new Error('DATABASE_DISTRIBUTION=citus but the citus extension is not installed in this database: run scripts/setup-citus.sh, or CREATE EXTENSION citus and citus_add_node as a superuser');
  }
  if (citus) await migrateLocalTables(db);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${(result.error as Error).message ?? result.error}`);
  }
  return result;
}

/** Migrations a database has applied that this code does not know: it was written by a newer version. */
export async function unknownMigrations(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
  return rows.map((r) => r.name).filter((name) => !(name in migrations));
}

async function hasCitus(db: Db): Promise<boolean> {
  const { rows } = await sql<{ citus: boolean }>`SELECT EXISTS (SELECT FROM pg_extension WHERE extname = 'citus') AS citus`.execute(db);
  return rows[0]!.citus;
}

/** The last migration before 0011 distributed the tables. */
const LAST_LOCAL_MIGRATION = '0010_candidate_tag_tokens';

/**
 * On a Citus coordinator, the migrations before 0011 run without Citus's DDL propagation: they were written
 * for a single server, and their `CREATE EXTENSION IF NOT EXISTS` sent on to the workers is refused there
 * (the extensions exist, owned by the superuser who made them). The tables they create stay local until
 * 0011 distributes them, which copies the functions they use to the workers then.
 */
async function migrateLocalTables(db: Db): Promise<void> {
  const { rows } = await sql<{ table: string | null }>`SELECT to_regclass('kysely_migration')::text AS table`.execute(db);
  if (rows[0]!.table && (await appliedMigrations(db)).includes('0011_citus_distribution')) return;
  await db.connection().execute(async (connection) => {
    await sql`SET citus.enable_ddl_propagation = off`.execute(connection);
    try {
      const migrator = new Migrator({ db: connection, provider: { getMigrations: async () => migrations } });
      const result = await migrator.migrateTo(LAST_LOCAL_MIGRATION);
      if (result.error) throw result.error;
    } finally {
      await sql`RESET citus.enable_ddl_propagation`.execute(connection);
    }
  });
}

async function appliedMigrations(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
  return rows.map((r) => r.name);
}
