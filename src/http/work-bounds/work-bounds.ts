import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../openapi-app.ts';
import { ApiError, problem } from '../problem.ts';
import { policyOf } from '../route-policy.ts';

export interface WorkBoundOptions {
  /** Bounded routes answer 503 after this long; 0 disables. */
  requestTimeoutMs: number;
  /** Bounded routes running at once; 0 disables. */
  maxConcurrentRequests: number;
}

/**
 * At most `maxConcurrentRequests` bounded requests (expensive reads, by their policy) at once, each answered
 * within `requestTimeoutMs`: after the deadline the client gets a 503 while the work finishes (and keeps its
 * slot until it has, so a busy embedded database does not collect an ever longer queue).
 */
export function workBounds(options: WorkBoundOptions): MiddlewareHandler<AppEnv> {
  let inFlight = 0;
  return async (c, next) => {
    if (!policyOf(c.req.method, c.req.path).rules.bounded) return next();
    if (options.maxConcurrentRequests > 0 && inFlight >= options.maxConcurrentRequests) {
      return problem(
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
      return problem(
        c,
        new ApiError(503, 'Service Unavailable', `the request took longer than ${options.requestTimeoutMs} ms; retry later`, undefined, 'timeout'),
        { 'Retry-After': '5' },
      );
    }
  };
}
