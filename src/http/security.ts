/**
 * The HTTP edge's defences, mounted once for every route by {@link installSecurity}, each reading the
 * route's declared policy (src/http/route-policy.ts):
 *
 * 1. access control (src/http/access): guarded routes need `Authorization: Bearer <API_KEY>` when API_KEY
 *    is set, and come only from loopback clients when it is not;
 * 2. a token bucket per client on the rate-limited routes (src/http/rate-limit; 429 with Retry-After);
 * 3. a body limit on every request with a body (src/http/body-limit; 413), larger for the imports;
 * 4. input checks the route schemas cannot make (src/http/input-checks; 400 naming the field);
 * 5. bounded work on the expensive read routes (src/http/work-bounds): a cap on concurrent requests and a
 *    deadline (503).
 *
 * Errors of the database or of its connection become 503 (src/http/dependency-failure).
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Config } from '../config.ts';
import { MAX_IMPORT_BYTES } from '../places/places.routes.ts';
import { accessControl, type AccessOptions } from './access/access-control.ts';
import { bodyLimits, type BodyLimitOptions } from './body-limit/body-limit.ts';
import { inputChecks, type InputCheckOptions } from './input-checks/input-checks.ts';
import type { AppEnv } from './openapi-app.ts';
import { rateLimit, type RateLimitOptions } from './rate-limit/rate-limit.ts';
import { workBounds, type WorkBoundOptions } from './work-bounds/work-bounds.ts';

export type SecurityOptions = AccessOptions & RateLimitOptions & BodyLimitOptions & InputCheckOptions & WorkBoundOptions;

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

/** Mounts the defences on every route, in order: who may write, how often, how big, what is in it, how long. */
export function installSecurity(app: OpenAPIHono<AppEnv>, options: SecurityOptions = IN_PROCESS_SECURITY): void {
  app.use(accessControl(options));
  app.use(rateLimit(options));
  app.use(bodyLimits(options));
  app.use(inputChecks(options));
  app.use(workBounds(options));
}
