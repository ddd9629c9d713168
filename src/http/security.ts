/**
 * The HTTP edge's defences (issue 9), mounted once for every route by {@link installSecurity}:
 *
 * 1. access control: write routes need `Authorization: Bearer <API_KEY>` when API_KEY is set, and come
 *    only from loopback clients when it is not;
 * 2. a token bucket per client on the expensive routes (429 with Retry-After);
 * 3. a body limit on every request with a body (413), larger for the GeoJSON import;
 * 4. input checks the route schemas cannot make: malformed or too deeply nested JSON, NUL characters
 *    (PostgreSQL cannot store them), the bbox area on the OGC items routes (400 naming the field);
 * 5. bounded work on the expensive read routes: a cap on concurrent requests and a deadline (503).
 *
 * Errors of the database or of its connection become 503 through {@link dependencyFailure}.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Config } from '../config.ts';
import { MAX_IMPORT_BYTES } from '../places/places.routes.ts';
import { isPlaceStream } from '../ingest/place-stream.ts';
import type { AppEnv } from './openapi-app.ts';
import { ApiError, badRequest, problem, type FieldError } from './problem.ts';

export interface SecurityOptions {
  /** When set, write routes require `Authorization: Bearer <apiKey>`; when unset, loopback clients only. */
  apiKey?: string | undefined;
  /** Requests per minute per client on the expensive routes; 0 disables the limit. */
  rateLimitPerMinute: number;
  /** Largest body of any request but an import. */
  bodyLimitBytes: number;
  /** Largest body of `POST /v1/places:import`. */
  importBodyLimitBytes: number;
  /** Expensive read routes answer 503 after this long; 0 disables. */
  requestTimeoutMs: number;
  /** Expensive read routes running at once; 0 disables. */
  maxConcurrentRequests: number;
  /** Largest bbox on the OGC items routes, in square degrees. */
  maxBboxAreaDeg2: number;
  /**
   * The client's address. Default: the socket's remote address. Requests without a socket (`app.request()`
   * in tests) have none, and a client without an address is never loopback: tests that need one say so here.
   */
  clientAddress?: (c: Context) => string | undefined;
  /** Clock of the rate limiter, in milliseconds (tests). */
  now?: () => number;
}

export const DEFAULT_SECURITY: Readonly<SecurityOptions> = Object.freeze({
  rateLimitPerMinute: 600,
  bodyLimitBytes: 1024 * 1024,
  importBodyLimitBytes: MAX_IMPORT_BYTES,
  requestTimeoutMs: 60_000,
  maxConcurrentRequests: 32,
  maxBboxAreaDeg2: 64_800,
});

/**
 * For an app built without options (in-process use through `app.request()`: tests, `npm run eval`): every
 * defence of the defaults but the rate limit, which would count the harness as one client.
 */
export const IN_PROCESS_SECURITY: Readonly<SecurityOptions> = Object.freeze({ ...DEFAULT_SECURITY, rateLimitPerMinute: 0 });

export function securityOptionsFromConfig(config: Config): SecurityOptions {
  return {
    apiKey: config.API_KEY,
    rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    importBodyLimitBytes: MAX_IMPORT_BYTES,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    maxConcurrentRequests: config.MAX_CONCURRENT_REQUESTS,
    maxBboxAreaDeg2: config.MAX_BBOX_AREA_DEG2,
  };
}

/** JSON nested deeper than this is refused (GeoJSON needs about 8 levels). */
export const MAX_JSON_DEPTH = 64;
/** Rate-limit buckets kept at most; idle (full) ones go first, then the least recently used. */
const MAX_BUCKETS = 10_000;

// ---------------------------------------------------------------------------------------------------------
// Route classes. Paths are compared after decoding, lower-casing and removing empty segments, so that
// `/v1//TOOLS/` or `/v1/%74ools` cannot slip past a check that the router itself would still route.

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function normalisePath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // a malformed escape is kept as it is; the router will not match it either
  }
  const segments = decoded.toLowerCase().split('/').filter((s) => s !== '');
  return `/${segments.join('/')}`;
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}:`);

/** POST routes under /v1/tools that only read. */
const TOOL_READ_POSTS = new Set(['/v1/tools/search']);

/**
 * Routes that change what the service stores or learns: tool registry writes, imports, runs and memory
 * management (every method: runs and memories hold what clients sent).
 */
export function isWriteRoute(method: string, rawPath: string): boolean {
  const path = normalisePath(rawPath);
  const m = method.toUpperCase();
  // A backup reads everything stored, so it is guarded like a write.
  if (under(path, '/v1/runs') || under(path, '/v1/memory') || path === '/v1/backup' || path === '/v1/reembed') return true;
  if (path.startsWith('/v1/places:import')) return !READ_METHODS.has(m);
  if (under(path, '/v1/tools')) {
    if (READ_METHODS.has(m)) return false;
    return !(m === 'POST' && TOOL_READ_POSTS.has(path));
  }
  return false;
}

/** Routes whose cost is worth limiting per client. */
export function isExpensiveRoute(method: string, rawPath: string): boolean {
  if (method.toUpperCase() !== 'POST') return false;
  const path = normalisePath(rawPath);
  return (
    path === '/v1/ask' ||
    path === '/v1/tools/search' ||
    path === '/v1/workflows/plan' ||
    path.startsWith('/v1/places:import') ||
    path === '/v1/runs' ||
    path.startsWith('/v1/tools:import') ||
    path === '/v1/reembed'
  );
}

/** Expensive routes that only read: safe to answer 503 while their work finishes in the background. */
export function isBoundedReadRoute(method: string, rawPath: string): boolean {
  if (method.toUpperCase() !== 'POST') return false;
  const path = normalisePath(rawPath);
  return path === '/v1/ask' || path === '/v1/tools/search' || path === '/v1/workflows/plan';
}

// ---------------------------------------------------------------------------------------------------------
// Clients

/** The remote address of the socket, or undefined when there is none (`app.request()`). */
export function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address ?? undefined;
  } catch {
    return undefined;
  }
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase();
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice('::ffff:'.length) : a;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** Constant-time check of a bearer token: both sides hashed first, so the buffers always have equal length. */
export function bearerMatches(header: string | undefined, apiKey: string): boolean {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
  const given = createHash('sha256').update(match?.[1] ?? '').digest();
  const expected = createHash('sha256').update(apiKey).digest();
  return timingSafeEqual(given, expected) && match !== null;
}

function respond(c: Context, error: ApiError, headers: Record<string, string> = {}): Response {
  const response = problem(c, error);
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * A refusal before the body is read: the connection closes after the answer, so that the unread rest of
 * the body is not taken for the next request, and no client sends one on a socket about to be dropped.
 */
function refuse(c: Context, error: ApiError, headers: Record<string, string> = {}): Response {
  const unread = c.req.raw.body !== null && !c.req.raw.bodyUsed;
  return respond(c, error, unread ? { ...headers, Connection: 'close' } : headers);
}

// ---------------------------------------------------------------------------------------------------------
// Rate limiting: a token bucket per client (capacity = the per-minute rate, refilled continuously).

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = () => performance.now(),
    private readonly maxBuckets = MAX_BUCKETS,
  ) {
    this.perMs = perMinute / 60_000;
  }

  /** Takes a token; returns 0 when one was available, else the milliseconds until one is. */
  take(key: string): number {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    // Re-inserted on every use: the Map's order is then least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxBuckets) this.evict(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / this.perMs);
  }

  get size(): number {
    return this.buckets.size;
  }

  private evict(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.at) * this.perMs >= this.perMinute) this.buckets.delete(key);
    }
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= this.maxBuckets) break;
      this.buckets.delete(key);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Input checks

/** A field path as the problem documents write it: `features.3.properties.name`. */
function fieldPath(path: readonly (string | number)[]): string {
  return path.length ? path.join('.').slice(0, 300) : '(root)';
}

/**
 * Walks parsed JSON without recursion (no stack overflow on hostile nesting): the first value nested
 * deeper than {@link MAX_JSON_DEPTH}, or (unless `nul` is false) the first string or key with a NUL
 * character, is an error.
 */
export function checkJsonValue(value: unknown, { nul = true }: { nul?: boolean } = {}): FieldError | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (nul && v.includes('\u0000')) return { in: 'body', field: fieldPath(path), message: 'must not contain NUL (U+0000) characters' };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (path.length >= MAX_JSON_DEPTH) {
      return { in: 'body', field: fieldPath(path), message: `nested deeper than ${MAX_JSON_DEPTH} levels` };
    }
    // Numbers, booleans and null (most of a GeoJSON body) are skipped without building a path.
    const visit = (child: unknown, key: string | number) => {
      if (typeof child === 'string' || (child !== null && typeof child === 'object')) stack.push({ value: child, path: [...path, key] });
    };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) visit(v[i], i);
    } else {
      for (const [key, child] of Object.entries(v)) {
        if (nul && key.includes('\u0000')) return { in: 'body', field: fieldPath([...path, key]), message: 'field names must not contain NUL (U+0000) characters' };
        visit(child, key);
      }
    }
  }
  return undefined;
}

const JSON_CONTENT = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;
const ITEMS_PATH = /^\/collections\/[^/]+\/items$/;

function bboxArea(text: string): number | undefined {
  const parts = text.split(',').map(Number);
  if (parts.length !== 4 || !parts.every(Number.isFinite)) return undefined; // the route names the format error
  const [minLon, minLat, maxLon, maxLat] = parts as [number, number, number, number];
  return Math.abs(maxLon - minLon) * Math.abs(maxLat - minLat);
}

// ---------------------------------------------------------------------------------------------------------
// Middleware

export function accessControl(options: SecurityOptions): MiddlewareHandler<AppEnv> {
  const address = options.clientAddress ?? socketAddress;
  return async (c, next) => {
    if (!isWriteRoute(c.req.method, c.req.path)) return next();
    if (options.apiKey) {
      if (!bearerMatches(c.req.header('authorization'), options.apiKey)) {
        return refuse(
          c,
          new ApiError(401, 'Unauthorized', 'this route changes or exports stored data: send Authorization: Bearer <API_KEY>', undefined, 'unauthorized'),
          { 'WWW-Authenticate': 'Bearer realm="spatial-rag"' },
        );
      }
      return next();
    }
    if (!isLoopback(address(c))) {
      return refuse(
        c,
        new ApiError(
          403,
          'Forbidden',
          'this route changes or exports stored data: without API_KEY it accepts only loopback clients (set API_KEY to allow others)',
          undefined,
          'forbidden',
        ),
      );
    }
    return next();
  };
}

export function rateLimit(options: SecurityOptions): MiddlewareHandler<AppEnv> {
  if (options.rateLimitPerMinute <= 0) return (_c, next) => next();
  const buckets = new TokenBuckets(options.rateLimitPerMinute, options.now);
  const address = options.clientAddress ?? socketAddress;
  return async (c, next) => {
    if (!isExpensiveRoute(c.req.method, c.req.path)) return next();
    const waitMs = buckets.take(address(c) ?? 'unknown');
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      return refuse(
        c,
        new ApiError(429, 'Too Many Requests', `more than ${options.rateLimitPerMinute} requests per minute from this client; retry in ${seconds} s`, undefined, 'rate-limited'),
        { 'Retry-After': String(seconds) },
      );
    }
    return next();
  };
}

export function bodyLimits(options: SecurityOptions): MiddlewareHandler<AppEnv> {
  // The rest of a refused body is not read (see refuse): the connection closes after the answer.
  const limiter = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: (c) =>
        respond(
          c,
          new ApiError(413, 'Content Too Large', `the body exceeds ${maxSize} bytes`, [
            { in: 'body', field: '(root)', message: `at most ${maxSize} bytes` },
          ]),
          { Connection: 'close' },
        ),
    });
  const general = limiter(options.bodyLimitBytes);
  const imports = limiter(options.importBodyLimitBytes);
  return (c, next) => {
    const path = normalisePath(c.req.path);
    if (path.startsWith('/v1/tools:import')) return imports(c, next);
    if (!path.startsWith('/v1/places:import')) return general(c, next);
    // A place stream is read line by line and may be any size (the route bounds each line).
    return isPlaceStream(c.req.header('content-type')) ? next() : imports(c, next);
  };
}

export function inputChecks(options: SecurityOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const url = new URL(c.req.url);
    if (c.req.path.includes('\u0000') || /%00/i.test(url.pathname)) {
      throw badRequest('the path contains a NUL (U+0000) character', [
        { in: 'path', field: '(path)', message: 'must not contain NUL (U+0000) characters' },
      ]);
    }
    for (const [name, value] of url.searchParams) {
      if (name.includes('\u0000') || value.includes('\u0000')) {
        throw badRequest(`query parameter '${name.replace(/\u0000/g, '')}' contains a NUL (U+0000) character`, [
          { in: 'query', field: name.replace(/\u0000/g, ''), message: 'must not contain NUL (U+0000) characters' },
        ]);
      }
    }
    const bbox = url.searchParams.get('bbox');
    if (bbox !== null && c.req.method === 'GET' && ITEMS_PATH.test(c.req.path)) {
      const area = bboxArea(bbox);
      if (area !== undefined && area > options.maxBboxAreaDeg2) {
        throw badRequest(`the bbox covers ${area.toFixed(1)} square degrees, more than ${options.maxBboxAreaDeg2}`, [
          { in: 'query', field: 'bbox', message: `at most ${options.maxBboxAreaDeg2} square degrees` },
        ]);
      }
    }
    if (c.req.raw.body && JSON_CONTENT.test(c.req.header('content-type') ?? '')) {
      let body: unknown;
      try {
        // Hono caches the parsed body: the route's validator and handler reuse it.
        body = await c.req.json();
      } catch {
        throw badRequest('the body is not valid JSON', [{ in: 'body', field: '(root)', message: 'invalid JSON' }]);
      }
      // NUL characters matter where text is stored. The MCP route stores nothing: its tool calls become route
      // requests, checked here in turn, so a NUL in an argument is a tool error naming the argument.
      const bad = checkJsonValue(body, { nul: normalisePath(c.req.path) !== '/mcp' });
      if (bad) throw badRequest(`invalid body field '${bad.field}': ${bad.message}`, [bad]);
    }
    return next();
  };
}

/**
 * At most `maxConcurrentRequests` expensive reads at once, each answered within `requestTimeoutMs`: after the
 * deadline the client gets a 503 while the work finishes (and keeps its slot until it has, so a busy embedded
 * database does not collect an ever longer queue).
 */
export function workBounds(options: SecurityOptions): MiddlewareHandler<AppEnv> {
  let inFlight = 0;
  return async (c, next) => {
    if (!isBoundedReadRoute(c.req.method, c.req.path)) return next();
    if (options.maxConcurrentRequests > 0 && inFlight >= options.maxConcurrentRequests) {
      return respond(
        c,
        new ApiError(503, 'Service Unavailable', `the service is busy (${inFlight} requests running); retry shortly`, undefined, 'busy'),
        { 'Retry-After': '1' },
      );
    }
    inFlight++;
    const work = next().finally(() => inFlight--);
    if (options.requestTimeoutMs <= 0) return work;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), options.requestTimeoutMs);
    });
    work.catch(() => undefined); // settled in the background after a timeout
    const outcome = await Promise.race([work.then(() => 'done' as const), deadline]).finally(() => clearTimeout(timer));
    if (outcome === 'late') {
      return respond(
        c,
        new ApiError(503, 'Service Unavailable', `the request took longer than ${options.requestTimeoutMs} ms; retry later`, undefined, 'timeout'),
        { 'Retry-After': '5' },
      );
    }
  };
}

/** Mounts the defences on every route, in order: who may write, how often, how big, what is in it, how long. */
export function installSecurity(app: OpenAPIHono<AppEnv>, options: SecurityOptions = IN_PROCESS_SECURITY): void {
  app.use(accessControl(options));
  app.use(rateLimit(options));
  app.use(bodyLimits(options));
  app.use(inputChecks(options));
  app.use(workBounds(options));
}

// ---------------------------------------------------------------------------------------------------------
// Failures of the database: 503, not 500

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** SQLSTATEs of an unavailable or overloaded server (class 08: connection exceptions). */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '53400', '55P03', '40001', '40P01']);
const CONNECTION_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /client has encountered a connection error/i,
  /connection ended unexpectedly/i,
  /the embedded database (worker exited|is closed)/i,
  /cannot use a pool after calling end/i,
];

/** Out of space to write: PostgreSQL's disk_full (PGlite reports it too, the service keeps running), or the OS's. */
const DISK_FULL_SQLSTATE = '53100';
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);

const CITUS_NODE_DOWN = /^connection to the remote node \S+ failed/;

/** Why an error means "the database is unavailable or too slow right now", or undefined when it does not. */
export function unavailableReason(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (error.name === 'EmbeddingServiceError') return 'the embeddings service is unavailable (details in the server log)';
  if (code === '57014') return 'the query took too long and was cancelled';
  // The failed statement's transaction is rolled back, so the write is not half made (imports are all or nothing).
  if (code === DISK_FULL_SQLSTATE || (typeof code === 'string' && DISK_FULL_CODES.has(code))) {
    return 'the database has no disk space left: nothing was written; reads still work';
  }
  if (code === '53200') return 'the database is out of memory';
  // Citus: the coordinator answers, a worker holding shards this request needs does not (its host is not repeated).
  if (CITUS_NODE_DOWN.test(error.message)) return 'a node of the distributed database is unavailable (it holds data this request needs)';
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08/.test(code))) {
    return 'the database is unavailable';
  }
  if (CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message))) return 'the database is unavailable';
  const cause = (error as { cause?: unknown }).cause;
  return cause && cause !== error ? unavailableReason(cause) : undefined;
}

/** A 503 problem+json with Retry-After for a database (or embeddings service) that is down or too slow; undefined for other errors. */
export function dependencyFailure(c: Context, error: unknown): Response | undefined {
  const reason = unavailableReason(error);
  if (!reason) return undefined;
  return respond(c, new ApiError(503, 'Service Unavailable', `${reason}; retry shortly`, undefined, 'unavailable'), { 'Retry-After': '2' });
}
