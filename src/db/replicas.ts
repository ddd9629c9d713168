/**
 * Read replicas (server mode, `DATABASE_READ_URLS`): the read-only routes run on PostgreSQL streaming
 * replicas, writes and migrations on the primary (`DATABASE_URL`).
 *
 * The replicas are a {@link ReplicaSet} shared by two {@link RoutingPool}s: the question-answering connections
 * (read-only, time-bounded, SELECT-only role: src/db/readonly-role.ts) and the connections of the other read
 * routes (places, OGC items, tool search, the explorer). Each routing pool is a Kysely `PostgresPool`: every
 * connection Kysely asks for comes from the next replica in turn (round robin over the replicas whose circuit
 * is closed), or from the pool's primary fallback when no replica can serve.
 *
 * Failures never reach the client while another server can answer:
 *  - a replica that cannot be connected to is skipped for `retryMs` (circuit open), then tried again by the
 *    next read (half open): a success closes the circuit, a failure opens it again;
 *  - a statement that fails on a replica because the connection broke (server stopped, network), or because
 *    recovery cancelled it (hot-standby conflict, 40001), is run again on the next replica, then the primary.
 *    Only outside a transaction: inside one, the error goes up (the read routes use none).
 *
 * Consistency: replicas are asynchronous, so a read may not yet see a write made a moment before. Within one
 * service instance reads see its own writes: after each write request the service notes the primary's WAL
 * position ({@link ReplicaSet.noteWrite}), and a replica is used only once it has replayed up to it (checked
 * with one `pg_last_wal_replay_lsn()` per connection while it is behind); meanwhile reads go to the primary.
 * Across instances (or after `npm run ingest`) reads are eventually consistent, usually within milliseconds.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from '../log.ts';
import { APPLICATION_NAME, numericTypes, redact, SESSION_OPTIONS, type Db } from './database.ts';
import type { Database } from './schema.ts';

/** Names of the servers that served the reads of the current request (set by the HTTP layer, for its log line). */
export const readTrace = new AsyncLocalStorage<Set<string>>();

export const PRIMARY = 'primary';

/** A replica that does not accept a connection within this is skipped (the primary's pool waits 5 s). */
export const REPLICA_CONNECT_TIMEOUT_MS = 2_000;

export type ReplicaState = 'unknown' | 'up' | 'down' | 'behind';

export interface Replica {
  /** `replica-1`, `replica-2`, ... in the order of DATABASE_READ_URLS. */
  readonly name: string;
  readonly url: string;
  state: ReplicaState;
  /** While down: when the next attempt may be made (ms, the set's clock). */
  retryAt: number;
  /** The last WAL position it reported having replayed. */
  replayedLsn: bigint;
}

type Log = Pick<Logger, 'info' | 'warn' | 'debug'>;

export interface ReplicaSetOptions {
  /** How long a failed replica is skipped (DATABASE_READ_RETRY_MS). */
  retryMs: number;
  log?: Log | undefined;
  now?: () => number;
}

/** `16/B374D848` -> a number that orders like the WAL position. */
export function parseLsn(text: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text.trim());
  if (!match) throw new Error(`not a WAL position: ${JSON.stringify(text)}`);
  return (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`);
}

/** The replicas, their health (one circuit breaker each) and the WAL position reads must have seen. */
export class ReplicaSet {
  readonly replicas: Replica[];
  private next = 0;
  /** WAL position of this instance's latest write: a replica serves reads once it has replayed this far. */
  private requiredLsn = 0n;
  private readonly retryMs: number;
  private readonly log: Log | undefined;
  private readonly now: () => number;

  constructor(urls: readonly string[], options: ReplicaSetOptions) {
    this.replicas = urls.map((url, i) => ({ name: `replica-${i + 1}`, url, state: 'unknown', retryAt: 0, replayedLsn: 0n }));
    this.retryMs = options.retryMs;
    this.log = options.log;
    this.now = options.now ?? (() => performance.now());
  }

  /** Replicas to try for one connection: round robin, skipping those whose circuit is open. */
  candidates(exclude: ReadonlySet<Replica> = new Set()): Replica[] {
    const n = this.replicas.length;
    if (n === 0) return [];
    const start = this.next++ % n;
    const now = this.now();
    const order: Replica[] = [];
    for (let i = 0; i < n; i++) {
      const r = this.replicas[(start + i) % n]!;
      if (exclude.has(r)) continue;
      if (r.state === 'down' && now < r.retryAt) continue;
      order.push(r);
    }
    return order;
  }

  /**
   * Whether to try this replica now. For one whose circuit is open but whose wait is over (half open), only
   * the first caller gets the trial; the others skip it until that attempt has marked it up or down again,
   * so a replica that hangs on connect holds up one request per DATABASE_READ_RETRY_MS, not all of them.
   */
  claim(replica: Replica): boolean {
    if (replica.state !== 'down') return true;
    const now = this.now();
    if (now < replica.retryAt) return false;
    replica.retryAt = now + this.retryMs;
    return true;
  }

  markDown(replica: Replica, error: unknown, kind: string): void {
    const wasDown = replica.state === 'down';
    replica.state = 'down';
    replica.retryAt = this.now() + this.retryMs;
    const fields = { replica: replica.name, pool: kind, err: errorText(error), retryInMs: this.retryMs };
    if (wasDown) this.log?.debug(fields, 'replica still unavailable');
    else this.log?.warn(fields, 'replica unavailable: its reads go to the other replicas or the primary');
  }

  markUp(replica: Replica, kind: string): void {
    if (replica.state === 'down') this.log?.info({ replica: replica.name, pool: kind }, 'replica serves reads again');
    replica.state = 'up';
  }

  /** Whether the replica may not have replayed this instance's latest write yet. */
  isBehind(replica: Replica): boolean {
    return replica.replayedLsn < this.requiredLsn;
  }

  noteReplayed(replica: Replica, lsn: string | null): void {
    // NULL: the server is not in recovery (not a standby), so it cannot say; it stays "behind" after writes.
    if (lsn !== null) replica.replayedLsn = parseLsn(lsn);
  }

  /** After a write request: reads must see the primary's WAL up to its current position. */
  async noteWrite(primary: Db): Promise<void> {
    const { rows } = await sql<{ lsn: string }>`SELECT pg_current_wal_lsn()::text AS lsn`.execute(primary);
    const lsn = parseLsn(rows[0]!.lsn);
    if (lsn > this.requiredLsn) this.requiredLsn = lsn;
  }

  /** For /readyz: each replica's state, without touching the databases. */
  status(): { name: string; state: ReplicaState }[] {
    return this.replicas.map((r) => ({ name: r.name, state: r.state === 'up' && this.isBehind(r) ? 'behind' : r.state }));
  }

  describe(): { name: string; url: string }[] {
    return this.replicas.map((r) => ({ name: r.name, url: redact(r.url) }));
  }
}

// -----------------------------------------------------------------------------------------------------------
// Which errors mean "this server cannot serve now" (try the next one) rather than "this statement is wrong".

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** Shutdown, crash, "starting up"/"in recovery" (57P03), too many connections, database missing on the replica. */
const CONNECTION_SQLSTATES = new Set(['57P01', '57P02', '57P03', '57P04', '53300', '3D000']);
const CONNECTION_MESSAGES = [
  /connection terminated/i,
  /connection ended unexpectedly/i,
  /timeout exceeded when trying to connect/i,
  /client has encountered a connection error/i,
  /query read timeout/i,
];

/** The connection to the server is gone or cannot be made. */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || CONNECTION_SQLSTATES.has(code) || code.startsWith('08'))) return true;
  return CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message));
}

/** A hot standby cancelled the statement to replay WAL ("conflict with recovery"): another server can run it. */
function isRecoveryConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === '40001' || code === '40P01';
}

function errorText(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' && e.message !== '' ? e.message : String(error);
  return typeof e?.code === 'string' ? `${e.code}: ${message}` : message;
}

// -----------------------------------------------------------------------------------------------------------

export interface RoutingPoolOptions {
  /** `ask` or `read`: in logs. */
  kind: string;
  /** Pool settings for one replica (its URL, timeouts, session settings). */
  replicaConfig(replica: Replica): pg.PoolConfig;
  /** Where reads go when no replica can serve. */
  primary: pg.Pool;
  /** Whether {@link RoutingPool.end} also ends `primary` (false when it is the service's main pool). */
  ownsPrimary: boolean;
  log?: Log | undefined;
}

/** A Kysely `PostgresPool` whose connections come from the replicas, or from the primary (see the module comment). */
export class RoutingPool implements PostgresPool {
  private readonly pools = new Map<Replica, pg.Pool>();
  private ended = false;

  constructor(
    readonly replicas: ReplicaSet,
    private readonly options: RoutingPoolOptions,
  ) {}

  get kind(): string {
    return this.options.kind;
  }

  /** The pool of one replica, created on first use. */
  poolOf(replica: Replica): pg.Pool {
    let pool = this.pools.get(replica);
    if (!pool) {
      pool = new pg.Pool(this.options.replicaConfig(replica));
      // A replica going away must not crash the process: idle clients (pool 'error') and checked-out ones
      // (client 'error', see database.ts) both report it; the failed query itself rejects and is retried.
      pool.on('error', () => undefined);
      pool.on('connect', (client) => client.on('error', () => undefined));
      this.pools.set(replica, pool);
    }
    return pool;
  }

  async connect(): Promise<PostgresPoolClient> {
    if (this.ended) throw new Error('cannot use a pool after calling end on the pool');
    const exclude = new Set<Replica>();
    const first = await this.acquire(exclude);
    return new RoutedClient(this, first, exclude);
  }

  /** A client from the first replica that can serve (not in `exclude`, which it extends), else from the primary. */
  async acquire(exclude: Set<Replica>): Promise<Served> {
    for (const replica of this.replicas.candidates(exclude)) {
      if (!this.replicas.claim(replica)) continue;
      exclude.add(replica);
      let client: pg.PoolClient;
      try {
        client = await this.poolOf(replica).connect();
      } catch (error) {
        this.replicas.markDown(replica, error, this.kind);
        continue;
      }
      if (this.replicas.isBehind(replica)) {
        try {
          const { rows } = await client.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn');
          this.replicas.noteReplayed(replica, rows[0]?.lsn ?? null);
        } catch (error) {
          const lost = isConnectionFailure(error);
          client.release(lost ? (error as Error) : undefined);
          if (lost) this.replicas.markDown(replica, error, this.kind);
          continue;
        }
        if (this.replicas.isBehind(replica)) {
          // Not yet replayed this instance's latest write: the primary serves, the replica stays healthy.
          this.options.log?.debug({ replica: replica.name, pool: this.kind }, 'replica behind the latest write: reading from the primary');
          client.release();
          continue;
        }
      }
      this.replicas.markUp(replica, this.kind);
      return { client, replica, name: replica.name };
    }
    return { client: await this.options.primary.connect(), replica: undefined, name: PRIMARY };
  }

  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.end()));
    if (this.options.ownsPrimary) await this.options.primary.end();
  }

  /**
   * At start: whether each replica answers, is a standby, and lets these connections read `places`. Never
   * fails: a replica that does not answer is marked down (and retried later), with a warning.
   */
  async probe(log: Log | undefined): Promise<void> {
    await Promise.all(
      this.replicas.replicas.map(async (replica) => {
        let client: pg.PoolClient | undefined;
        try {
          client = await this.poolOf(replica).connect();
          const { rows } = await client.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby FROM (SELECT 1) AS one LEFT JOIN (SELECT 1 FROM places LIMIT 1) AS p ON true');
          if (!rows[0]?.standby) log?.warn({ replica: replica.name, pool: this.kind }, 'replica is not in recovery (not a streaming standby): it serves reads, but may not follow the primary');
          this.replicas.markUp(replica, this.kind);
          client.release();
        } catch (error) {
          client?.release(error as Error);
          this.replicas.markDown(replica, error, this.kind);
        }
      }),
    );
  }
}

interface Served {
  client: pg.PoolClient;
  replica: Replica | undefined;
  name: string;
}

/** What Kysely holds: one statement at a time, moved to the next server when a replica fails it. */
class RoutedClient implements PostgresPoolClient {
  private inTransaction = false;
  /** Set while no client is held (the failed one was released and acquiring the next one failed). */
  private detached = false;

  constructor(
    private readonly router: RoutingPool,
    private served: Served,
    /** Replicas this connection has already tried (not retried within one acquisition chain). */
    private readonly tried: Set<Replica>,
  ) {}

  query<R>(sqlText: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(what: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // Cursors (streaming) stay where they started: rows already delivered cannot be fetched again elsewhere.
    if (typeof what !== 'string') return this.served.client.query(what as never) as unknown as PostgresCursor<R>;
    return this.run<R>(what, parameters ?? []);
  }

  private async run<R>(sqlText: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    for (;;) {
      const { client, replica, name } = this.served;
      try {
        const result = (await client.query(sqlText, parameters as unknown[])) as unknown as PostgresQueryResult<R>;
        readTrace.getStore()?.add(name);
        this.trackTransaction(sqlText);
        return result;
      } catch (error) {
        const lost = isConnectionFailure(error);
        if (!replica || this.inTransaction || !(lost || isRecoveryConflict(error))) throw error;
        if (lost) this.router.replicas.markDown(replica, error, this.router.kind);
        else this.router.replicas.markUp(replica, this.router.kind);
        client.release(lost ? (error as Error) : undefined);
        this.detached = true;
        // The next replica, or the primary; if even that fails, its error goes to the caller.
        this.served = await this.router.acquire(this.tried);
        this.detached = false;
      }
    }
  }

  private trackTransaction(sqlText: string): void {
    const head = sqlText.trimStart().slice(0, 20).toLowerCase();
    if (head.startsWith('begin') || head.startsWith('start transaction')) this.inTransaction = true;
    else if (/^(commit|end|rollback)(\s|;|$)/.test(head)) this.inTransaction = false;
  }

  release(destroy?: boolean): void {
    if (!this.detached) this.served.client.release(destroy);
  }
}

export interface ReplicaReadsOptions {
  /** The service's main pool on the primary: the fallback (not ended by close()). */
  primary: pg.Pool;
  poolSize: number;
  /** `statement_timeout` on the replicas, with a client-side bound 5 s later for a server that hangs. */
  statementTimeoutMs: number;
  log?: Log | undefined;
}

/**
 * The connections of the read routes other than question answering (places, OGC items, tool search, the
 * explorer): the replicas as the service's own user (tool search also reads the workflow memory, which the
 * SELECT-only role of question answering may not), else the service's main pool on the primary.
 */
export function openReplicaReads(replicas: ReplicaSet, options: ReplicaReadsOptions): { db: Db; routing: RoutingPool; close(): Promise<void> } {
  const timeout = Math.max(1, Math.round(options.statementTimeoutMs));
  const routing = new RoutingPool(replicas, {
    kind: 'read',
    replicaConfig: (replica) => ({
      connectionString: replica.url,
      max: options.poolSize,
      connectionTimeoutMillis: REPLICA_CONNECT_TIMEOUT_MS,
      query_timeout: timeout + 5_000,
      options: `${SESSION_OPTIONS} -c statement_timeout=${timeout} -c default_transaction_read_only=on`,
      types: numericTypes(),
      application_name: `${APPLICATION_NAME} read`,
    }),
    primary: options.primary,
    ownsPrimary: false,
    log: options.log,
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: routing }) });
  return { db, routing, close: () => db.destroy() };
}
