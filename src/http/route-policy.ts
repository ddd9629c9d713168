/**
 * Each route says on its definition who may call it and what it costs; the security middleware
 * (src/http/access, rate-limit, body-limit, work-bounds) reads it here instead of matching path strings.
 * Definitions register themselves when their module loads, keyed by method and path template.
 */
import { createRoute, type RouteConfig } from '@hono/zod-openapi';

export interface PolicyRules {
  /** Needs the API key (loopback clients only without one): it changes or exports what clients stored. */
  guarded: boolean;
  /** Counted against the per-client rate limit. */
  rateLimited: boolean;
  /** Concurrency cap and deadline (503): only for work that reads, so an abandoned answer loses nothing. */
  bounded: boolean;
  /** May change stored data: with replicas, this instance then reads its own writes. */
  writes: boolean;
  /** Its JSON body is not checked for NUL characters: it stores nothing itself (the MCP relay). */
  relay: boolean;
}

const rules = (r: Partial<PolicyRules>): PolicyRules => ({ guarded: false, rateLimited: false, bounded: false, writes: false, relay: false, ...r });

export const POLICIES = {
  /** Open, cheap reads. */
  read: rules({}),
  /** Open reads that cost a planning or ranking pass. */
  'expensive-read': rules({ rateLimited: true, bounded: true }),
  /** Reads of what clients sent (runs, memory) or of the whole database (backup): guarded like a write. */
  private: rules({ guarded: true }),
  write: rules({ guarded: true, writes: true }),
  /** Writes that embed or load many records. */
  'expensive-write': rules({ guarded: true, rateLimited: true, writes: true }),
  /** Each message becomes requests to the other routes, checked there under their own policies. */
  relay: rules({ relay: true }),
} as const satisfies Record<string, PolicyRules>;
export type PolicyName = keyof typeof POLICIES;

/**
 * The body limit: `default` (BODY_LIMIT_BYTES), `import` (the larger import limit) or `stream` (a place
 * stream is unlimited, the route bounding each line; any other body has the import limit).
 */
export type BodyLimitKind = 'default' | 'import' | 'stream';

export interface RouteMeta {
  policy: PolicyName;
  bodyLimit?: BodyLimitKind;
}

export interface PolicyEntry {
  method: string;
  /** The OpenAPI path template, e.g. `/v1/tools/{id}`; a trailing `*` matches any rest. */
  path: string;
  policy: PolicyName;
  bodyLimit: BodyLimitKind;
}

interface Compiled extends PolicyEntry {
  pattern: RegExp;
}

const registry = new Map<string, Compiled>();

function compile(template: string): RegExp {
  const source = template
    .toLowerCase()
    .split(/(\{[^}]+\}|\*$)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** Records the policy of a route that is not defined with {@link defineRoute} (plain Hono routes). */
export function declareRoute(entry: { method: string; path: string } & RouteMeta): PolicyEntry {
  const method = entry.method.toUpperCase();
  const recorded: Compiled = { method, path: entry.path, policy: entry.policy, bodyLimit: entry.bodyLimit ?? 'default', pattern: compile(entry.path) };
  registry.set(`${method} ${entry.path}`, recorded);
  return recorded;
}

/**
 * createRoute with the route's policy: recorded for the middleware, and shown in the OpenAPI document as
 * `x-policy` so that clients see which routes need the key.
 */
export function defineRoute<const R extends RouteConfig & RouteMeta>(config: R) {
  const { policy, bodyLimit, ...route } = config;
  declareRoute({ method: config.method, path: config.path, policy, ...(bodyLimit ? { bodyLimit } : {}) });
  return createRoute({ ...route, 'x-policy': policy } as unknown as Omit<R, keyof RouteMeta>);
}

// Paths are compared after decoding, lower-casing and removing empty segments, so that `/v1//TOOLS/` or
// `/v1/%74ools` cannot slip past a check that the router itself would still route.
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

export interface ResolvedPolicy {
  /** The matched template; undefined when no route is declared for the request (the router answers 404). */
  path?: string;
  policy: PolicyName;
  rules: PolicyRules;
  bodyLimit: BodyLimitKind;
}

/**
 * No route is declared for the request: the router answers 404. A method that could write is guarded all the
 * same (deny by default), so a route added without a policy is never open by mistake.
 */
const UNDECLARED_READ: ResolvedPolicy = { policy: 'read', rules: POLICIES.read, bodyLimit: 'default' };
const UNDECLARED_WRITE: ResolvedPolicy = { policy: 'private', rules: POLICIES.private, bodyLimit: 'default' };
const READ_METHODS = new Set(['GET', 'OPTIONS']);

/**
 * The policy of a request. HEAD is answered by the GET route. A path that matches a literal template wins
 * over one with parameters (`/v1/tools/search` before `/v1/tools/{id}`).
 */
export function policyOf(method: string, rawPath: string): ResolvedPolicy {
  const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  const path = normalisePath(rawPath);
  let best: Compiled | undefined;
  for (const entry of registry.values()) {
    if (entry.method !== m || !entry.pattern.test(path)) continue;
    if (!best || specificity(entry.path) > specificity(best.path)) best = entry;
  }
  if (best) return { path: best.path, policy: best.policy, rules: POLICIES[best.policy], bodyLimit: best.bodyLimit };
  return READ_METHODS.has(m) ? UNDECLARED_READ : UNDECLARED_WRITE;
}

const specificity = (template: string) => template.replace(/\{[^}]+\}|\*/g, '').length;

/** Every declared route (tests check that each route of the app has one). */
export function declaredRoutes(): PolicyEntry[] {
  return [...registry.values()].map(({ pattern: _, ...entry }) => entry);
}
