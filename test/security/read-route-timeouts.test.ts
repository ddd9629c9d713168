// Server mode: the read routes other than /v1/ask (OGC items and collections, places by id, tool search and
// list, workflow plans, the explorer's basemap) run on the read-only connections with the statement timeout.
// A slow query is forced by holding an exclusive lock on the tables they read from another connection: every
// statement then waits, and only the timeout ends it. Without it these requests would hang until the lock goes.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineEmbedderWithLexicons } from '../../src/embedding/configured.ts';
import { loadBuiltinTools } from '../../src/tools/registry.ts';
import { hasNycData, NO_NYC_DATA } from '../helpers/data.ts';
import { isServer } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { expectCleanProblem, postJson } from './helpers.ts';

const QUERY_TIMEOUT_MS = 1000;

const READ_ROUTES: { name: string; send: (url: string) => Promise<Response> }[] = [
  { name: 'GET /collections', send: (url) => fetch(`${url}/collections`) },
  { name: 'GET /collections/places/items', send: (url) => fetch(`${url}/collections/places/items?bbox=-73.99,40.745,-73.97,40.76&limit=50`) },
  { name: 'GET /collections/places/items/{id}', send: (url) => fetch(`${url}/collections/places/items/1`) },
  { name: 'GET /collections/osm', send: (url) => fetch(`${url}/collections/osm`) },
  { name: 'GET /collections/osm/queryables', send: (url) => fetch(`${url}/collections/osm/queryables`) },
  { name: 'GET /collections/osm/items?filter=', send: (url) => fetch(`${url}/collections/osm/items?filter=${encodeURIComponent("category = 'cafe'")}`) },
  { name: 'GET /collections/places/tiles/…', send: (url) => fetch(`${url}/collections/places/tiles/WebMercatorQuad/16/19299/24631`) },
  { name: 'GET /v1/places/{id}', send: (url) => fetch(`${url}/v1/places/1`) },
  { name: 'POST /v1/tools/search', send: (url) => postJson(`${url}/v1/tools/search`, { query: 'compute NDVI from Sentinel-2 L2A' }) },
  { name: 'POST /v1/workflows/plan', send: (url) => postJson(`${url}/v1/workflows/plan`, { query: 'detect new buildings between two Sentinel-2 images' }) },
  { name: 'GET /v1/tools', send: (url) => fetch(`${url}/v1/tools?limit=5`) },
  { name: 'GET /web/basemap', send: (url) => fetch(`${url}/web/basemap?bbox=-73.99,40.745,-73.97,40.76`) },
];

describe.skipIf(!isServer || !hasNycData)('statement timeout on the read routes (server mode)', () => {
  let service: TestService;
  let locker: pg.Client;

  beforeAll(async () => {
    service = await startTestService({ QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS), RATE_LIMIT_PER_MINUTE: '0' }, { fixture: 'nyc' });
    await loadBuiltinTools(service.database.db, createOfflineEmbedderWithLexicons());
    locker = new pg.Client({ connectionString: service.location.env.DATABASE_URL });
    await locker.connect();
  }, 300_000);
  afterAll(async () => {
    await locker?.end();
    await service?.stop();
  });

  it('answer 200 normally', async () => {
    for (const route of READ_ROUTES) {
      const res = await route.send(service.url);
      await res.arrayBuffer();
      expect({ route: route.name, status: res.status }).toEqual({ route: route.name, status: 200 });
    }
  });

  it('cut a slow query with a 503 problem+json within the timeout, never hang, and recover', async () => {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE places, tools, tools_revision IN ACCESS EXCLUSIVE MODE');
    try {
      const results = await Promise.all(
        READ_ROUTES.map(async (route) => {
          const started = performance.now();
          const res = await route.send(service.url);
          return { route: route.name, status: res.status, ms: performance.now() - started, type: res.headers.get('content-type'), text: await res.text() };
        }),
      );
      for (const r of results) {
        expect({ route: r.route, status: r.status }).toEqual({ route: r.route, status: 503 });
        expectCleanProblem(503, r.type, r.text);
        expect(JSON.parse(r.text).detail).toMatch(/took too long/);
        // The statement timeout plus a loaded machine's answer time: nowhere near "until the lock goes".
        expect(r.ms).toBeLessThan(QUERY_TIMEOUT_MS + 5_000);
      }
      expect((await fetch(`${service.url}/livez`)).status).toBe(200);
    } finally {
      await locker.query('ROLLBACK');
    }
    for (const route of READ_ROUTES) {
      const res = await route.send(service.url);
      await res.arrayBuffer();
      expect({ route: route.name, status: res.status }).toEqual({ route: route.name, status: 200 });
    }
  }, 60_000);
});

if (!hasNycData) console.warn(NO_NYC_DATA);
