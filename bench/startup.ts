import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Time from process start to the first 200 on /readyz, for a new and for an existing embedded data directory:
 * without a seed (the database alone), and with the default seed (the first start of a fresh clone, which
 * loads seed/: the Midtown demo, the world cities and countries, the EO catalogs).
 */
async function timeToReady(dataDir: string, port: number, seed = 'none'): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: String(port), PGLITE_DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED: seed, DATABASE_URL: '', DATABASE_READ_URLS: '' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/readyz`);
        if (res.status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

export async function benchStartup(): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'srag-startup-'));
  try {
    const coldMs = await timeToReady(join(dir, 'db'), 3901);
    const warmMs = await timeToReady(join(dir, 'db'), 3902);
    const firstRunMs = await timeToReady(join(dir, 'seeded'), 3903, 'auto');
    const seededWarmMs = await timeToReady(join(dir, 'seeded'), 3904, 'auto');
    return {
      // The machine is shared: the load while measured says how far these are upper bounds.
      loadAverage: Math.round(loadavg()[0]! * 10) / 10,
      coldStartMs: Math.round(coldMs),
      warmStartMs: Math.round(warmMs),
      firstRunSeededMs: Math.round(firstRunMs),
      warmStartSeededMs: Math.round(seededWarmMs),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
