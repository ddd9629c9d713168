/**
 * Who may call a guarded route (its policy in src/http/route-policy.ts): with API_KEY, a client sending
 * `Authorization: Bearer <API_KEY>`; without one, loopback clients only.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../openapi-app.ts';
import { ApiError, refuse } from '../problem.ts';
import { policyOf } from '../route-policy.ts';

export interface AccessOptions {
  /** When set, guarded routes require `Authorization: Bearer <apiKey>`; when unset, loopback clients only. */
  apiKey?: string | undefined;
  /**
   * The client's address. Default: the socket's remote address. Requests without a socket (`app.request()`
   * in tests) have none, and a client without an address is never loopback: tests that need one say so here.
   */
  clientAddress?: (c: Context) => string | undefined;
}

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

export function accessControl(options: AccessOptions): MiddlewareHandler<AppEnv> {
  const address = options.clientAddress ?? socketAddress;
  return async (c, next) => {
    if (!policyOf(c.req.method, c.req.path).rules.guarded) return next();
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
