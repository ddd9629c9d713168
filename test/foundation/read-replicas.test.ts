// Read replicas (DATABASE_READ_URLS): read routes on streaming replicas, writes on the primary, fallback to the
// primary when replicas fail, read-your-writes within an instance. Server mode, against the local replica that
// scripts/setup-replica.sh creates (15/replica on 127.0.0.1:5433); CI runs it after that script.
//
// Where a statement ran is observed on the servers themselves (pg_stat_activity of each cluster: the database,
// the pool's application_name, when its last statement started), never taken from the service's own routing.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openReplicaReads, parseLsn, ReplicaSet } from '../../src/db/replicas.ts';
import { isServer } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

const READ_URL = process.env.DATABASE_READ_URLS?.split(',')[0]?.trim() ?? '';
const PG_MAJOR = process.env.PG_MAJOR ?? '15';
const REPLICA_CLUSTER = process.env.SRAG_REPLICA_CLUSTER ?? 'replica';
const isRoot = process.getuid?.() === 0;

const skipReason = !isServer
  ? 'server mode only (DATABASE_URL is unset)'
  : !READ_URL
    ? 'DATABASE_READ_URLS is unset: run `bash scripts/setup-replica.sh` and export the DATABASE_READ_URLS it prints'
    : undefined;
if (skipReason) console.warn(`[read-replicas] skipped: ${skipReason}`);
// Pausing replay and stopping the replica need the cluster's owner (pg_ctlcluster, runuser): root, as in CI.
const NOT_ROOT = 'needs root to pause or stop the replica cluster (pg_ctlcluster, runuser -u postgres)';

describe('replica set: round robin, circuit breaker, WAL positions (no database)', () => {
  it('orders WAL positions like PostgreSQL', () => {
    expect(parseLsn('0/16B3748') < parseLsn('0/16B3749')).toBe(true);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
    expect(() => parseLsn('nonsense')).toThrow();
  });

  it('alternates between replicas, skips a failed one for retryMs, then tries it again', () => {
    let now = 0;
    const set = new ReplicaSet(['postgres://a/db', 'postgres://b/db'], { retryMs: 1000, now: () => now });
    const [a, b] = set.replicas as [NonNullable<(typeof set.replicas)[0]>, NonNullable<(typeof set.replicas)[0]>];
    expect(set.candidates()[0]).toBe(a);
    expect(set.candidates()[0]).toBe(b);
    set.markDown(a, new Error('connection refused'), 'read');
    expect(set.candidates()).toEqual([b]);
    expect(set.candidates()).toEqual([b]);
    now = 999;
    expect(set.candidates()).toEqual([b]);
    now = 1000; // the circuit is half open: one attempt is allowed, and only one at a time
    expect(set.candidates()).toContain(a);
    expect(set.claim(a)).toBe(true);
    expect(set.claim(a)).toBe(false);
    expect(set.claim(b)).toBe(true);
    set.markDown(a, new Error('still refused'), 'read'); // the trial failed: skipped for another retryMs
    now = 1999;
    expect(set.candidates()).toEqual([b]);
    now = 2000;
    expect(set.claim(a)).toBe(true);
    set.markUp(a, 'read');
    expect(set.status()).toEqual([{ name: 'replica-1', state: 'up' }, { name: 'replica-2', state: 'unknown' }]);
  });
});

interface Activity {
  app: string;
  query: string;
}

/** A pg client that survives its server being stopped (the test stops the replica). */
async function observer(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'read-replicas-test' });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}${lastError ? ` (last error: ${(lastError as Error).message})` : ''}`);
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function asPostgres(sqlText: string, port: number): string {
  return execFileSync('runuser', ['-u', 'postgres', '--', 'psql', '-p', String(port), '-qAtc', sqlText], { encoding: 'utf8' }).trim();
}

function pgCtlCluster(action: 'start' | 'stop'): void {
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', PG_MAJOR, REPLICA_CLUSTER, action], { stdio: 'pipe' });
}

describe.skipIf(Boolean(skipReason))('read replicas over HTTP (server mode, DATABASE_READ_URLS)', () => {
  let service: TestService;
  let database = '';
  let primary: pg.Client; // the primary cluster (any database: pg_stat_activity covers all)
  let replica: pg.Client; // the replica cluster
  const replicaPort = Number(new URL(READ_URL || 'postgres://x:5433/x').port || 5432);
  const source = 'replica-test';
  const suffix = Math.random().toString(36).slice(2, 8);
  const plaza = `Replica Test Plaza ${suffix}`;

  const get = (path: string) => fetch(`${service.url}${path}`);
  const post = (path: string, body: unknown) =>
    fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const importPlaces = (features: unknown[]) => post(`/v1/places:import?source=${source}`, { type: 'FeatureCollection', features });
  const point = (id: string, name: string, lon: number, lat: number, extra: Record<string, string> = {}) => ({
    type: 'Feature',
    id,
    properties: { name, ...extra },
    geometry: { type: 'Point', coordinates: [lon, lat] },
  });

  /** The server's own clock, so "since" compares timestamps of one machine's one server. */
  const clock = async (client: pg.Client) => (await client.query<{ t: string }>('SELECT clock_timestamp()::text AS t')).rows[0]!.t;
  /** Statements the service's pools started on this server, in the test database, after `since`. */
  const activity = async (client: pg.Client, since: string): Promise<Activity[]> =>
    (
      await client.query<Activity>(
        `SELECT application_name AS app, query FROM pg_stat_activity
         WHERE datname = $1 AND application_name LIKE 'spatial-rag%' AND query_start > $2::timestamptz`,
        [database, since],
      )
    ).rows;
  const apps = (rows: Activity[]) => [...new Set(rows.map((r) => r.app))].sort();
  const countOn = async (url: string, name: string) => {
    const client = await observer(withDatabase(url, database));
    try {
      return (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM places WHERE name = $1', [name])).rows[0]!.n;
    } finally {
      await client.end();
    }
  };
  /** One round of the read routes, each checked for a right answer. */
  const readRound = async (expectedName: string) => {
    const items = await get(`/collections/${source}/items?q=${encodeURIComponent(expectedName)}&limit=10`);
    expect(items.status).toBe(200);
    const fc = (await items.json()) as { features: { id: number; properties: { name: string } }[] };
    expect(fc.features.map((f) => f.properties.name)).toContain(expectedName);
    const one = await get(`/v1/places/${fc.features[0]!.id}`);
    expect(one.status).toBe(200);
    const ask = await post('/v1/ask', { question: `cafes within 300 m of ${plaza}`, planner: 'offline' });
    expect(ask.status).toBe(200);
    const answer = (await ask.json()) as { candidates: { name: string }[] };
    expect(answer.candidates.map((c) => c.name)).toContain(`Replica Cafe ${suffix}`);
    expect((await post('/v1/tools/search', { query: 'detect new buildings from Sentinel-2' })).status).toBe(200);
    expect((await get('/collections')).status).toBe(200);
  };
  const readiness = async () => (await (await get('/readyz')).json()) as { status: string; replicas: { name: string; state: string }[] };

  beforeAll(async () => {
    primary = await observer(process.env.DATABASE_URL!);
    replica = await observer(READ_URL);
    // A second "replica" that refuses connections: reads must never fail because of it.
    const deadReplica = `postgres://spatial_rag:spatial_rag@127.0.0.1:${await freePort()}/none`;
    service = await startTestService(async (location) => {
      database = new URL(location.env.DATABASE_URL!).pathname.slice(1);
      // The new database reaches the replica through replication: wait for it, so the start-up is deterministic.
      await eventually('the test database on the replica', async () => {
        const c = await observer(withDatabase(READ_URL, database));
        await c.end();
        return true;
      });
      return {
        DATABASE_READ_URLS: `${withDatabase(READ_URL, database)},${deadReplica}`,
        DATABASE_READ_RETRY_MS: '300',
        RATE_LIMIT_PER_MINUTE: '0',
      };
    });
    const imported = await importPlaces([
      point('plaza', plaza, -73.98, 40.75, { place: 'square' }),
      point('cafe', `Replica Cafe ${suffix}`, -73.9805, 40.7505, { amenity: 'cafe' }),
    ]);
    expect(imported.status).toBe(200);
    // Replicated (asynchronously) before the read checks start. Not only our rows: the service waits for the
    // WAL position it noted after the import, which includes whatever other test files wrote meanwhile.
    const written = (await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn;
    await eventually('the replica replaying the import', async () => {
      const { rows } = await replica.query<{ ok: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [written]);
      return rows[0]!.ok ? true : undefined;
    });
    expect(await countOn(READ_URL, plaza)).toBe(1);
  });

  afterAll(async () => {
    await service?.stop();
    await primary?.end().catch(() => undefined);
    await replica?.end().catch(() => undefined);
  });

  it('serves the read routes from the replica, and none of their statements reach the primary', async () => {
    expect((await replica.query('SELECT pg_is_in_recovery() AS r, inet_server_port() AS port')).rows[0]).toEqual({ r: true, port: replicaPort });
    const sinceReplica = await clock(replica);
    const sincePrimary = await clock(primary);
    await readRound(plaza);
    // Question answering ran on the replica's read-only role connections, the other reads on its read pool.
    expect(apps(await activity(replica, sinceReplica))).toEqual(['spatial-rag ask', 'spatial-rag read']);
    expect(await activity(primary, sincePrimary)).toEqual([]);
    const ready = await readiness();
    expect(ready.status).toBe('ready');
    expect(ready.replicas).toEqual([
      { name: 'replica-1', state: 'up' },
      { name: 'replica-2', state: 'down' },
    ]);
  });

  it('answers MCP tool calls on the replica too: an MCP request is not taken for a write', async () => {
    const client = new McpClient({ name: 'replica-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', service.url)));
    try {
      const sinceReplica = await clock(replica);
      const sincePrimary = await clock(primary);
      const result = await client.callTool({ name: 'ask', arguments: { question: `cafes within 300 m of ${plaza}`, planner: 'offline' } });
      expect(result.isError ?? false).toBe(false);
      expect(apps(await activity(replica, sinceReplica))).toContain('spatial-rag ask');
      expect(await activity(primary, sincePrimary)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('writes on the primary, and reads its own writes at once even while the replica lags', async ({ skip }) => {
    if (!isRoot) skip(NOT_ROOT);
    const cafe = `Lagging Cafe ${suffix}`;
    asPostgres('SELECT pg_wal_replay_pause()', replicaPort);
    try {
      const sincePrimary = await clock(primary);
      const imported = await importPlaces([point('lagging', cafe, -73.9801, 40.7502, { amenity: 'cafe' })]);
      expect(imported.status).toBe(200);
      expect(apps(await activity(primary, sincePrimary))).toEqual(['spatial-rag']); // the write: main pool, primary
      expect(await countOn(process.env.DATABASE_URL!, cafe)).toBe(1);
      // The replica has not replayed it: a read served there would miss the new place.
      expect(await countOn(READ_URL, cafe)).toBe(0);

      const sinceReads = await clock(primary);
      const sinceReplica = await clock(replica);
      const items = await get(`/collections/${source}/items?q=${encodeURIComponent(cafe)}`);
      expect(items.status).toBe(200);
      expect(((await items.json()) as { features: { properties: { name: string } }[] }).features.map((f) => f.properties.name)).toEqual([cafe]);
      const ask = await post('/v1/ask', { question: `cafes within 300 m of ${plaza}`, planner: 'offline' });
      expect(((await ask.json()) as { candidates: { name: string }[] }).candidates.map((c) => c.name)).toContain(cafe);
      // Served by the primary (main pool for the items, the read-only role pool for /v1/ask) ...
      expect(apps(await activity(primary, sinceReads))).toEqual(['spatial-rag', 'spatial-rag ask']);
      // ... where the replica only answered where its replay stands.
      const onReplica = await activity(replica, sinceReplica);
      expect(onReplica.every((a) => /pg_last_wal_replay_lsn/.test(a.query))).toBe(true);
      expect((await readiness()).replicas[0]).toEqual({ name: 'replica-1', state: 'behind' });
    } finally {
      asPostgres('SELECT pg_wal_replay_resume()', replicaPort);
    }
    // Once it has replayed the write, the replica serves again (and has the new place).
    await eventually('reads back on the replica after replay resumed', async () => {
      const since = await clock(replica);
      const items = await get(`/collections/${source}/items?q=${encodeURIComponent(cafe)}`);
      expect(((await items.json()) as { features: unknown[] }).features).toHaveLength(1);
      return apps(await activity(replica, since)).includes('spatial-rag read') ? true : undefined;
    });
  });

  it('moves a statement whose replica connection breaks mid-way to the primary, except inside a transaction', async () => {
    const primaryPort = Number(new URL(process.env.DATABASE_URL!).port || 5432);
    const primaryPool = new pg.Pool({ connectionString: service.location.env.DATABASE_URL, max: 2 });
    primaryPool.on('error', () => undefined);
    const open = () => {
      const set = new ReplicaSet([withDatabase(READ_URL, database)], { retryMs: 60_000 });
      return { set, reads: openReplicaReads(set, { primary: primaryPool, poolSize: 2, statementTimeoutMs: 10_000 }) };
    };
    // Ends the replica backend that runs the marked statement, as a server restart or a network cut would.
    const cut = (marker: string) =>
      eventually(`the statement ${marker} running on the replica`, async () => {
        const { rowCount } = await replica.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE datname = $1 AND application_name = 'spatial-rag read' AND state = 'active' AND query LIKE $2`,
          [database, `%${marker}%`],
        );
        return rowCount ? true : undefined;
      }, 10_000);
    const plain = open();
    const tx = open();
    try {
      const running = sql<{ port: number; standby: boolean }>`
        SELECT inet_server_port() AS port, pg_is_in_recovery() AS standby, 'mid-statement' AS marker FROM pg_sleep(1.5)`.execute(plain.reads.db);
      await cut('mid-statement');
      // The server that finally answered says who it is: the primary.
      expect((await running).rows[0]).toMatchObject({ port: primaryPort, standby: false });
      expect(plain.set.status()[0]!.state).toBe('down');

      // Inside a transaction the earlier statements' snapshot cannot move: the failure goes to the caller.
      const inTransaction = tx.reads.db.transaction().execute(async (trx) => {
        await sql`SELECT 1`.execute(trx);
        await sql`SELECT 'in-transaction' AS marker FROM pg_sleep(1.5)`.execute(trx);
      });
      inTransaction.catch(() => undefined);
      await cut('in-transaction');
      await expect(inTransaction).rejects.toThrow(/terminat/i);
    } finally {
      await plain.reads.close();
      await tx.reads.close();
      await primaryPool.end();
    }
  });

  it('keeps answering reads from the primary while the replica is stopped, and returns to it once it is back', async ({ skip }) => {
    if (!isRoot) skip(NOT_ROOT);
    pgCtlCluster('stop');
    try {
      const sincePrimary = await clock(primary);
      for (let round = 0; round < 3; round++) await readRound(plaza);
      // Every read was answered, by the primary: its read-only role pool (ask) and the main pool (the rest).
      expect(apps(await activity(primary, sincePrimary))).toEqual(['spatial-rag', 'spatial-rag ask']);
      const ready = await readiness();
      expect(ready.status).toBe('ready');
      expect(ready.replicas.map((r) => r.state)).toEqual(['down', 'down']);
    } finally {
      pgCtlCluster('start');
    }
    const back = await eventually('the replica accepting connections again', async () => {
      const c = await observer(READ_URL);
      if ((await c.query('SELECT pg_is_in_recovery() AS r')).rows[0].r !== true) throw new Error('not in recovery');
      return c;
    });
    await replica.end().catch(() => undefined);
    replica = back;
    // The circuit breaker retries it after DATABASE_READ_RETRY_MS: both pools come back to the replica.
    const seen = new Set<string>();
    await eventually('reads served by the replica again', async () => {
      const since = await clock(replica);
      await readRound(plaza);
      for (const app of apps(await activity(replica, since))) seen.add(app);
      return seen.has('spatial-rag ask') && seen.has('spatial-rag read') ? true : undefined;
    });
    expect((await readiness()).replicas[0]).toEqual({ name: 'replica-1', state: 'up' });
  });
});
