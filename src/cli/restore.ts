import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { acquireDataDirLock, installedEngineVersions, versionMismatch } from '../db/data-dir.ts';
import { unknownMigrations } from '../db/migrate.ts';
import { describeSnapshot } from '../db/snapshot.ts';

const usage = `usage: npm run restore -- <file.tar.gz> [--force]
  Embedded mode: replaces PGLITE_DATA_DIR with a snapshot written by \`npm run backup\`. The snapshot is
  restored beside the directory and checked (PostGIS and pgvector present, migrations known to this
  version) before it takes the directory's place. A non-empty directory is replaced only with --force.
  The service must be stopped (one process per data directory).
  Server mode (DATABASE_URL): use pg_restore -d "$DATABASE_URL" FILE.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { force: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
});
if (values.help || positionals.length !== 1) {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}

async function restore(file: string): Promise<void> {
  const config = loadConfig();
  if (config.DATABASE_URL) throw new Error('server mode (DATABASE_URL): restore with pg_restore -d "$DATABASE_URL" FILE');
  const target = config.PGLITE_DATA_DIR;
  if (target.startsWith('memory://')) throw new Error('PGLITE_DATA_DIR is in memory: nothing to restore into');
  if (!existsSync(file)) throw new Error(`${file}: no such file`);
  const snapshot = new Uint8Array(readFileSync(file));
  const summary = describeSnapshot(snapshot);
  const mismatch = versionMismatch(summary.versions, installedEngineVersions());
  if (mismatch) throw new Error(`the snapshot ${mismatch}: restore it with the versions that wrote it`);
  if (existsSync(target) && readdirSync(target).length > 0 && !values.force) {
    throw new Error(`${target} is not empty: --force replaces it (back it up first with npm run backup)`);
  }
  // Held for the whole restore: no service or command opens the directory meanwhile.
  const lock = acquireDataDirLock(target);
  const staging = `${target}.restoring-${process.pid}`;
  const replaced = `${target}.replaced-${process.pid}`;
  try {
    rmSync(staging, { recursive: true, force: true });
    const counts = await restoreInto(staging, snapshot);
    if (existsSync(target)) renameSync(target, replaced);
    renameSync(staging, target);
    rmSync(replaced, { recursive: true, force: true });
    console.log(`${target}: restored from ${file} (${counts.places} places, ${counts.tools} tools, ${counts.runs} recorded runs)`);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // The swap failed halfway: put the directory that was there back.
    if (!existsSync(target) && existsSync(replaced)) renameSync(replaced, target);
    throw error;
  } finally {
    lock.release();
  }
}

async function restoreInto(dir: string, snapshot: Uint8Array) {
  const handle = await openDatabase({ pgliteDataDir: dir, restoreFrom: snapshot });
  try {
    const { rows } = await sql<{ extname: string }>`SELECT extname FROM pg_extension`.execute(handle.db);
    const extensions = new Set(rows.map((r) => r.extname));
    const missing = ['postgis', 'vector'].filter((e) => !extensions.has(e));
    if (missing.length > 0) throw new Error(`the snapshot's database lacks the extension(s) ${missing.join(', ')}: it is not a database of this service`);
    const newer = await unknownMigrations(handle.db).catch(() => {
      throw new Error("the snapshot's database has no migration table: it is not a database of this service");
    });
    if (newer.length > 0) throw new Error(`the snapshot was written by a newer version of this service (migrations ${newer.join(', ')}): upgrade first`);
    const count = async (table: string) =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(handle.db)).rows[0]!.n;
    return { places: await count('places'), tools: await count('tools'), runs: await count('runs') };
  } finally {
    await handle.close();
  }
}

try {
  await restore(positionals[0]!);
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `error: ${(error as Error).message}`}\n`);
  process.exitCode = 1;
}
