/**
 * Input checks the route schemas cannot make: malformed or too deeply nested JSON, NUL characters
 * (PostgreSQL cannot store them) and the bbox area on the OGC items route (400 naming the field).
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../openapi-app.ts';
import { badRequest } from '../problem.ts';
import { policyOf } from '../route-policy.ts';
import { checkJsonValue } from './json-value.ts';

export interface InputCheckOptions {
  /** Largest bbox on the OGC items routes, in square degrees. */
  maxBboxAreaDeg2: number;
}

const JSON_CONTENT = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;
const ITEMS_PATH = /^\/collections\/[^/]+\/items$/;

function bboxArea(text: string): number | undefined {
  const parts = text.split(',').map(Number);
  if (parts.length !== 4 || !parts.every(Number.isFinite)) return undefined; // the route names the format error
  const [minLon, minLat, maxLon, maxLat] = parts as [number, number, number, number];
  return Math.abs(maxLon - minLon) * Math.abs(maxLat - minLat);
}

export function inputChecks(options: InputCheckOptions): MiddlewareHandler<AppEnv> {
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
      // NUL characters matter where text is stored. A relay route stores nothing: its messages become route
      // requests, checked here in turn, so a NUL in an argument is a tool error naming the argument.
      const bad = checkJsonValue(body, { nul: !policyOf(c.req.method, c.req.path).rules.relay });
      if (bad) throw badRequest(`invalid body field '${bad.field}': ${bad.message}`, [bad]);
    }
    return next();
  };
}
