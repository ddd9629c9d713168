import { Worker } from 'node:worker_threads';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

interface WorkerReply {
  id: number;
  ok: boolean;
  rows?: unknown[];
  affectedRows?: number;
  data?: Uint8Array;
  error?: { message: string; code?: string; detail?: string };
}

/** An error raised by PostgreSQL inside PGlite, with the SQLSTATE code like node-postgres errors. */
export class PgliteError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'PgliteError';
  }
}

/** The PGlite database in its worker thread, spoken to by messages. */
export class PgliteWorker {
  private readonly worker: Worker;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (r: WorkerReply) => void; reject: (e: Error) => void }>();
  private exited = false;

  constructor(dataDir: string) {
    this.worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir } });
    this.worker.on('message', (reply: WorkerReply) => {
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      waiter?.resolve(reply);
    });
    this.worker.on('error', (error) => this.failAll(error));
    this.worker.on('exit', (code) => {
      this.exited = true;
      this.failAll(new Error(`the embedded database worker exited (code ${code})`));
    });
  }

  private failAll(error: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }

  async call(
    message: { kind: string; sql?: string; params?: readonly unknown[]; blob?: Uint8Array; steps?: ScriptStep[]; compression?: 'gzip' | 'none' },
    transfer: ArrayBuffer[] = [],
  ): Promise<WorkerReply> {
    if (this.exited) throw new Error('the embedded database is closed');
    const id = ++this.nextId;
    const reply = await new Promise<WorkerReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id }, transfer);
    });
    if (!reply.ok) {
      throw new PgliteError(reply.error?.message ?? 'embedded database error', reply.error?.code, reply.error?.detail);
    }
    return reply;
  }

  async open(): Promise<void> {
    await this.call(this.restoreFrom ? { kind: 'open', blob: this.restoreFrom } : { kind: 'open' });
    this.restoreFrom = undefined;
  }

  /** Fills an empty data directory from a snapshot on open (a restore). */
  restoreFrom: Uint8Array | undefined;

  /** A snapshot of the data directory, as a gzipped tar; callers make sure no transaction is open. */
  async dump(): Promise<Uint8Array> {
    const reply = await this.call({ kind: 'dump', compression: 'gzip' });
    return reply.data!;
  }

  async close(): Promise<void> {
    if (this.exited) return;
    await this.call({ kind: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }
}

/**
 * PGlite is a single connection, so the driver hands it out to one user at a time: a transaction
 * holds it until it commits, and other queries wait their turn instead of interleaving with it.
 */
class PgliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: PgliteConnection;

  constructor(private readonly pglite: PgliteWorker) {
    this.connection = new PgliteConnection(pglite);
  }

  async init(): Promise<void> {
    await this.pglite.open();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const previous = this.queue;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.connection.release = release;
    return this.connection;
  }

  async beginTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    (conn as PgliteConnection).release?.();
  }

  async destroy(): Promise<void> {
    await this.pglite.close();
  }
}

/**
 * The data of a `COPY ... FROM '/dev/blob'` statement in the embedded database (PGlite reads the device
 * from the query's blob): pass it as the only parameter of a raw query,
 * `db.executeQuery(CompiledQuery.raw("COPY t FROM '/dev/blob' WITH (FORMAT binary)", [new CopyData(bytes)]))`.
 * The bytes are transferred to the database thread, not copied: the caller must not reuse them.
 */
export class CopyData {
  constructor(readonly bytes: Uint8Array) {}
}

/**
 * Several statements for the embedded database to run back to back, with one reply (the result of the last
 * statement, or the first error): `db.executeQuery(CompiledQuery.raw('', [new Script([q1, q2])]))`, where a
 * query may carry CopyData. Why: the database thread otherwise waits for the main thread between two
 * statements, and a bulk load keeps the main thread busy reading and describing the next batch.
 */
export class Script {
  constructor(readonly queries: readonly CompiledQuery[]) {}
}

interface ScriptStep {
  sql: string;
  params: readonly unknown[];
  blob?: Uint8Array;
}

function stepOf(query: CompiledQuery): ScriptStep {
  const [first] = query.parameters;
  return first instanceof CopyData ? { sql: query.sql, params: [], blob: first.bytes } : { sql: query.sql, params: query.parameters };
}

class PgliteConnection implements DatabaseConnection {
  release?: () => void;

  constructor(private readonly pglite: PgliteWorker) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const [first] = query.parameters;
    let reply: WorkerReply;
    if (first instanceof Script) {
      const steps = first.queries.map(stepOf);
      reply = await this.pglite.call({ kind: 'script', steps }, steps.flatMap((s) => (s.blob ? transferable(s.blob) : [])));
    } else {
      const step = stepOf(query);
      reply = await this.pglite.call({ kind: 'query', ...step }, step.blob ? transferable(step.blob) : []);
    }
    return {
      rows: (reply.rows ?? []) as R[],
      numAffectedRows: BigInt(reply.affectedRows ?? 0),
    };
  }

  // biome-ignore lint/correctness/useYield: the interface asks for a generator; this one only refuses.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported by the embedded database');
  }
}

function transferable(bytes: Uint8Array): ArrayBuffer[] {
  const buffer = bytes.buffer;
  // Only a buffer that holds exactly these bytes is handed over; a view into a larger one is copied.
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength ? [buffer] : [];
}

export function pgliteDialect(pglite: PgliteWorker): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PgliteDriver(pglite),
    // biome-ignore lint/suspicious/noExplicitAny: Kysely's Dialect interface is declared with Kysely<any>.
    createIntrospector: (db: Kysely<any>) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
