import { spawnSync } from 'node:child_process';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { exitOnSignals } from '../../src/service.ts';
import { testMode } from '../helpers/database.ts';
import { startTestService } from '../helpers/service.ts';

function runMain(env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('start-up errors', () => {
  it('exits non-zero with one clear line for PORT=abc', () => {
    const run = runMain({ PORT: 'abc' });
    expect(run.status).not.toBe(0);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('PORT');
  });

  it('exits non-zero with one clear line for an unreachable DATABASE_URL', () => {
    const run = runMain({ DATABASE_URL: 'postgres://nobody:secret@127.0.0.1:1/none' });
    expect(run.status).not.toBe(0);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('DATABASE_URL');
    expect(run.stderr).not.toContain('secret');
  });

  it('exits non-zero with one clear line for DATABASE_READ_URLS in embedded mode, or a bad entry in it', () => {
    const embedded = runMain({ DATABASE_READ_URLS: 'postgres://reader:secret@127.0.0.1:5433/db' });
    expect(embedded.status).toBe(1);
    expect(embedded.stderr.trim().split('\n')).toHaveLength(1);
    expect(embedded.stderr).toMatch(/DATABASE_READ_URLS needs DATABASE_URL/);
    // Checked before any connection is made: the primary here does not even exist.
    const bad = runMain({
      DATABASE_URL: 'postgres://nobody:secret@127.0.0.1:1/none',
      DATABASE_READ_URLS: 'postgres://reader:secret@127.0.0.1:5433/db,mysql://reader:secret@127.0.0.1/db',
    });
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('DATABASE_READ_URLS');
    expect(bad.stderr).toContain('entry 2 is not a postgres:// URL');
    expect(bad.stderr).not.toContain('secret');
  });
});

describe(`lifecycle (${testMode} mode)`, () => {
  it('keeps answering /livez within 200 ms while a 3-second query runs', async () => {
    const service = await startTestService({}, {
      configureApp: (app) =>
        app.get('/test/slow-query', async (c) => {
          await sql`SELECT pg_sleep(3)`.execute(service.database.db);
          return c.json({ done: true });
        }),
    });
    try {
      const slow = fetch(`${service.url}/test/slow-query`);
      await new Promise((r) => setTimeout(r, 300));
      // Several probes while the query runs: a frozen event loop would make every one wait ~2.7 s;
      // the median keeps one probe slowed by a busy CI machine from deciding the result.
      const probes: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const live = await fetch(`${service.url}/livez`);
        probes.push(performance.now() - started);
        expect(live.status).toBe(200);
      }
      const median = probes.sort((a, b) => a - b)[2]!;
      expect(median).toBeLessThan(200);
      expect(probes.reduce((a, b) => a + b, 0)).toBeLessThan(2_500); // all five fit inside the 3 s query
      expect((await slow).status).toBe(200);
    } finally {
      await service.stop();
    }
  });

  it('on SIGTERM finishes the in-flight request, stops accepting, then exits 0', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const service = await startTestService({}, {
      configureApp: (app) =>
        app.get('/test/in-flight', async (c) => {
          await gate;
          return c.json({ finished: true });
        }),
    });
    const exitCodes: number[] = [];
    const exited = new Promise<void>((resolve) =>
      exitOnSignals(service, (code) => {
        exitCodes.push(code);
        resolve();
      }),
    );
    const inFlight = fetch(`${service.url}/test/in-flight`);
    await new Promise((r) => setTimeout(r, 200));
    process.emit('SIGTERM', 'SIGTERM');
    await new Promise((r) => setTimeout(r, 800)); // past the default 500 ms grace
    expect(service.lifecycle.draining).toBe(true);
    expect(exitCodes).toEqual([]); // still waiting for the request
    await expect(fetch(`${service.url}/livez`)).rejects.toThrow(); // no new connections
    release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ finished: true });
    await exited;
    expect(exitCodes).toEqual([0]);
    await service.location.drop();
  });
});
