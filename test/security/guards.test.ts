// The HTTP edge's defences on a bare app (no database): access control, rate limits, body limits, input
// checks, work bounds and the 503 mapping. Requests go through `app.request()`, which has no socket.
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../src/http/openapi-app.ts';
import {
  bearerMatches,
  checkJsonValue,
  DEFAULT_SECURITY,
  dependencyFailure,
  installSecurity,
  isExpensiveRoute,
  isLoopback,
  isWriteRoute,
  MAX_JSON_DEPTH,
  normalisePath,
  TokenBuckets,
  unavailableReason,
  type SecurityOptions,
} from '../../src/http/security.ts';
import { ApiError, problem } from '../../src/http/problem.ts';

interface Problem {
  status: number;
  title: string;
  detail?: string;
  errors?: { in: string; field: string; message: string }[];
}

/** A bare app with the defences and stand-ins for the real routes. */
function testApp(overrides: Partial<SecurityOptions> = {}, handlerDelayMs = 0) {
  const app = createRouter();
  installSecurity(app, { ...DEFAULT_SECURITY, ...overrides });
  const ok = async (c: { json: (b: unknown) => Response; req: { raw: Request } }) => {
    if (handlerDelayMs) await new Promise((r) => setTimeout(r, handlerDelayMs));
    return c.json({ ok: true });
  };
  app.post('/v1/ask', ok);
  app.post('/v1/tools', ok);
  app.put('/v1/tools/:id', ok);
  app.delete('/v1/tools/:id', ok);
  app.post('/v1/tools/search', ok);
  app.get('/v1/tools', ok);
  app.post('/v1/:op{places:import}', ok);
  app.post('/v1/runs', ok);
  app.get('/v1/memory/items', ok);
  app.get('/collections/:id/items', ok);
  app.get('/fail/:kind', (c) => {
    const error = Object.assign(new Error('boom'), { code: c.req.param('kind') });
    throw error;
  });
  app.onError((error, c) => {
    if (error instanceof ApiError) return problem(c, error);
    return dependencyFailure(c, error) ?? problem(c, new ApiError(500, 'Internal Server Error', 'unexpected'));
  });
  return app;
}

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('route classes', () => {
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
    ['GET', '/v1/memory/items', true],
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
  ])('%s %s is a write route: %s', (method, path, expected) => {
    expect(isWriteRoute(method, path)).toBe(expected);
  });

  it('rate-limits the expensive routes only', () => {
    expect(isExpensiveRoute('POST', '/v1/ask')).toBe(true);
    expect(isExpensiveRoute('POST', '/v1/tools/search')).toBe(true);
    expect(isExpensiveRoute('POST', '/v1/places:import')).toBe(true);
    expect(isExpensiveRoute('GET', '/collections/places/items')).toBe(false);
    expect(isExpensiveRoute('GET', '/livez')).toBe(false);
  });

  it('normalises paths', () => {
    expect(normalisePath('//v1///Tools/%41/')).toBe('/v1/tools/a');
    expect(normalisePath('/v1/%E0%A4%A')).toBe('/v1/%e0%a4%a');
  });

  it('knows loopback addresses', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a)).toBe(true);
    for (const a of [undefined, '', '192.0.2.1', '::ffff:10.0.0.1', '128.0.0.1', 'fe80::1', '127.0.0.1.evil']) expect(isLoopback(a)).toBe(false);
  });

  it('compares bearer tokens whatever their length', () => {
    expect(bearerMatches('Bearer s3cret', 's3cret')).toBe(true);
    expect(bearerMatches('bearer   s3cret', 's3cret')).toBe(true);
    expect(bearerMatches('Bearer s3cret2', 's3cret')).toBe(false);
    expect(bearerMatches('Bearer s3cre', 's3cret')).toBe(false);
    expect(bearerMatches('Basic s3cret', 's3cret')).toBe(false);
    expect(bearerMatches('s3cret', 's3cret')).toBe(false);
    expect(bearerMatches(undefined, 's3cret')).toBe(false);
    expect(bearerMatches('Bearer ', 's3cret')).toBe(false);
    expect(bearerMatches(`Bearer ${'x'.repeat(100_000)}`, 's3cret')).toBe(false);
  });
});

describe('access control for write routes', () => {
  it('without API_KEY: refuses clients without an address (app.request) or not on loopback, with 403', async () => {
    const app = testApp();
    for (const [path, init] of [
      ['/v1/tools', json({})],
      ['/v1/tools/x', { method: 'DELETE' }],
      ['/v1/places:import', json({ type: 'FeatureCollection', features: [] })],
      ['/v1/runs', json({})],
      ['/v1/memory/items', {}],
    ] as const) {
      const res = await app.request(path, init);
      expect(res.status, path).toBe(403);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(((await res.json()) as Problem).detail).toMatch(/loopback/);
    }
    const remote = testApp({ clientAddress: () => '192.0.2.7' });
    const refused = await remote.request('/v1/tools', json({ id: 'x' }));
    expect(refused.status).toBe(403);
    expect(refused.headers.get('connection')).toBe('close'); // the unread body is not taken for a next request
  });

  it('without API_KEY: accepts loopback clients', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const app = testApp({ clientAddress: () => address });
      expect((await app.request('/v1/tools', json({}))).status).toBe(200);
    }
  });

  it('read routes stay open to everyone', async () => {
    const app = testApp({ clientAddress: () => '192.0.2.7' });
    expect((await app.request('/v1/tools')).status).toBe(200);
    expect((await app.request('/v1/tools/search', json({}))).status).toBe(200);
    expect((await app.request('/v1/ask', json({}))).status).toBe(200);
  });

  it('with API_KEY: 401 with WWW-Authenticate unless the bearer token matches, from loopback too', async () => {
    const app = testApp({ apiKey: 'k3y-of-some-length', clientAddress: () => '127.0.0.1' });
    for (const authorization of [undefined, 'Bearer wrong', 'Bearer k3y-of-some-lengt', 'Bearer k3y-of-some-length-', 'Basic k3y-of-some-length']) {
      const res = await app.request('/v1/tools', json({}, authorization ? { authorization } : {}));
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    const ok = await app.request('/v1/tools', json({}, { authorization: 'Bearer k3y-of-some-length' }));
    expect(ok.status).toBe(200);
    // any address, with the key
    const remote = testApp({ apiKey: 'k3y-of-some-length', clientAddress: () => '192.0.2.7' });
    expect((await remote.request('/v1/tools/x', { ...json({}, { authorization: 'Bearer k3y-of-some-length' }), method: 'PUT' })).status).toBe(200);
    expect((await remote.request('/v1/tools/x', { method: 'DELETE' })).status).toBe(401);
  });
});

describe('rate limits', () => {
  it('token bucket: a burst of the per-minute rate, then one token per 60/rate seconds', () => {
    let now = 0;
    const buckets = new TokenBuckets(6, () => now);
    for (let i = 0; i < 6; i++) expect(buckets.take('a')).toBe(0);
    expect(buckets.take('a')).toBe(10_000); // 6 per minute: one every 10 s
    expect(buckets.take('b')).toBe(0); // per client
    now = 9_000;
    expect(buckets.take('a')).toBe(1_000);
    now = 10_000;
    expect(buckets.take('a')).toBe(0);
  });

  it('keeps a bounded number of clients', () => {
    let now = 0;
    const buckets = new TokenBuckets(60, () => now, 100);
    for (let i = 0; i < 1000; i++) buckets.take(`client-${i}`);
    expect(buckets.size).toBeLessThanOrEqual(101);
    now = 60_000;
    buckets.take('late');
    expect(buckets.size).toBeLessThanOrEqual(101);
  });

  it('answers 429 problem+json with Retry-After on expensive routes, per client', async () => {
    let now = 0;
    let address = '127.0.0.1';
    const app = testApp({ rateLimitPerMinute: 2, now: () => now, clientAddress: () => address });
    expect((await app.request('/v1/ask', json({}))).status).toBe(200);
    expect((await app.request('/v1/tools/search', json({}))).status).toBe(200);
    const limited = await app.request('/v1/ask', json({}));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    expect(limited.headers.get('content-type')).toContain('application/problem+json');
    expect((await app.request('/collections/places/items')).status).toBe(200); // cheap routes are not counted
    address = '127.0.0.2';
    expect((await app.request('/v1/ask', json({}))).status).toBe(200);
    address = '127.0.0.1';
    now = 30_000;
    expect((await app.request('/v1/ask', json({}))).status).toBe(200);
  });

  it('an app built without options (in-process: tests, eval) has every defence but the rate limit', async () => {
    const app = createRouter();
    installSecurity(app);
    app.post('/v1/ask', (c) => c.json({ ok: true }));
    app.post('/v1/tools', (c) => c.json({ ok: true }));
    for (let i = 0; i < 700; i++) expect((await app.request('/v1/ask', json({}))).status).toBe(200);
    expect((await app.request('/v1/tools', json({}))).status).toBe(403);
  });

  it('0 disables the limit', async () => {
    const app = testApp({ rateLimitPerMinute: 0 });
    for (let i = 0; i < 20; i++) expect((await app.request('/v1/ask', json({}))).status).toBe(200);
  });
});

describe('body limits and input checks', () => {
  it('413 for a body over the limit, announced or streamed', async () => {
    const app = testApp({ bodyLimitBytes: 2048 });
    const big = JSON.stringify({ question: 'x'.repeat(4096) });
    const announced = await app.request('/v1/ask', json(big));
    expect(announced.status).toBe(413);
    expect(((await announced.json()) as Problem).errors?.[0]?.field).toBe('(root)');
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await app.request('/v1/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await app.request('/v1/ask', json({ question: 'small' }))).status).toBe(200);
  });

  it('the import has its own, larger limit', async () => {
    const app = testApp({ bodyLimitBytes: 2048, importBodyLimitBytes: 8192, clientAddress: () => '127.0.0.1' });
    const body = JSON.stringify({ type: 'FeatureCollection', features: [], pad: 'x'.repeat(4096) });
    expect((await app.request('/v1/places:import', json(body))).status).toBe(200);
    const over = JSON.stringify({ type: 'FeatureCollection', features: [], pad: 'x'.repeat(9000) });
    expect((await app.request('/v1/places:import', json(over))).status).toBe(413);
  });

  it('400 naming the body for malformed JSON, NUL characters and hostile nesting', async () => {
    const app = testApp();
    for (const [body, field] of [
      ['{"question": "cafés near', '(root)'],
      ['{"question": NaN}', '(root)'],
      [JSON.stringify({ question: 'cafés\u0000 near' }), 'question'],
      [JSON.stringify({ near: { lon: 1, "la\u0000t": 2 } }), 'near.la\u0000t'],
      ['['.repeat(10_000) + ']'.repeat(10_000), Array(MAX_JSON_DEPTH).fill(0).join('.')],
      ['['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1), Array(MAX_JSON_DEPTH).fill(0).join('.')],
    ] as const) {
      const res = await app.request('/v1/ask', json(body));
      expect(res.status, body.slice(0, 40)).toBe(400);
      const p = (await res.json()) as Problem;
      expect(p.errors?.[0]?.in).toBe('body');
      expect(p.errors?.[0]?.field).toBe(field);
    }
    // GeoJSON-deep bodies are fine
    const polygon = { type: 'Feature', geometry: { type: 'MultiPolygon', coordinates: [[[[0, 0], [1, 0], [1, 1], [0, 0]]]] } };
    expect((await app.request('/v1/ask', json({ features: [polygon] }))).status).toBe(200);
  });

  it('checks JSON without recursion (a deep body cannot overflow the stack)', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(checkJsonValue(deep)?.message).toMatch(/nested deeper/);
    expect(checkJsonValue({ a: [1, 2, { b: 'ok' }] })).toBeUndefined();
  });

  it('400 naming the query parameter or the path for a NUL character', async () => {
    const res = await testApp().request('/collections/places/items?q=caf%00e');
    expect(res.status).toBe(400);
    expect(((await res.json()) as Problem).errors?.[0]).toMatchObject({ in: 'query', field: 'q' });
    const path = await testApp().request('/collections/pl%00aces/items');
    expect(path.status).toBe(400);
    expect(((await path.json()) as Problem).errors?.[0]).toMatchObject({ in: 'path' });
  });

  it('400 naming bbox when its area is over the limit', async () => {
    const app = testApp({ maxBboxAreaDeg2: 1 });
    expect((await app.request('/collections/places/items?bbox=-74,40.7,-73.9,40.8')).status).toBe(200);
    const res = await app.request('/collections/places/items?bbox=-180,-90,180,90');
    expect(res.status).toBe(400);
    expect(((await res.json()) as Problem).errors?.[0]).toMatchObject({ in: 'query', field: 'bbox' });
  });
});

describe('work bounds on the expensive read routes', () => {
  it('503 with Retry-After after the deadline; the slot is held until the work ends', async () => {
    const app = testApp({ requestTimeoutMs: 50, maxConcurrentRequests: 1 }, 300);
    const started = performance.now();
    const late = await app.request('/v1/ask', json({}));
    expect(late.status).toBe(503);
    expect(late.headers.get('retry-after')).toBeTruthy();
    expect(((await late.json()) as Problem).detail).toMatch(/longer than 50 ms/);
    expect(performance.now() - started).toBeLessThan(280);
    // the first request's handler is still running: the only slot is taken
    const busy = await app.request('/v1/tools/search', json({}));
    expect(busy.status).toBe(503);
    expect(((await busy.json()) as Problem).detail).toMatch(/busy/);
    await new Promise((r) => setTimeout(r, 350));
    const relaxed = testApp({ requestTimeoutMs: 1000, maxConcurrentRequests: 1 }, 10);
    expect((await relaxed.request('/v1/ask', json({}))).status).toBe(200);
  });

  it('caps concurrent requests and frees the slots afterwards', async () => {
    const app = testApp({ maxConcurrentRequests: 2 }, 100);
    const statuses = await Promise.all([1, 2, 3, 4].map(async () => (await app.request('/v1/ask', json({}))).status));
    expect(statuses.sort()).toEqual([200, 200, 503, 503]);
    expect((await app.request('/v1/ask', json({}))).status).toBe(200);
  });

  it('writes and cheap reads are not cut short', async () => {
    const app = testApp({ requestTimeoutMs: 20, clientAddress: () => '127.0.0.1' }, 100);
    expect((await app.request('/v1/places:import', json({ type: 'FeatureCollection', features: [] }))).status).toBe(200);
    expect((await app.request('/collections/places/items')).status).toBe(200);
  });
});

describe('database failures become 503', () => {
  it.each([
    ['ECONNREFUSED', /unavailable/],
    ['57P01', /unavailable/],
    ['08006', /unavailable/],
    ['57014', /took too long/],
  ])('%s', async (code, detail) => {
    const res = await testApp().request(`/fail/${code}`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(((await res.json()) as Problem).detail).toMatch(detail);
  });

  it('other errors stay 500, without details', async () => {
    const res = await testApp().request('/fail/42P01');
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('boom');
  });

  it('recognises connection failures by message and cause', () => {
    expect(unavailableReason(new Error('Connection terminated unexpectedly'))).toBeDefined();
    expect(unavailableReason(new Error('timeout exceeded when trying to connect'))).toBeDefined();
    expect(unavailableReason(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) }))).toBeDefined();
    expect(unavailableReason(Object.assign(new Error('x'), { name: 'EmbeddingServiceError' }))).toMatch(/embeddings/);
    expect(unavailableReason(new Error('syntax error'))).toBeUndefined();
  });
});
