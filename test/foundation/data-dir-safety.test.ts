// One process per embedded data directory, through the real processes a user runs (`npm start`, the
// commands): a second opener is refused and the data stays intact; imports go through the running
// service; a stale lock is taken over; a killed import leaves nothing half done; backup and restore give
// back the same database.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { acquireDataDirLock, checkDataDir, DataDirLockedError, DataDirUnusableError, lockPathOf, STAMP_FILE } from '../../src/db/data-dir.ts';
import { hasNycData, MIDTOWN_PBF, NO_NYC_DATA } from '../helpers/data.ts';
import { createTestDatabaseLocation, isServer, type TestDatabaseLocation } from '../helpers/database.ts';

const QUESTION = 'pharmacies within 300 m of Bryant Park';
const baseEnv = (dir: string) => ({ PATH: process.env.PATH, LOG_LEVEL: 'silent', SEED: 'none', PGLITE_DATA_DIR: dir, RATE_LIMIT_PER_MINUTE: '0' });

/** `npm start` on the directory; resolves with its URL once it listens (the address it writes into the lock). */
async function startService(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env: { ...baseEnv(dir), PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}): ${stderr}`);
    try {
      const holder = JSON.parse(readFileSync(lockPathOf(dir), 'utf8')) as { pid: number; url: string | null };
      if (holder.pid === child.pid && holder.url) return { child, url: holder.url };
    } catch {
      // not written yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error('the service did not start within 180 s');
}

/** Runs `work` against a service started on the directory, and stops it (SIGTERM) whatever happens. */
async function withService<T>(dir: string, work: (url: string) => Promise<T>): Promise<T> {
  const service = await startService(dir);
  try {
    return await work(service.url);
  } finally {
    await stopped(service.child, 'SIGTERM');
  }
}

function stopped(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

/**
 * A command as a user runs it. Asynchronous: a blocked event loop would keep the test's HTTP client from
 * seeing the service close idle connections, and its next request would fail on a dead socket.
 */
function runCommand(script: string, args: string[], env: Record<string, string | undefined>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `src/cli/${script}.ts`, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

async function answerNames(url: string): Promise<string[]> {
  const res = await fetch(`${url}/v1/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question: QUESTION, planner: 'offline', k: 5 }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { candidates: { name: string }[] };
  return body.candidates.map((c) => c.name);
}

interface Counts {
  places: number;
  tools: number;
  sources: Record<string, number>;
}

async function countsOf(dir: string): Promise<Counts> {
  const handle = await openDatabase({ pgliteDataDir: dir });
  try {
    const n = async (table: string) => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(handle.db)).rows[0]!.n;
    const { rows } = await sql<{ source: string; n: number }>`SELECT source, count(*)::int AS n FROM places GROUP BY source ORDER BY source`.execute(handle.db);
    return { places: await n('places'), tools: await n('tools'), sources: Object.fromEntries(rows.map((r) => [r.source, r.n])) };
  } finally {
    await handle.close();
  }
}

/** Three places of our own, as a GeoJSON file. */
function smallFile(dir: string, source: string): string {
  const file = join(dir, `${source}.geojson`);
  const place = (id: string, name: string, lon: number, lat: number) => ({
    type: 'Feature',
    id,
    properties: { name, shop: 'bakery' },
    geometry: { type: 'Point', coordinates: [lon, lat] },
  });
  writeFileSync(
    file,
    JSON.stringify({
      type: 'FeatureCollection',
      features: [place('p1', 'Crumb Theory', -73.985, 40.752), place('p2', 'Loaf Line', -73.986, 40.753), place('p3', 'Rye Rising', -73.984, 40.751)],
    }),
  );
  return file;
}

describe.skipIf(isServer)('the lock of an embedded data directory (in process)', () => {
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'srag-lock-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('refuses a second opener in the same process and frees the directory on release', () => {
    const dir = join(scratch, 'same-process');
    const lock = acquireDataDirLock(dir);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    lock.release();
    expect(existsSync(lockPathOf(dir))).toBe(false);
    acquireDataDirLock(dir).release();
  });

  it("refuses while another live process holds it, naming the directory and the holder's PID", async () => {
    const dir = join(scratch, 'other-process');
    const holder = spawn('sleep', ['30']);
    try {
      await new Promise((r) => setTimeout(r, 100));
      const stat = readFileSync(`/proc/${holder.pid}/stat`, 'utf8');
      const processStart = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      writeFileSync(lockPathOf(dir), JSON.stringify({ pid: holder.pid, processStart, host: (await import('node:os')).hostname(), startedAt: 'now', command: 'sleep', url: null }));
      let error: unknown;
      try {
        acquireDataDirLock(dir);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DataDirLockedError);
      expect((error as Error).message).toContain(dir);
      expect((error as Error).message).toContain(`process ${holder.pid}`);
      expect((error as Error).message).toContain('--url');
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('takes over a lock whose process is gone, or whose PID now belongs to another process', () => {
    const dir = join(scratch, 'stale');
    const hostname = spawnSync('hostname', { encoding: 'utf8' }).stdout.trim();
    // A PID that exited: the lock is stale.
    const gone = spawnSync('true').pid!;
    writeFileSync(lockPathOf(dir), JSON.stringify({ pid: gone, processStart: '1', host: hostname, startedAt: 'then', command: 'x', url: null }));
    const first = acquireDataDirLock(dir);
    expect(JSON.parse(readFileSync(lockPathOf(dir), 'utf8')).pid).toBe(process.pid);
    first.release();
    // A live PID (this very process) with another start time: the PID was reused.
    writeFileSync(lockPathOf(dir), JSON.stringify({ pid: process.pid, processStart: '1', host: hostname, startedAt: 'then', command: 'x', url: null }));
    acquireDataDirLock(dir).release();
  });
});

describe.skipIf(isServer)('start-up checks of the data directory', () => {
  let location: TestDatabaseLocation;
  beforeAll(async () => {
    location = await createTestDatabaseLocation('empty');
  });
  afterAll(() => location.drop());

  const listing = (dir: string) => spawnSync('find', [dir, '-printf', '%P %s %T@\n'], { encoding: 'utf8' }).stdout.split('\n').sort().join('\n');

  it('refuses a directory written by other engine builds, and writes nothing to it', async () => {
    const dir = location.env.PGLITE_DATA_DIR!;
    const stampPath = join(dir, STAMP_FILE);
    const original = existsSync(stampPath) ? readFileSync(stampPath, 'utf8') : undefined;
    writeFileSync(stampPath, JSON.stringify({ pglite: '0.0.1', postgis: '0.0.1', pgvector: '0.0.1' }));
    try {
      const before = listing(dir);
      await expect(openDatabase({ pgliteDataDir: dir })).rejects.toThrow(/was written by pglite 0\.0\.1.*this install has pglite/);
      expect(listing(dir)).toBe(before);
      expect(existsSync(lockPathOf(dir))).toBe(false);
    } finally {
      if (original === undefined) rmSync(stampPath);
      else writeFileSync(stampPath, original);
    }
  });

  it('refuses a truncated directory with the missing part named, and writes nothing to it', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'srag-cut-')), 'db');
    spawnSync('cp', ['-r', location.env.PGLITE_DATA_DIR!, dir]);
    try {
      rmSync(join(dir, 'global', 'pg_control'));
      const before = listing(dir);
      await expect(openDatabase({ pgliteDataDir: dir })).rejects.toThrow(DataDirUnusableError);
      await expect(openDatabase({ pgliteDataDir: dir })).rejects.toThrow(/incomplete \(missing global\/pg_control\)/);
      expect(listing(dir)).toBe(before);
      expect(() => checkDataDir(join(dir, 'base'))).toThrow(/holds files but no database/);
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });
});

describe.skipIf(isServer || !hasNycData)('one process per data directory, end to end (embedded, Midtown data)', () => {
  let location: TestDatabaseLocation;
  let dir: string;
  let scratch: string;
  let before: Counts;
  let beforeAnswer: string[];

  beforeAll(async () => {
    location = await createTestDatabaseLocation('nyc');
    dir = location.env.PGLITE_DATA_DIR!;
    scratch = mkdtempSync(join(tmpdir(), 'srag-safety-'));
    before = await countsOf(dir);
  }, 300_000);
  afterAll(async () => {
    await location.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('(a) a second opener beside the running service is refused at once, and the data stays intact', async () => {
    const service = await startService(dir);
    beforeAnswer = await answerNames(service.url);
    expect(beforeAnswer.length).toBeGreaterThan(0);

    {
      // `migrate` opens the database itself (the other commands go through the service).
      const run = await runCommand('migrate', [], baseEnv(dir));
      expect(run.status).toBe(1);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(dir);
      expect(lines[0]).toContain(`process ${service.child.pid}`);
      expect(lines[0]).toContain(`--url ${service.url}`);
    }
    const second = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env: { ...baseEnv(dir), PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      child.on('close', (status) => resolve({ status, stderr }));
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(`in use by process ${service.child.pid}`);

    expect(await stopped(service.child, 'SIGTERM')).toBe(0);
    expect(existsSync(lockPathOf(dir))).toBe(false);
    expect(await countsOf(dir)).toEqual(before);
    expect(await withService(dir, answerNames)).toEqual(beforeAnswer);
  }, 600_000);

  it('(b) `ingest` beside the running service goes through it, and the new places are visible at once', async () => {
    const service = await startService(dir);
    try {
      // Found through the lock, then explicitly with --url.
      const found = await runCommand('ingest', [smallFile(scratch, 'bakeries-found'), '--source', 'bakeries-found'], baseEnv(dir));
      expect(found.stderr).toContain(`the service at ${service.url}`);
      expect(found.status).toBe(0);
      expect(found.stdout).toContain('3 places written');
      const explicit = await runCommand('ingest', [smallFile(scratch, 'bakeries-url'), '--source', 'bakeries-url', '--url', service.url], baseEnv(join(scratch, 'elsewhere')));
      expect(explicit.status).toBe(0);
      for (const source of ['bakeries-found', 'bakeries-url']) {
        const items = (await (await fetch(`${service.url}/collections/${source}/items`)).json()) as { features: { properties: { name: string } }[] };
        expect(items.features.map((f) => f.properties.name).sort()).toEqual(['Crumb Theory', 'Loaf Line', 'Rye Rising']);
      }
      // Tool records the same way (POST /v1/tools:import).
      const tools = join(scratch, 'tools.json');
      writeFileSync(tools, JSON.stringify({ catalog: 'lab', tools: [{ id: 'crater_counter', name: 'Crater counter', description: 'Counts impact craters on a digital elevation model.' }] }));
      const toolImport = await runCommand('tools-import', [tools], baseEnv(dir));
      expect(toolImport.status, toolImport.stderr).toBe(0);
      expect(toolImport.stdout).toContain('1 written');
      expect((await fetch(`${service.url}/v1/tools/crater_counter`)).status).toBe(200);
      // A bad record imports nothing, and says which line.
      const bad = join(scratch, 'bad.geojson');
      writeFileSync(bad, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: 'x' }, geometry: { type: 'Point', coordinates: [500, 0] } }] }));
      const refused = await runCommand('ingest', [bad, '--source', 'bad'], baseEnv(dir));
      expect(refused.status).toBe(1);
      expect((await fetch(`${service.url}/collections/bad/items`)).status).toBe(404);
    } finally {
      expect(await stopped(service.child, 'SIGTERM')).toBe(0);
    }
    const after = await countsOf(dir);
    expect(after.places).toBe(before.places + 6);
    expect(after.tools).toBe(before.tools + 1);
  }, 600_000);

  it('(c) a lock left by a kill -9 is taken over on the next start', async () => {
    const service = await startService(dir);
    await stopped(service.child, 'SIGKILL');
    expect(JSON.parse(readFileSync(lockPathOf(dir), 'utf8')).pid).toBe(service.child.pid);
    await withService(dir, async (url) => {
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      expect(await answerNames(url)).toEqual(beforeAnswer);
    });
  }, 600_000);

  it('(d) kill -9 during an import leaves the previous data readable and none of the partial import', async () => {
    const previous = await countsOf(dir);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/ingest.ts', MIDTOWN_PBF, '--source', 'half-done'], {
      env: baseEnv(dir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    // Killed once it reports features read: inside its transaction.
    const deadline = Date.now() + 180_000;
    while (!/features/.test(stderr) && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(child.exitCode).toBeNull();
    await stopped(child, 'SIGKILL');
    const after = await countsOf(dir);
    expect(after).toEqual(previous);
    expect(after.sources['half-done']).toBeUndefined();
  }, 600_000);

  it('(e) backup, wipe, restore: the same counts and the same answer', async () => {
    const snapshot = join(scratch, 'backup.tar.gz');
    const counts = await countsOf(dir);
    const backup = await runCommand('backup', [snapshot], baseEnv(dir));
    expect(backup.status, backup.stderr).toBe(0);
    // A snapshot through the running service too (it holds the directory).
    const service = await startService(dir);
    try {
      const viaService = await runCommand('backup', [join(scratch, 'via-service.tar.gz')], baseEnv(dir));
      expect(viaService.status, viaService.stderr).toBe(0);
      expect(viaService.stderr).toContain(`the service at ${service.url}`);
      // The service holds the directory: a restore is refused.
      const refused = await runCommand('restore', [snapshot, '--force'], baseEnv(dir));
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`in use by process ${service.child.pid}`);
    } finally {
      await stopped(service.child, 'SIGTERM');
    }

    rmSync(dir, { recursive: true, force: true });
    const restored = await runCommand('restore', [snapshot], baseEnv(dir));
    expect(restored.status, restored.stderr).toBe(0);
    expect(await countsOf(dir)).toEqual(counts);
    // Into a non-empty directory only with --force.
    const again = await runCommand('restore', [join(scratch, 'via-service.tar.gz')], baseEnv(dir));
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('--force');
    const forced = await runCommand('restore', [join(scratch, 'via-service.tar.gz'), '--force'], baseEnv(dir));
    expect(forced.status, forced.stderr).toBe(0);
    expect(await countsOf(dir)).toEqual(counts);

    expect(await withService(dir, answerNames)).toEqual(beforeAnswer);
    // Not a snapshot: refused before anything is touched.
    const junk = join(scratch, 'junk.tar.gz');
    writeFileSync(junk, 'not a snapshot');
    const refusedJunk = await runCommand('restore', [junk, '--force'], baseEnv(dir));
    expect(refusedJunk.status).toBe(1);
    expect(refusedJunk.stderr).toContain('not gzip-compressed');
    expect(await countsOf(dir)).toEqual(counts);
  }, 900_000);
});

if (isServer) console.warn('[data-dir-safety] skipped: embedded mode only (server mode has no data directory of its own)');
else if (!hasNycData) console.warn(NO_NYC_DATA);
