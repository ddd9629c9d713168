import { ConfigError, loadConfig, type Config } from '../config.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createConfiguredEmbedder } from '../embedding/configured.ts';
import type { Embedder } from '../embedding/embedder.ts';

export interface CliContext {
  config: Config;
  database: DatabaseHandle;
  embedder: Embedder;
}

/**
 * Opens the configured database (migrated, unless `migrate: false`) for a command, runs it, closes it;
 * errors become one line and exit 1.
 */
export async function runCommand(work: (ctx: CliContext) => Promise<void>, options: { migrate?: boolean } = {}): Promise<void> {
  let database: DatabaseHandle | undefined;
  try {
    const config = loadConfig();
    database = await openDatabase({
      databaseUrl: config.DATABASE_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      pgliteDataDir: config.PGLITE_DATA_DIR,
    });
    if (options.migrate !== false) await migrateToLatest(database.db, { distribution: config.DATABASE_DISTRIBUTION });
    await work({ config, database, embedder: createConfiguredEmbedder(config) });
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : `error: ${(error as Error).message}`;
    process.stderr.write(`${message}\n`);
    process.exitCode = 1;
  } finally {
    await database?.close();
  }
}
