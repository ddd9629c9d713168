import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { runCommand } from './context.ts';
import { fetchBackup, targetService } from './service-client.ts';

const usage = `usage: npm run backup -- <file.tar.gz> [--url http://127.0.0.1:3000] [--force]
  Embedded mode: a consistent snapshot of the whole data directory (places, tools, workflow memory).
  While a service holds the directory, the snapshot is taken by that service (found through the
  directory's lock, or --url). --force overwrites an existing file.
  Server mode (DATABASE_URL): use pg_dump -Fc "$DATABASE_URL" -f FILE, and pg_restore to restore.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { url: { type: 'string' }, force: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
});
if (values.help || positionals.length !== 1) {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}
const file = positionals[0]!;
if (existsSync(file) && !values.force) {
  console.error(`error: ${file} exists: choose another name, or --force to overwrite it`);
  process.exit(2);
}

/** Written beside the target and renamed: a failed or interrupted backup never leaves a partial FILE. */
function save(bytes: Uint8Array): void {
  const partial = `${file}.partial-${process.pid}`;
  try {
    writeFileSync(partial, bytes);
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  console.log(`${file}: ${(bytes.length / 1024 / 1024).toFixed(1)} MB snapshot written`);
}

const serviceUrl = targetService(values.url);
if (serviceUrl) {
  try {
    save(await fetchBackup(serviceUrl));
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    process.exitCode = 1;
  }
} else {
  if (process.env.DATABASE_URL?.trim() || loadConfigSafely()?.DATABASE_URL) {
    console.error('server mode (DATABASE_URL): back up with pg_dump -Fc "$DATABASE_URL" -f FILE (restore with pg_restore)');
    process.exit(2);
  }
  await runCommand(
    async ({ database }) => {
      if (!database.dumpDataDir) throw new Error('this database cannot be snapshot');
      save(await database.dumpDataDir());
    },
    { migrate: false },
  );
}

function loadConfigSafely() {
  try {
    return loadConfig();
  } catch {
    return undefined;
  }
}
