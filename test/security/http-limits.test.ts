// Input limits, auth and rate limits on the whole service over real sockets.
import { request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testMode } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { expectCleanProblem, postJson } from './helpers.ts';

/** An address of this machine that is not loopback: requests to it come from a non-loopback client address. */
const externalAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address;

interface Problem {
  status: number;
  detail?: string;
  errors?: { in: string; field: string; message: string }[];
}

async function problemOf(res: Response, status: number): Promise<Problem> {
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(status);
  expectCleanProblem(status, res.headers.get('content-type'), text);
  return JSON.parse(text) as Problem;
}

/** POST of a large body with node:http, reading the answer even when the server stops reading the body early. */
function postLarge(url: string, size: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(size) } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (error) => (req.writableFinished ? undefined : reject(error)));
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        if (!req.write(chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

describe(`input limits and write access without API_KEY (${testMode} mode)`, () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(externalAddress ? { HOST: '0.0.0.0' } : {}, {
      configureApp: (app) =>
        app.get('/test/throws', () => {
          throw new Error('secret internal detail at /src/x.ts:1');
        }),
    });
  });
  afterAll(async () => service?.stop());

  it('413 for a JSON body over BODY_LIMIT_BYTES on /v1/ask and the tool routes', async () => {
    const big = JSON.stringify({ question: 'x'.repeat(2 * 1024 * 1024) });
    await problemOf(await postJson(`${service.url}/v1/ask`, undefined, big), 413);
    await problemOf(await postJson(`${service.url}/v1/tools/search`, undefined, JSON.stringify({ query: big })), 413);
    await problemOf(await postJson(`${service.url}/v1/tools`, undefined, JSON.stringify({ id: 'x', name: 'x', description: big })), 413);
  });

  it('413 for an import over 20 MB, before reading it', async () => {
    const res = await postLarge(`${service.url}/v1/places:import?source=big`, 21 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect(res.body).toContain('bytes');
  });

  it('400 naming the field: NUL characters, unknown fields, bad types, k and near out of range', async () => {
    const ask = (body: unknown) => postJson(`${service.url}/v1/ask`, body);
    const cases: [unknown, string][] = [
      [{ question: 'cafés\u0000 near Bryant Park' }, 'question'],
      [{ question: 'cafés near Bryant Park', colour: 'blue' }, 'colour'],
      [{ question: 'cafés near Bryant Park', k: 51 }, 'k'],
      [{ question: 'cafés near Bryant Park', k: 0 }, 'k'],
      [{ question: 'cafés near Bryant Park', near: { lon: 200, lat: 0 } }, 'near.lon'],
      [{ question: 'x'.repeat(1001) }, 'question'],
      [{ question: '   ' }, 'question'],
    ];
    for (const [body, field] of cases) {
      const problem = await problemOf(await ask(body), 400);
      expect(problem.errors?.map((e) => e.field), JSON.stringify(body).slice(0, 80)).toContain(field);
    }
    const search = await problemOf(await postJson(`${service.url}/v1/tools/search`, { query: 'ndvi', sql: 'x' }), 400);
    expect(search.errors?.map((e) => e.field)).toContain('sql');
    const items = await problemOf(await fetch(`${service.url}/collections/places/items?q=a%00b`), 400);
    expect(items.errors?.[0]).toMatchObject({ in: 'query', field: 'q' });
    const unknownParam = await problemOf(await fetch(`${service.url}/collections/places/items?where=1=1`), 400);
    expect(unknownParam.errors?.[0]?.field).toBe('where');
  });

  it('400 for malformed JSON; no stack traces or internals on errors', async () => {
    const malformed = await problemOf(await postJson(`${service.url}/v1/ask`, undefined, '{"question": "cafés'), 400);
    expect(malformed.errors?.[0]).toMatchObject({ in: 'body', field: '(root)' });
    const crash = await fetch(`${service.url}/test/throws`);
    const text = await crash.text();
    expect(crash.status).toBe(500);
    expect(text).not.toContain('secret internal detail');
    expectCleanProblem(500, crash.headers.get('content-type'), text);
  });

  it('accepts writes from loopback clients', async () => {
    const res = await postJson(`${service.url}/v1/places:import?source=local`, {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', id: 1, properties: { name: 'Local Café', amenity: 'cafe' }, geometry: { type: 'Point', coordinates: [-73.98, 40.75] } }],
    });
    expect(res.status).toBe(200);
  });

  it.skipIf(!externalAddress)('refuses writes from a non-loopback client with 403, and serves its reads', async () => {
    const remote = `http://${externalAddress}:${service.port}`;
    for (const [method, path, body] of [
      ['POST', '/v1/places:import?source=remote', { type: 'FeatureCollection', features: [] }],
      ['POST', '/v1/tools', { id: 'remote_tool', name: 'Remote', description: 'registered from afar' }],
      ['DELETE', '/v1/tools/ndvi', undefined],
      ['POST', '/v1/runs', {}],
    ] as const) {
      const res = await fetch(`${remote}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const problem = await problemOf(res, 403);
      expect(problem.detail).toMatch(/loopback/);
    }
    expect((await fetch(`${remote}/livez`)).status).toBe(200);
    expect((await fetch(`${remote}/collections`)).status).toBe(200);
    expect((await postJson(`${remote}/v1/ask`, { question: 'cafés near Bryant Park', planner: 'offline' })).status).toBe(200);
  });
});

describe(`API_KEY, rate limits, bbox area and request deadline (${testMode} mode)`, () => {
  const API_KEY = 'test-api-key-0123456789';
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ API_KEY, RATE_LIMIT_PER_MINUTE: '3', MAX_BBOX_AREA_DEG2: '1', REQUEST_TIMEOUT_MS: '1' });
  });
  afterAll(async () => service?.stop());

  it('401 for writes without the right bearer token, from loopback too; the right token passes', async () => {
    const body = { id: 'auth_probe', name: 'Probe', description: 'a tool registered to test auth' };
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${API_KEY}x`, `Basic ${API_KEY}`]) {
      const res = await postJson(`${service.url}/v1/tools`, body, undefined, authorization ? { authorization } : {});
      await problemOf(res, 401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    const del = await fetch(`${service.url}/v1/tools/auth_probe`, { method: 'DELETE' });
    await problemOf(del, 401);
    // With the key the request reaches the route (here its validation: nothing is written).
    const reached = await postJson(`${service.url}/v1/tools`, { ...body, unknownField: 1 }, undefined, { authorization: `Bearer ${API_KEY}` });
    const problem = await problemOf(reached, 400);
    expect(problem.errors?.map((e) => e.field)).toContain('unknownField');
    const imported = await postJson(`${service.url}/v1/places:import?source=keyed`, { type: 'FeatureCollection', features: [] }, undefined, {
      authorization: `Bearer ${API_KEY}`,
    });
    expect(imported.status).toBe(200);
  });

  it('reads need no key', async () => {
    expect((await fetch(`${service.url}/collections`)).status).toBe(200);
    expect((await fetch(`${service.url}/v1/tools`)).status).toBe(200);
  });

  it('answers 503 with Retry-After when an expensive read misses its deadline, and keeps serving', async () => {
    const res = await postJson(`${service.url}/v1/ask`, { question: 'cafés near Bryant Park', planner: 'offline' });
    const problem = await problemOf(res, 503);
    expect(problem.detail).toMatch(/longer than 1 ms/);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect((await fetch(`${service.url}/livez`)).status).toBe(200);
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
  });

  it('429 with Retry-After past RATE_LIMIT_PER_MINUTE on the expensive routes only', async () => {
    // 2 tokens of 3 are left after the previous test (one ask); the import above took one too.
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 4; i++) {
      const res = await postJson(`${service.url}/v1/tools/search`, { query: 'ndvi from sentinel-2' });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
      else await res.body?.cancel();
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 429).every((s) => s === 503 || s === 200)).toBe(true);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await problemOf(limited!, 429);
    expect((await fetch(`${service.url}/collections/places/items`)).status).toBe(200);
  });

  it('400 naming bbox past MAX_BBOX_AREA_DEG2', async () => {
    expect((await fetch(`${service.url}/collections/places/items?bbox=-74,40.7,-73.9,40.8`)).status).toBe(200);
    const problem = await problemOf(await fetch(`${service.url}/collections/places/items?bbox=-180,-90,180,90`), 400);
    expect(problem.errors?.[0]).toMatchObject({ in: 'query', field: 'bbox' });
  });
});
