import { Migrator, sql, type MigrationResultSet } from 'kysely';
import { migrations } from '../../migrations/index.ts';
import type { Db } from './database.ts';

/** Brings the schema up to date. Already-applied migrations are skipped, so running it twice changes nothing. */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
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
