import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testMode } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

interface FC {
  type: string;
  features: { id: number; geometry: { type: string; coordinates: number[] }; properties: Record<string, unknown> }[];
  numberReturned: number;
  links: { rel: string; href: string }[];
}

describe(`places over HTTP: OGC API - Features and imports (${testMode} mode)`, () => {
  let service: TestService;
  const get = (path: string) => fetch(`${service.url}${path}`);
  const importBody = (body: unknown, query = '') =>
    fetch(`${service.url}/v1/places:import${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const cafes = Array.from({ length: 30 }, (_, i) => ({
    type: 'Feature',
    id: `c${i}`,
    properties: { name: `Cafe ${i}`, category: 'cafe', cuisine: 'coffee_shop' },
    geometry: { type: 'Point', coordinates: [-73.98 + i * 0.001, 40.75] },
  }));

  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => service?.stop());

  it('imports a GeoJSON body, and a bad feature imports nothing and names the feature', async () => {
    const bad = [...cafes.slice(0, 5), { ...cafes[5], geometry: { type: 'Point', coordinates: ['x', 40] } }];
    const refused = await importBody({ type: 'FeatureCollection', features: bad }, '?source=cafes');
    expect(refused.status).toBe(400);
    const problem = (await refused.json()) as { errors: { field: string }[]; detail: string };
    expect(problem.errors[0]!.field).toBe('features.5');
    expect(((await (await get('/collections')).json()) as { collections: unknown[] }).collections).toHaveLength(1); // only "places": nothing written

    const res = await importBody({ type: 'FeatureCollection', features: cafes }, '?source=cafes');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ source: 'cafes', read: 30, written: 30 });
  });

  it('refuses a body that is not a FeatureCollection, or unknown query parameters', async () => {
    const notFc = await importBody({ type: 'Feature' });
    expect(notFc.status).toBe(400);
    expect(((await notFc.json()) as { errors: { field: string }[] }).errors[0]!.field).toBe('type');
    const unknown = await importBody({ type: 'FeatureCollection', features: [] }, '?colour=blue');
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { errors: { field: string }[] }).errors[0]!.field).toBe('colour');
  });

  it('lists collections with item links', async () => {
    const body = (await (await get('/collections')).json()) as { collections: { id: string; links: { rel: string }[] }[] };
    expect(body.collections.map((c) => c.id)).toEqual(['places', 'cafes']);
    expect(body.collections[1]!.links.map((l) => l.rel)).toContain('items');
  });

  it('pages items with limit and next links, in GeoJSON', async () => {
    const res = await get('/collections/cafes/items?limit=10');
    expect(res.headers.get('content-type')).toContain('application/geo+json');
    const page = (await res.json()) as FC;
    expect(page.type).toBe('FeatureCollection');
    expect(page.numberReturned).toBe(10);
    const next = page.links.find((l) => l.rel === 'next')!;
    const page2 = (await (await fetch(next.href)).json()) as FC;
    expect(page2.features[0]!.id).not.toBe(page.features[0]!.id);
    const last = (await (await get('/collections/cafes/items?limit=10&offset=20')).json()) as FC;
    expect(last.links.some((l) => l.rel === 'next')).toBe(false);
  });

  it('clamps the limit, filters by bbox and name text', async () => {
    const clamped = (await (await get('/collections/places/items?limit=100000')).json()) as FC;
    expect(clamped.numberReturned).toBe(30);
    const boxed = (await (await get('/collections/cafes/items?bbox=-73.9805,40.74,-73.9745,40.76')).json()) as FC;
    expect(boxed.features.map((f) => f.properties.name).sort()).toEqual(
      ['Cafe 0', 'Cafe 1', 'Cafe 2', 'Cafe 3', 'Cafe 4', 'Cafe 5'].sort(),
    );
    for (const f of boxed.features) expect(f.geometry.coordinates[0]).toBeLessThanOrEqual(-73.9745);
    const named = (await (await get('/collections/cafes/items?q=cafe%2012')).json()) as FC;
    expect(named.features.map((f) => f.properties.name)).toEqual(['Cafe 12']);
  });

  it.each([
    ['/collections/cafes/items?bbox=1,2,3', 'bbox'],
    ['/collections/cafes/items?bbox=10,50,5,40', 'bbox'],
    ['/collections/cafes/items?limit=0', 'limit'],
    ['/collections/cafes/items?sort=name', 'sort'],
  ])('answers %s with a 400 naming %s', async (path, field) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(((await res.json()) as { errors: { field: string }[] }).errors.map((e) => e.field)).toContain(field);
  });

  it('serves one place by id, and 404 for unknown ids and collections', async () => {
    const page = (await (await get('/collections/cafes/items?limit=1')).json()) as FC;
    const id = page.features[0]!.id;
    const place = (await (await get(`/v1/places/${id}`)).json()) as FC['features'][0];
    expect(place).toMatchObject({ type: 'Feature', id, geometry: { type: 'Point' } });
    expect((await get(`/collections/cafes/items/${id}`)).status).toBe(200);
    expect((await get('/v1/places/999999999')).status).toBe(404);
    expect((await get('/collections/nothing/items')).status).toBe(404);
  });
});
