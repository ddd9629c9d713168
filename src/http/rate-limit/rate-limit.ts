/** A per-client rate limit on the rate-limited routes (their policy): 429 with Retry-After. */
import type { Context, MiddlewareHandler } from 'hono';
import { socketAddress } from '../access/access-control.ts';
import type { AppEnv } from '../openapi-app.ts';
import { ApiError, refuse } from '../problem.ts';
import { policyOf } from '../route-policy.ts';
import { TokenBuckets } from './token-buckets.ts';

export interface RateLimitOptions {
  /** Requests per minute per client on the rate-limited routes; 0 disables the limit. */
  rateLimitPerMinute: number;
  clientAddress?: (c: Context) => string | undefined;
  /** Clock of the rate limiter, in milliseconds (tests). */
  now?: () => number;
}

export function rateLimit(options: RateLimitOptions): MiddlewareHandler<AppEnv> {
  if (options.rateLimitPerMinute <= 0) return (_c, next) => next();
  const buckets = new TokenBuckets(options.rateLimitPerMinute, options.now);
  const address = options.clientAddress ?? socketAddress;
  return async (c, next) => {
    if (!policyOf(c.req.method, c.req.path).rules.rateLimited) return next();
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
