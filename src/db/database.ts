import { accessSync, constants, existsSync, mkdirSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { pgliteDialect, PgliteWorker } from './pglite-dialect.ts';
import { acquireDataDirLock, checkDataDir, stampDataDir, type DataDirLock } from './data-dir.ts';
import { emptyDatabaseTemplate } from './template.ts';

export type Db = Kysely<Database>;
export type DatabaseMode = 'embedded' | 'server';

export interface DatabaseHandle {
  db: Db;
  mode: DatabaseMode;
  /** Server mode: the primary's pool behind `db` (the read routes fall back to it when no replica serves). */
  pool?: pg.Pool;
  /** Embedded mode on disk: the directory's exclusive lock, held until close(). */
  lock?: DataDirLock;
  /** Embedded mode: a consistent snapshot of the whole data directory (a gzipped tar, PGlite's dumpDataDir). */
  dumpDataDir?: () => Promise<Uint8Array>;
  close(): Promise<void>;
}

/** `application_name` of the service's connections, so pg_stat_activity tells the pools apart. */
export const APPLICATION_NAME = 'spatial-rag';

/**
 * Session settings of every server connection. The questions are short index-driven queries: a parallel
 * plan spent ~30 ms starting its workers for a 5 ms sort (measured on a 60 m street corridor), and JIT
 * compilation, which PostgreSQL starts above a cost the queries reach at a million places, costs tens of
 * milliseconds more than it saves.
 */
export const SESSION_OPTIONS = '-c max_parallel_workers_per_gather=0 -c jit=off';

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  poolSize?: number;
  pgliteDataDir?: string;
  /** Embedded mode: fill the (empty) data directory from a `dumpDataDir` snapshot first (a restore). */
  restoreFrom?: Uint8Array;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** Counts and sums as JavaScript numbers in server mode, as PGlite gives them: one result shape for both modes. */
export function numericTypes(): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
      return pg.types.getTypeParser(oid, format);
    }) as pg.CustomTypesConfig['getTypeParser'],
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openServer(options.databaseUrl, options.poolSize ?? 10);
  return openEmbedded(options.pgliteDataDir ?? './.data/pglite', options.restoreFrom);
}

async function openServer(connectionString: string, max: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5_000,
    types: numericTypes(),
    application_name: APPLICATION_NAME,
    options: SESSION_OPTIONS,
  });
  // An idle client losing its server (restart, failover) must not crash the process.
  pool.on('error', () => undefined);
  // A checked-out client (pg-pool removes its idle listener) emits 'error' when its server goes away: without a
  // listener that is an uncaught exception that ends the process. The failed query still rejects (503).
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    await sql`SELECT 1`.execute(db);
  } catch (error) {
    await db.destroy();
    throw new Error(`cannot connect to DATABASE_URL (${redact(connectionString)}): ${(error as Error).message}`);
  }
  return { db, mode: 'server', pool, close: () => db.destroy() };
}

async function openEmbedded(dataDir: string, restoreFrom?: Uint8Array): Promise<DatabaseHandle> {
  if (dataDir.startsWith('memory://')) return openPglite(dataDir, undefined, restoreFrom ?? emptyDatabaseTemplate());
  // A directory this install cannot read is refused before anything, even a probe, is written to it.
  checkDataDir(dataDir);
  mkdirSync(dataDir, { recursive: true });
  assertWritable(dataDir);
  assertSpace(dataDir);
  // One process per directory (see data-dir.ts).
  const lock = acquireDataDirLock(dataDir);
  try {
    // A new directory starts from the empty-database template (see template.ts), an existing one as it is.
    const initial = restoreFrom ?? (existsSync(join(dataDir, 'PG_VERSION')) ? undefined : emptyDatabaseTemplate());
    const handle = await openPglite(dataDir, lock, initial);
    stampDataDir(dataDir);
    return handle;
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function openPglite(dataDir: string, lock?: DataDirLock, restoreFrom?: Uint8Array): Promise<DatabaseHandle> {
  const worker = new PgliteWorker(dataDir);
  worker.restoreFrom = restoreFrom;
  const db = new Kysely<Database>({ dialect: pgliteDialect(worker) });
  try {
    await sql`SELECT 1`.execute(db);
  } catch (error) {
    await db.destroy();
    throw new Error(`cannot open the embedded database in ${dataDir}: ${(error as Error).message}${diskSpaceHint(dataDir)}`);
  }
  return {
    db,
    mode: 'embedded',
    ...(lock ? { lock } : {}),
    // Through the driver's queue: no transaction of the service's is half done in the snapshot.
    dumpDataDir: () => db.connection().execute(() => worker.dump()),
    close: async () => {
      try {
        await db.destroy();
      } finally {
        lock?.release();
      }
    },
  };
}

/**
 * Below this much free space the embedded database is not opened. PGlite writes when it opens (WAL, a
 * checkpoint, crash recovery after an unclean stop) and, measured on a filled tmpfs, either says only that it
 * "failed to initialize" or, after a stop on a full disk, waits forever. 16 MB is one WAL segment.
 */
const MIN_FREE_BYTES = 16 * 1024 * 1024;

function freeBytes(dataDir: string): number | undefined {
  try {
    const stats = statfsSync(dataDir);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}

function fullDiskMessage(dataDir: string, free: number): string {
  return `the disk holding the embedded data directory ${dataDir} is full (${Math.round(free / 1024)} KiB free, at least ${MIN_FREE_BYTES / 1024 / 1024} MiB needed): free some space and start again`;
}

function assertSpace(dataDir: string): void {
  const free = freeBytes(dataDir);
  if (free !== undefined && free < MIN_FREE_BYTES) throw new Error(fullDiskMessage(dataDir, free));
}

/** The disk filling up between the check and the open: the cause, added to PGlite's vague message. */
function diskSpaceHint(dataDir: string): string {
  if (dataDir.startsWith('memory://')) return '';
  const free = freeBytes(dataDir);
  return free !== undefined && free < MIN_FREE_BYTES ? ` (${fullDiskMessage(dataDir, free)})` : '';
}

/**
 * PGlite waits forever on a data directory it cannot write (measured), so that is checked first: a probe
 * file in the directory, and write access to everything in it.
 */
function assertWritable(dataDir: string): void {
  const fail = (what: string, error: unknown) => {
    throw new Error(`the embedded data directory ${dataDir} is not writable (${what}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  };
  const probe = join(dataDir, `.write-check-${process.pid}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (error) {
    fail('cannot create a file', error);
  }
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      try {
        accessSync(path, constants.W_OK);
      } catch (error) {
        fail(path, error);
      }
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(dataDir);
}

export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<unparsable url>';
  }
}
