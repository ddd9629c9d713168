import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createApp } from './http/app.ts';
import { securityOptionsFromConfig } from './http/security.ts';
import { openReader, type ReaderHandle } from './db/readonly-role.ts';
import { openReplicaReads, ReplicaSet } from './db/replicas.ts';
import type { Lifecycle } from './http/health/health.index.ts';
import type { AppEnv } from './http/openapi-app.ts';
import { createConfiguredEmbedder } from './embedding/configured.ts';
import { fillMissingLandBorders, hasPlaces, importMissingCatalogs, loadSeedPlaces } from './ingest/seed.ts';
import { buildVectorIndex, hasVectorIndex } from './ingest/load-indexes.ts';
import { seedSet } from '../seed/index.ts';
import { terminalProgress } from './cli/progress.ts';
import type { Embedder } from './embedding/embedder.ts';
import { createLlmPlanner } from './planning/llm-planner.ts';
import { createLlmReranker } from './ranking/llm-rerank.ts';
import { createToolReranker } from './tools/search/index.ts';
import { llmFromConfig } from './llm/model.ts';
import { createLlmSopWriter } from './memory/sop-writer.ts';
import { hasBuiltinTools, loadBuiltinTools } from './tools/registry.ts';
import { createLogger, type Logger } from './log.ts';
import { warmPlannerVocabularies } from './planning/lexicon-match.ts';

export interface Service {
  app: OpenAPIHono<AppEnv>;
  database: DatabaseHandle;
  log: Logger;
  lifecycle: Lifecycle;
  /** The bound port (useful with PORT=0). */
  port: number;
  /** Settles when the steps a first start leaves until after the port is open are done (finishFirstStart). */
  firstStartFinished: Promise<void>;
  /** Stop accepting, let in-flight requests finish, then close the database. Safe to call twice. */
  shutdown(): Promise<void>;
}

export interface StartOptions {
  /** Extra routes, mounted before the server starts (tests use it). */
  configureApp?: (app: OpenAPIHono<AppEnv>) => void;
  /** The logger; default: LOG_LEVEL on stdout. */
  log?: Logger;
}

export async function startService(config: Config, options: StartOptions = {}): Promise<Service> {
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  const started = performance.now();
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    pgliteDataDir: config.PGLITE_DATA_DIR,
  });
  const opened = performance.now();
  await migrateToLatest(database.db, { distribution: config.DATABASE_DISTRIBUTION });
  const now = performance.now();
  log.info({ mode: database.mode, ms: Math.round(now - started), openMs: Math.round(opened - started), migrateMs: Math.round(now - opened) }, 'database ready');
  const embedder = createConfiguredEmbedder(config);
  await seedEmptyDatabase(database, embedder, config.SEED, log);

  const lifecycle: Lifecycle = { draining: false };
  const model = llmFromConfig(config, log);
  const llm = model ? createLlmPlanner(model) : undefined;
  const reranker = model ? createLlmReranker(model) : undefined;
  const toolReranker = model ? createToolReranker(model) : undefined;
  const sopWriter = model ? createLlmSopWriter(model) : undefined;
  // Server mode: question answering on read-only, time-bounded connections as a SELECT-only role; with
  // DATABASE_READ_URLS, those and the other read routes on the replicas (src/db/replicas.ts).
  let reader: ReaderHandle | undefined;
  let replicaReads: ReturnType<typeof openReplicaReads> | undefined;
  const replicas =
    database.mode === 'server' && config.DATABASE_READ_URLS.length > 0
      ? new ReplicaSet(config.DATABASE_READ_URLS, { retryMs: config.DATABASE_READ_RETRY_MS, log })
      : undefined;
  if (database.mode === 'server' && config.DATABASE_URL) {
    reader = await openReader(database.db, {
      databaseUrl: config.DATABASE_URL,
      readerUrl: config.DATABASE_READER_URL,
      role: config.DATABASE_READER_ROLE,
      poolSize: config.DATABASE_POOL_SIZE,
      statementTimeoutMs: config.QUERY_TIMEOUT_MS,
      replicas,
      log,
    });
    if (reader.warning) log.warn(reader.warning);
    else log.info({ role: reader.role ?? 'DATABASE_READER_URL', statementTimeoutMs: config.QUERY_TIMEOUT_MS }, 'question answering on read-only connections');
  }
  if (replicas && database.pool) {
    replicaReads = openReplicaReads(replicas, {
      primary: database.pool,
      poolSize: config.DATABASE_POOL_SIZE,
      statementTimeoutMs: config.QUERY_TIMEOUT_MS,
      log,
    });
    // A replica that is down at start does not stop the service: its reads go to the primary meanwhile.
    await Promise.all([replicaReads.routing.probe(log), reader?.routing?.probe(log)]);
    log.info({ replicas: replicas.describe(), retryMs: config.DATABASE_READ_RETRY_MS }, 'read routes on the replicas, writes on the primary');
  }
  const app = createApp({
    db: database.db,
    embedder,
    llm,
    ...(reranker ? { reranker } : {}),
    ...(toolReranker ? { toolReranker } : {}),
    ...(sopWriter ? { sopWriter } : {}),
    mode: database.mode,
    ...(database.dumpDataDir ? { dumpDataDir: database.dumpDataDir } : {}),
    log,
    lifecycle,
    ...(reader ? { readDb: reader.db } : {}),
    ...(replicaReads && replicas ? { replicaReads: replicaReads.db, replicas } : {}),
    security: securityOptionsFromConfig(config),
  });
  options.configureApp?.(app);

  const server = await listen(app, config.HOST, config.PORT);
  const port = (server.address() as AddressInfo).port;
  log.info({ host: config.HOST, port, mode: database.mode }, 'listening');
  const finishing = finishFirstStart(database, embedder, config.SEED, log, lifecycle).catch((error: unknown) => {
    log.error({ err: error }, 'finishing the first start failed; the next start tries again');
  });
  // Commands started beside the service find it through the data directory's lock (src/db/data-dir.ts).
  database.lock?.advertise(localUrl(config.HOST, port));
  // The offline planner's vocabularies (iD presets, the CC-CEDICT table) are built on first use; building them
  // now, after the port is open, spares the first questions that wait (a second or two, once per process).
  setTimeout(() => {
    try {
      warmPlannerVocabularies();
    } catch (error) {
      log.warn({ err: error }, 'planner vocabularies could not be prepared; they load on first use');
    }
  }, 0).unref();

  let stopping: Promise<void> | undefined;
  const shutdown = () =>
    (stopping ??= (async () => {
      lifecycle.draining = true;
      log.info('shutting down: finishing in-flight requests');
      await finishing;
      // Connections accepted just before the signal may not have had their request read yet; closing the
      // server now would reset them as idle. A short grace lets them in (readiness already says 503).
      await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_GRACE_MS));
      await closeServer(server, config.SHUTDOWN_TIMEOUT_MS);
      await reader?.close();
      await replicaReads?.close();
      await database.close();
      log.info('stopped');
    })());

  return { app, database, log, lifecycle, port, shutdown, firstStartFinished: finishing };
}

/** The address a local client reaches the service at (a wildcard bind is reached on loopback). */
function localUrl(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '') return `http://127.0.0.1:${port}`;
  if (host === '::') return `http://[::1]:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * The first start: an empty database gets the seed set `SEED` names (seed/index.ts), so a fresh clone answers
 * real questions; the built-in EO tools likewise. Later starts find the data and skip this. What questions do
 * not need to be answered correctly is left to `finishFirstStart`, after the port is open: the HNSW vector
 * index (until it exists a vector search scans the table, exact) and the EO tool catalogs of seed/eo. On a
 * terminal the load shows its progress on one line.
 */
async function seedEmptyDatabase(database: DatabaseHandle, embedder: Embedder, seed: Config['SEED'], log: Logger): Promise<void> {
  const set = seedSet(seed);
  if (!set) return;
  if (!(await hasPlaces(database.db))) {
    const started = performance.now();
    const parts = [set.demo ? 'the Midtown Manhattan demo' : '', set.places.length ? 'the world cities and countries' : ''].filter(Boolean);
    log.info(`empty database: loading ${parts.join(' and ')}`);
    const progress = terminalProgress('first start: loading the seed');
    const timings: Record<string, number> = {};
    const bulk = database.mode === 'embedded';
    await loadSeedPlaces(database.db, embedder, set, {
      bulk,
      vectorIndexLater: bulk,
      timings,
      ...(progress ? { onProgress: (p) => progress.features(p.features, p.elapsedMs, p.phase) } : {}),
    });
    progress?.end();
    log.info({ ms: Math.round(performance.now() - started), timings }, 'seed loaded');
  }
  if (!(await hasBuiltinTools(database.db))) {
    const started = performance.now();
    const { written } = await loadBuiltinTools(database.db, embedder);
    log.info({ tools: written, ms: Math.round(performance.now() - started) }, 'built-in EO tools loaded');
  }
}

/**
 * The rest of a first start, after the port is open (the single embedded connection serves the questions
 * between its steps): the vector index of places when missing, the land borders of seeded areas that lack them,
 * then the seed's tool catalogs not loaded yet. Each step is checked on every start, so an interrupted first
 * start completes on the next one.
 */
async function finishFirstStart(database: DatabaseHandle, embedder: Embedder, seed: Config['SEED'], log: Logger, lifecycle: Lifecycle): Promise<void> {
  const set = seedSet(seed);
  const progress = terminalProgress('first start: finishing');
  if (database.mode === 'embedded' && (await hasPlaces(database.db)) && !(await hasVectorIndex(database.db))) {
    const started = performance.now();
    progress?.features(0, 0, 'indexing');
    lifecycle.finishing = 'building the vector index';
    await buildVectorIndex(database.db, embedder.dimension, true).finally(() => (lifecycle.finishing = undefined));
    log.info({ ms: Math.round(performance.now() - started) }, 'vector index of places built');
  }
  if (set) {
    const borders = await fillMissingLandBorders(database.db, set.places);
    if (borders > 0) log.info({ borders }, 'land borders of the seeded areas written');
    const started = performance.now();
    progress?.features(0, performance.now() - started, 'catalogs');
    lifecycle.finishing = 'importing the EO tool catalogs';
    const reports = await importMissingCatalogs(database.db, embedder, set.toolCatalogs).finally(() => (lifecycle.finishing = undefined));
    if (reports.length > 0) {
      log.info({ catalogs: reports.map((r) => ({ kind: r.kind, written: r.written })), ms: Math.round(performance.now() - started) }, 'EO tool catalogs loaded');
    }
  }
  progress?.end();
}

function listen(app: OpenAPIHono<AppEnv>, hostname: string, port: number): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname, port }, () => resolve(server));
    server.once('error', reject);
  });
}

/** Resolves when every in-flight request has finished, or forces the rest closed after the timeout. */
function closeServer(server: ServerType, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => {
      if ('closeAllConnections' in server) server.closeAllConnections();
      resolve();
    }, timeoutMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    // Idle keep-alive sockets would hold close() open; busy ones finish their response first.
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  });
}

/** SIGTERM/SIGINT: graceful shutdown, then exit 0 (1 if shutting down failed). */
export function exitOnSignals(service: Service, exit: (code: number) => void = process.exit): void {
  const onSignal = (signal: NodeJS.Signals) => {
    service.log.info({ signal }, 'signal received');
    service.shutdown().then(
      () => exit(0),
      (error: unknown) => {
        service.log.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
