import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { withPgClient } from '../../src/db/pg-client.ts';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { dropCitusDatabase, isCitus, prepareCitusDatabase } from './citus.ts';

/** `server` when DATABASE_URL is set (the CI's second pass), `embedded` otherwise. */
export const testMode: 'server' | 'embedded' = process.env.DATABASE_URL ? 'server' : 'embedded';
export const isServer = testMode === 'server';

export interface TestDatabaseLocation {
  /** The configuration that points the service at this database. */
  env: { DATABASE_URL?: string; PGLITE_DATA_DIR?: string };
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database of the current mode for one test file: a copy of the PGlite template built
 * by test/global-setup.ts (a warm start), or a new server database cloned from the template database that
 * scripts/setup-postgres.sh creates with the extensions.
 */
export type Fixture = 'empty' | 'nyc';

export interface LocationOptions {
  /** Citus test mode (test/helpers/citus.ts): false gives a plain server-mode database on the coordinator. */
  distributed?: boolean;
}

export async function createTestDatabaseLocation(fixture: Fixture = 'empty', options: LocationOptions = {}): Promise<TestDatabaseLocation> {
  if (isServer) {
    const template = inject('serverTemplates')[fixture];
    if (!template) throw new Error(`no server template for fixture '${fixture}' (test/global-setup.ts)`);
    return createServerDatabase(process.env.DATABASE_URL!, template, options.distributed ?? isCitus);
  }
  const template = inject('pgliteTemplates')[fixture];
  if (!template || !existsSync(template)) throw new Error(`no PGlite template for fixture '${fixture}' (test/global-setup.ts)`);
  const dir = mkdtempSync(join(tmpdir(), 'srag-pglite-'));
  cpSync(template, dir, { recursive: true });
  return { env: { PGLITE_DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

async function createServerDatabase(url: string, template: string, citus: boolean): Promise<TestDatabaseLocation> {
  const name = `srag_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await withPgClient(url, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const drop = async () => {
    if (citus) await dropCitusDatabase(url, name);
    else await withPgClient(url, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  };
  if (citus) {
    try {
      await prepareCitusDatabase(url, name);
    } catch (error) {
      await drop();
      throw error;
    }
  }
  const testUrl = new URL(url);
  testUrl.pathname = `/${name}`;
  return { env: { DATABASE_URL: testUrl.toString() }, drop };
}

export interface TestDatabase extends DatabaseHandle {
  location: TestDatabaseLocation;
  /** Close and delete the database. */
  dispose(): Promise<void>;
}

export async function openTestDatabase(fixture: Fixture = 'empty', options: LocationOptions = {}): Promise<TestDatabase> {
  const location = await createTestDatabaseLocation(fixture, options);
  const handle = await openDatabase({
    databaseUrl: location.env.DATABASE_URL,
    pgliteDataDir: location.env.PGLITE_DATA_DIR,
    poolSize: 4,
  });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    location,
    dispose: async () => {
      await handle.close();
      await location.drop();
    },
  };
}

export async function countRows(db: DatabaseHandle['db'], table: string): Promise<number> {
  const result = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(db);
  return result.rows[0]!.n;
}
