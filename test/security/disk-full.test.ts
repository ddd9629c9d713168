// Embedded mode: the disk under the data directory fills up. A real filesystem is filled (a small tmpfs mounted
// for this test, so the machine's own disk is never touched): imports then fail with a clear 503 problem+json
// and write nothing, reads keep working, a start on the full disk fails with one line saying so, and once
// space is freed the database opens with the earlier data intact. Needs root to mount; skips otherwise.
import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { startService, type Service } from '../../src/service.ts';
import { isServer } from '../helpers/database.ts';
import { dataFingerprint, expectCleanProblem, postJson, type DataFingerprint } from './helpers.ts';

/** Room for the empty fixture (~63 MB) and a small import; the rest is filled on purpose. */
const TMPFS_SIZE = '112m';

function tryMount(dir: string): boolean {
  if (process.getuid?.() !== 0) return false;
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE}`, 'tmpfs', dir]).status === 0;
}

/** Writes a file until the filesystem refuses with ENOSPC, in large then small blocks, so nothing is left. */
function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  try {
    for (const size of [1 << 20, 4096, 512]) {
      const block = Buffer.alloc(size, 1);
      try {
        for (;;) writeSync(fd, block);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}

const places = (source: string, n: number) => ({
  type: 'FeatureCollection',
  features: Array.from({ length: n }, (_, i) => ({
    type: 'Feature',
    id: `${source}-${i}`,
    geometry: { type: 'Point', coordinates: [-73.98 + i * 1e-5, 40.75] },
    properties: { name: `${source} café number ${i} on the long avenue`, amenity: 'cafe', cuisine: 'coffee_shop' },
  })),
});

const mountPoint = mkdtempSync(join(tmpdir(), 'srag-diskfull-'));
const mounted = !isServer && tryMount(mountPoint);

describe.skipIf(!mounted)('a full disk under the data directory (embedded mode)', () => {
  const dataDir = join(mountPoint, 'pglite');
  const filler = join(mountPoint, 'filler');
  let service: Service | undefined;
  let url: string;
  let before: DataFingerprint;

  beforeAll(async () => {
    cpSync(inject('pgliteTemplates').empty!, dataDir, { recursive: true });
    service = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', SEED: 'none', PGLITE_DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0' }));
    url = `http://127.0.0.1:${service.port}`;
  }, 120_000);

  afterAll(async () => {
    await service?.shutdown().catch(() => undefined);
    spawnSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  it('an import on a full disk is a clear 503 that writes nothing; reads keep working', async () => {
    const early = await postJson(`${url}/v1/places:import?source=early`, places('early', 50));
    expect(early.status).toBe(200);
    before = await dataFingerprint(service!.database.db);

    fillDisk(filler);
    const late = await postJson(`${url}/v1/places:import?source=late`, places('late', 3000));
    const text = await late.text();
    expect(late.status).toBe(503);
    expectCleanProblem(503, late.headers.get('content-type'), text);
    expect(JSON.parse(text).detail).toMatch(/no disk space left: nothing was written/);
    expect(late.headers.get('retry-after')).toBeTruthy();
    expect(text).not.toContain(mountPoint); // no file paths to clients

    const items = await fetch(`${url}/collections/early/items?limit=100`);
    expect(items.status).toBe(200);
    expect(((await items.json()) as { numberReturned: number }).numberReturned).toBe(50);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect(await dataFingerprint(service!.database.db)).toEqual(before);
    await service!.shutdown();
    service = undefined;
  }, 120_000);

  it('a start on the full disk fails with one line naming it, and after freeing space the data is intact', async () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', PORT: '0', SEED: 'none', PGLITE_DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(run.error).toBeUndefined(); // not killed by the timeout: it did not hang
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/disk holding the embedded data directory .* is full/);
    expect(run.stderr).toContain(dataDir);

    rmSync(filler);
    const handle = await openDatabase({ pgliteDataDir: dataDir });
    try {
      expect(await dataFingerprint(handle.db)).toEqual(before);
    } finally {
      await handle.close();
    }
    // And it takes writes again.
    service = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', SEED: 'none', PGLITE_DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0' }));
    const again = await postJson(`http://127.0.0.1:${service.port}/v1/places:import?source=late`, places('late', 20));
    expect(again.status).toBe(200);
  }, 180_000);
});

if (!mounted) {
  rmSync(mountPoint, { recursive: true, force: true });
  if (!isServer) console.warn('[disk-full] skipped: mounting a tmpfs needs root (mount -t tmpfs)');
}
