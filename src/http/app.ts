import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Db, DatabaseMode } from '../db/database.ts';
import { readTrace, type ReplicaSet } from '../db/replicas.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { askRouter } from '../ask/ask.index.ts';
import type { Logger } from '../log.ts';
import { mcpRouter } from '../mcp/mcp.index.ts';
import { memoryRouter } from '../memory/memory.index.ts';
import type { SopWriter } from '../memory/sop-writer.ts';
import { ogcRouter } from '../ogc/ogc.index.ts';
import { OPENAPI_30_TYPE } from '../ogc/ogc.routes.ts';
import { placesRouter } from '../places/places.index.ts';
import type { LlmPlanner } from '../planning/llm-planner.ts';
import type { LlmReranker } from '../ranking/llm-rerank.ts';
import { toolsRouter } from '../tools/tools.index.ts';
import type { ToolReranker } from '../tools/search/index.ts';
import { exampleQuestions } from '../web/examples.ts';
import { webRouter } from '../web/web.index.ts';
import { dependencyFailure } from './dependency-failure/dependency-failure.ts';
import { docsPage } from './docs-page.ts';
import { healthRouter, type Lifecycle } from './health/health.index.ts';
import { createRouter, type AppEnv } from './openapi-app.ts';
import { operationsRouter } from './operations/operations.index.ts';
import { ApiError, problem } from './problem.ts';
import { declareRoute, policyOf } from './route-policy.ts';
import { installSecurity, type SecurityOptions } from './security.ts';

// The service's own documents: plain routes (the OpenAPI documents and the page that shows them).
const OPENAPI_PATH = declareRoute({ method: 'get', path: '/openapi.json', policy: 'read' }).path;
const API_PATH = declareRoute({ method: 'get', path: '/api', policy: 'read' }).path;
const DOCS_PATH = declareRoute({ method: 'get', path: '/docs', policy: 'read' }).path;

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

export interface AppDeps {
  db: Db;
  embedder: Embedder;
  llm?: LlmPlanner;
  /** Orders the Pareto front of /v1/ask when an LLM is configured (the rule trade-off otherwise). */
  reranker?: LlmReranker;
  /** Orders the first candidates of /v1/tools/search when an LLM is configured (the rule ranking otherwise). */
  toolReranker?: ToolReranker;
  /** Writes the memory's SOPs when an LLM is configured (templated otherwise). */
  sopWriter?: SopWriter;
  mode: DatabaseMode;
  log: Logger;
  lifecycle: Lifecycle;
  /**
   * Server mode: the read-only, time-bounded connections the read routes run on (src/db/readonly-role.ts);
   * on the replicas when DATABASE_READ_URLS is set.
   */
  readDb?: Db;
  /** With DATABASE_READ_URLS: the other read routes' connections (replicas, primary fallback: src/db/replicas.ts). */
  replicaReads?: Db;
  /** With DATABASE_READ_URLS: notified after each write request, so this instance reads its own writes. */
  replicas?: ReplicaSet;
  /** Embedded mode: the database's snapshot, served by GET /v1/backup. */
  dumpDataDir?: () => Promise<Uint8Array>;
  /** Auth, rate limits, body limits, work bounds (src/http/security.ts and its middleware folders); omitted: IN_PROCESS_SECURITY (no rate limit). */
  security?: SecurityOptions;
}

export function createApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = createRouter();
  app.use(requestId());
  app.use(async (c, next) => {
    const started = performance.now();
    // The servers that served this request's routed reads (`replica-1`, `primary`), for the log line.
    const readFrom = new Set<string>();
    await readTrace.run(readFrom, next);
    deps.log.info(
      {
        requestId: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        ...(readFrom.size > 0 ? { readFrom: [...readFrom] } : {}),
      },
      'request',
    );
  });
  if (deps.replicas) app.use(noteWrites(deps.replicas, deps.db, deps.log));

  installSecurity(app, deps.security);

  app.route('/', healthRouter({ db: deps.db, lifecycle: deps.lifecycle, replicas: deps.replicas }));
  // Server mode: every route that only reads runs on read-only connections with the statement timeout, so a
  // slow query is cut (503) instead of holding a connection and the client; writes use the main pool.
  // Question answering as the SELECT-only role; with DATABASE_READ_URLS both on the replicas.
  const askDb = deps.readDb ?? deps.db;
  const readDb = deps.replicaReads ?? askDb;
  // Before the explorer: `/` answers JSON to OGC API clients that ask for it, and the page to browsers.
  app.route('/', ogcRouter({ db: readDb, mode: deps.mode }));
  app.route('/', placesRouter({ db: deps.db, embedder: deps.embedder, readDb }));
  app.route('/', askRouter({ ...deps, db: askDb }));
  app.route('/', toolsRouter({ db: deps.db, embedder: deps.embedder, readDb, ...(deps.toolReranker ? { toolReranker: deps.toolReranker } : {}) }));
  // Workflow memory management stays on the primary: it is administration (behind API_KEY), not traffic.
  app.route('/', memoryRouter({ db: deps.db, options: deps.sopWriter ? { sopWriter: deps.sopWriter } : {} }));
  app.route('/', webRouter({ db: readDb, examples: () => exampleQuestions({ db: askDb, embedder: deps.embedder }) }));
  app.route('/', operationsRouter({ db: deps.db, embedder: deps.embedder, dumpDataDir: deps.dumpDataDir }));
  // MCP for agents: each tool call is a request to the routes above, through this app (src/mcp/server.ts).
  app.route('/', mcpRouter((request, env) => app.fetch(request, env as never)));

  const info = {
    title: 'Spatial-RAG',
    version: '0.1.0',
    description: 'Natural-language geographic questions over PostGIS + pgvector, with Earth-observation tool recommendations.',
  };
  app.doc31(OPENAPI_PATH, { openapi: '3.1.0', info });
  // OGC API's service description: the same routes as an OpenAPI 3.0 document (the OAS 3.0 conformance
  // class; GDAL and QGIS read it), typed as OpenAPI where the client asks for that.
  let openApi30: string | undefined;
  app.get(API_PATH, (c) => {
    openApi30 ??= JSON.stringify(app.getOpenAPIDocument({ openapi: '3.0.3', info }));
    const type = /application\/vnd\.oai\.openapi\+json/i.test(c.req.header('accept') ?? '') ? OPENAPI_30_TYPE : 'application/json';
    return c.body(openApi30, 200, { 'content-type': type });
  });
  app.get(DOCS_PATH, (c) => c.html(docsPage));

  app.notFound((c) => problem(c, new ApiError(404, 'Not Found', `no route for ${c.req.method} ${c.req.path}`)));
  app.onError((error, c) => {
    if (error instanceof ApiError) return problem(c, error);
    if (error instanceof HTTPException) {
      const status = error.status as ContentfulStatusCode;
      return problem(c, new ApiError(status, STATUS_TITLES[status] ?? 'Error', error.message));
    }
    const failure = dependencyFailure(c, error);
    if (failure) {
      deps.log.warn({ requestId: c.get('requestId'), err: error }, 'dependency unavailable');
      return failure;
    }
    deps.log.error({ requestId: c.get('requestId'), err: error }, 'unhandled error');
    return problem(c, new ApiError(500, 'Internal Server Error', 'an unexpected error occurred; see the server log'));
  });
  return app;
}

/**
 * Read-your-writes within this instance: after a request to a route that may write (its policy says so), the
 * primary's WAL position is noted before the response leaves, and replicas serve reads again only once they
 * have replayed that far (src/db/replicas.ts). Requests refused before their handler ran (auth, rate limit,
 * size, validation) wrote nothing and are skipped; an MCP request writes only through the route requests it
 * makes, which are noted here themselves.
 */
function noteWrites(replicas: ReplicaSet, primary: Db, log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (!policyOf(c.req.method, c.req.path).rules.writes) return;
    const status = c.res.status;
    if (status >= 400 && status < 500) return;
    try {
      await replicas.noteWrite(primary);
    } catch (error) {
      log.warn({ requestId: c.get('requestId'), err: error }, 'could not read the WAL position after a write: replicas may serve older data');
    }
  };
}
