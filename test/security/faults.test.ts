// Faults, each bounded in time: the embeddings service down or hanging, SIGTERM under load, the database going
// away under load (server mode, through a TCP proxy this test controls), a read-only data directory (embedded).
// The LLM endpoint hanging, returning garbage or 500 is covered by test/ask/llm-planner.test.ts.
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, statSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { exitOnSignals, startService, type Service } from '../../src/service.ts';
import { hasNycData } from '../helpers/data.ts';
import { createTestDatabaseLocation, isServer, testMode, type TestDatabaseLocation } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { postJson } from './helpers.ts';

const QUESTION = 'Which cafés are within 200 m of Grand Central Terminal?';
const ask = (url: string, question = QUESTION) => postJson(`${url}/v1/ask`, { question, planner: 'offline', k: 3 });

/** A TCP server that accepts connections and never answers (a hanging dependency). */
async function startHangingServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(!hasNycData)(`the embeddings service down or hanging (${testMode} mode)`, () => {
  let service: TestService;
  let hanging: Awaited<ReturnType<typeof startHangingServer>>;
  beforeAll(async () => {
    hanging = await startHangingServer();
    service = await startTestService(
      { EMBEDDINGS_BASE_URL: `http://127.0.0.1:${hanging.port}/v1`, EMBEDDINGS_MODEL: 'remote-model', EMBEDDINGS_TIMEOUT_MS: '1500' },
      { fixture: 'nyc' },
    );
  }, 300_000);
  afterAll(async () => {
    await service?.stop();
    await hanging?.close();
  });

  it('hanging: the question gets a 503 naming the embeddings service within the timeout, the rest keeps working', async () => {
    const started = performance.now();
    const res = await ask(service.url);
    const body = (await res.json()) as { status: number; detail: string };
    expect(res.status).toBe(503);
    expect(body.detail).toMatch(/embeddings service is unavailable/);
    expect(body.detail).not.toContain(String(hanging.port)); // no internal addresses to clients
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(performance.now() - started).toBeLessThan(8_000);
    expect((await fetch(`${service.url}/collections/places/items?limit=1`)).status).toBe(200);
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
  });

  it('down (connection refused): a 503 at once', async () => {
    await hanging.close();
    const started = performance.now();
    const res = await ask(service.url);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/embeddings/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe.skipIf(!hasNycData)(`SIGTERM under load (${testMode} mode)`, () => {
  it('every in-flight question is answered, then the process exits 0', async () => {
    const service = await startTestService({ SHUTDOWN_TIMEOUT_MS: '120000', RATE_LIMIT_PER_MINUTE: '0' }, { fixture: 'nyc' });
    const exitCodes: number[] = [];
    const exited = new Promise<void>((resolve) =>
      exitOnSignals(service, (code) => {
        exitCodes.push(code);
        resolve();
      }),
    );
    const questions = [
      QUESTION,
      'Which pharmacies are along Lexington Avenue?',
      'What is the nearest pharmacy to the Flatiron Building?',
      'Which coffee shops are on the way from Bryant Park to Grand Central Terminal?',
      'What Korean restaurants are there in Koreatown?',
      'Somewhere to get a steak dinner near Grand Central Terminal?',
    ];
    const inFlight = questions.map((q) => ask(service.url, q).then(async (res) => ({ status: res.status, body: (await res.json()) as { answer?: string } })));
    // Long enough for all six connections to be accepted on a loaded machine (PGlite answers them one at a
    // time, so most are still in flight), short enough that they are not all answered yet.
    await new Promise((r) => setTimeout(r, 500));
    process.emit('SIGTERM', 'SIGTERM');
    const results = await Promise.all(inFlight);
    expect(results.map((r) => r.status)).toEqual(questions.map(() => 200));
    for (const r of results) expect(typeof r.body.answer).toBe('string');
    await exited;
    expect(exitCodes).toEqual([0]);
    await expect(fetch(`${service.url}/livez`)).rejects.toThrow(); // closed: refused, not half-answered
    await service.location.drop();
  }, 180_000);
});

/** A TCP proxy in front of PostgreSQL that the test can cut (refusing new connections, killing open ones) and restore. */
class PgProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}

  async up(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe.skipIf(!isServer || !hasNycData)('the database going away under load (server mode)', () => {
  let location: TestDatabaseLocation;
  let proxy: PgProxy;
  let service: Service;
  let url: string;

  beforeAll(async () => {
    location = await createTestDatabaseLocation('nyc');
    const real = new URL(location.env.DATABASE_URL!);
    proxy = new PgProxy({ host: real.hostname, port: Number(real.port || 5432) });
    await proxy.up();
    const proxied = new URL(real);
    proxied.port = String(proxy.port);
    service = await startService(
      loadConfig({ PORT: '0', LOG_LEVEL: 'silent', SEED: 'none', DATABASE_URL: proxied.toString(), DATABASE_POOL_SIZE: '4', RATE_LIMIT_PER_MINUTE: '0' }),
    );
    url = `http://127.0.0.1:${service.port}`;
  }, 300_000);

  afterAll(async () => {
    await service?.shutdown();
    await proxy?.down();
    await location?.drop();
  });

  it('fails fast with 503 while the database is away, recovers by itself, never a 500 or a crash', async () => {
    type Sample = { phase: string; status: number; ms: number };
    const samples: Sample[] = [];
    let phase = 'up';
    let stop = false;
    const worker = async () => {
      while (!stop) {
        const started = performance.now();
        const at = phase;
        let status: number;
        try {
          const res = await ask(url);
          status = res.status;
          await res.arrayBuffer();
        } catch {
          status = -1; // the service itself did not answer
        }
        samples.push({ phase: at, status, ms: performance.now() - started });
      }
    };
    const workers = [worker(), worker(), worker()];
    const waitFor = async (condition: () => boolean, ms: number) => {
      const deadline = Date.now() + ms;
      while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    };

    await waitFor(() => samples.filter((s) => s.phase === 'up' && s.status === 200).length >= 3, 30_000);
    phase = 'down';
    await proxy.down();
    await new Promise((r) => setTimeout(r, 3_000));
    const readyWhileDown = (await fetch(`${url}/readyz`)).status;
    const liveWhileDown = (await fetch(`${url}/livez`)).status;
    phase = 'restored';
    await proxy.up();
    await waitFor(() => samples.filter((s) => s.phase === 'restored' && s.status === 200).length >= 3, 30_000);
    stop = true;
    await Promise.all(workers);

    const down = samples.filter((s) => s.phase === 'down');
    const restored = samples.filter((s) => s.phase === 'restored');
    expect(samples.map((s) => s.status).filter((s) => s !== 200 && s !== 503)).toEqual([]); // no 500, no dropped connection
    expect(down.filter((s) => s.status === 503).length).toBeGreaterThan(0);
    // Fail fast: a request started while the database is away is answered well within the 5 s connect timeout.
    expect(Math.max(...down.filter((s) => s.status === 503).map((s) => s.ms))).toBeLessThan(5_500);
    expect(readyWhileDown).toBe(503);
    expect(liveWhileDown).toBe(200);
    expect(restored.filter((s) => s.status === 200).length).toBeGreaterThanOrEqual(3);
    // Recovered: the last answers are all good.
    expect(restored.slice(-3).map((s) => s.status)).toEqual([200, 200, 200]);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
  }, 120_000);
});

/** Read-only: directories r-x, files r-- for everyone; writable again: rwxr-xr-x / rw-r--r--. */
function chmodTree(path: string, writable: boolean): void {
  const isDir = statSync(path).isDirectory();
  chmodSync(path, isDir ? (writable ? 0o755 : 0o555) : writable ? 0o644 : 0o444);
  if (isDir) for (const entry of readdirSync(path)) chmodTree(join(path, entry), writable);
}

describe.skipIf(isServer)('a read-only data directory (embedded mode)', () => {
  it('refuses to start with one clear line, and the database opens fine once writable again', async () => {
    const location = await createTestDatabaseLocation('empty');
    const dir = location.env.PGLITE_DATA_DIR!;
    try {
      chmodTree(dir, false);
      // root writes anyway: the service then runs as an unprivileged user
      const asRoot = process.getuid?.() === 0;
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', PORT: '0', SEED: 'none', PGLITE_DATA_DIR: dir },
        encoding: 'utf8',
        timeout: 60_000,
        ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      });
      expect(run.error).toBeUndefined(); // not killed by the timeout: it did not hang
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain('not writable');
      expect(run.stderr).toContain(dir);
    } finally {
      chmodTree(dir, true);
    }
    const handle = await openDatabase({ pgliteDataDir: dir });
    try {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM kysely_migration`.execute(handle.db);
      expect(rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await handle.close();
      await location.drop();
    }
  }, 120_000);
});
