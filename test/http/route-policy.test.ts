// The policies the routes declare on their definitions, as the security middleware reads them.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.ts';
import { declaredRoutes, normalisePath, policyOf } from '../../src/http/route-policy.ts';
import { createLogger } from '../../src/log.ts';
import './helpers.ts';

describe('route policies', () => {
  it.each([
    ['POST', '/v1/tools', true],
    ['PUT', '/v1/tools/ndvi', true],
    ['DELETE', '/v1/tools/ndvi', true],
    ['PATCH', '/v1/tools/ndvi', true],
    ['POST', '/v1/tools/search', false],
    ['GET', '/v1/tools', false],
    ['GET', '/v1/tools/ndvi', false],
    ['POST', '/v1/places:import', true],
    ['POST', '/v1/runs', true],
    ['GET', '/v1/runs/7', true],
    ['GET', '/v1/memory/workflows', true],
    ['HEAD', '/v1/runs', true],
    ['GET', '/v1/backup', true],
    ['DELETE', '/v1/memory', true],
    ['POST', '/v1/ask', false],
    ['POST', '/v1/workflows/plan', false],
    ['GET', '/collections/places/items', false],
    // spellings the router may still route must not slip past
    ['POST', '/v1//tools', true],
    ['POST', '/v1/tools/', true],
    ['DELETE', '/V1/TOOLS/x', true],
    ['POST', '/v1/%74ools', true],
    ['POST', '/v1/places%3Aimport', true],
    ['POST', '/v1/tools/search/', false],
  ])('%s %s is guarded: %s', (method, path, expected) => {
    expect(policyOf(method, path).rules.guarded).toBe(expected);
  });

  const rateLimited = (method: string, path: string) => policyOf(method, path).rules.rateLimited;

  it('rate-limits the expensive routes only', () => {
    expect(rateLimited('POST', '/v1/ask')).toBe(true);
    expect(rateLimited('POST', '/v1/tools/search')).toBe(true);
    expect(rateLimited('POST', '/v1/places:import')).toBe(true);
    expect(rateLimited('GET', '/collections/places/items')).toBe(false);
    expect(rateLimited('GET', '/livez')).toBe(false);
  });

  it('normalises paths', () => {
    expect(normalisePath('//v1///Tools/%41/')).toBe('/v1/tools/a');
    expect(normalisePath('/v1/%E0%A4%A')).toBe('/v1/%e0%a4%a');
  });

});

describe('every route declares its policy', () => {
  it('each route of the app matches a declared method and path template', () => {
    const app = createApp({
      db: undefined as never,
      embedder: undefined as never,
      mode: 'embedded',
      log: createLogger('silent'),
      lifecycle: { draining: false },
    });
    const routes = app.routes.filter((r) => r.method !== 'ALL');
    expect(routes.length).toBeGreaterThan(30);
    const undeclared = routes.filter((r) => policyOf(r.method, example(r.path)).path === undefined).map((r) => `${r.method} ${r.path}`);
    expect(undeclared).toEqual([]);
  });

  it('the write routes are guarded and the reads of stored client data too', () => {
    const guarded = declaredRoutes().filter((r) => policyOf(r.method, example(r.path)).rules.guarded).map((r) => `${r.method} ${r.path}`);
    expect(guarded).toEqual(expect.arrayContaining(['POST /v1/tools', 'DELETE /v1/tools/{id}', 'GET /v1/runs', 'POST /v1/memory/reset', 'GET /v1/backup']));
    expect(guarded).not.toContain('POST /v1/ask');
    expect(guarded).not.toContain('POST /v1/tools/search');
  });
});

/** A concrete path for a route pattern (Hono's `:id`, `:op{places:import}`, OpenAPI's `{id}`). */
function example(path: string): string {
  return path
    .replace(/:op\{([^}]+)\}/g, '$1')
    .replace(/\/:[A-Za-z]+/g, '/x')
    .replace(/\{[^}]+\}/g, 'x')
    .replace(/\*$/, 'x');
}
