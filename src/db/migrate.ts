import { Migrator, sql, type MigrationResultSet } from 'kysely';
import { migrations } from '../../migrations/index.ts';
import type { Db } from './database.ts';

export interface MigrateOptions {
  /** `citus`: refuse a database without the citus extension instead of leaving its tables local (config DATABASE_DISTRIBUTION). */
  distribution?: 'auto' | 'citus';
}

/** Brings the schema up to date. Already-applied migrations are skipped, so running it twice changes nothing. */
export async function migrateToLatest(db: Db, options: MigrateOptions = {}): Promise<MigrationResultSet> {
  if (options.distribution === 'citus') await assertCitus(db);
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

/** DATABASE_DISTRIBUTION=citus: the database must be a Citus coordinator with workers (migration 0011 distributes the tables). */
async function assertCitus(db: Db): Promise<void> {
  const { rows } = await sql<{ citus: boolean }>`SELECT EXISTS (SELECT FROM pg_extension WHERE extname = 'citus') AS citus`.execute(db);
  if (!rows[0]!.citus) {
    throw new Error('DATABASE_DISTRIBUTION=citus but the citus extension is not installed in this database: run scripts/setup-citus.sh, or CREATE EXTENSION citus and citus_add_node as a superuser');
  }
}
