import { VectorTile } from '@mapbox/vector-tile';
import { sql } from 'kysely';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasNycData, NO_NYC_DATA } from '../helpers/data.ts';
import { isServer, testMode } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

interface Link {
  rel: string;
  href: string;
  type?: string;
}
interface FC {
  features: { id: number; properties: { name: string | null; category: string | null; source: string } }[];
  numberReturned: number;
  numberMatched?: number;
  links: Link[];
}

/** The tile holding a lon/lat at a zoom (Web Mercator). */
function tileOf(lon: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return [Math.floor(((lon + 180) / 360) * n), Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n)];
}

describe.skipIf(!hasNycData)(`OGC API - Features, CQL2 and tiles over HTTP on the Midtown data (${testMode} mode)`, () => {
  if (!hasNycData) console.warn(NO_NYC_DATA);
  let service: TestService;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${service.url}${path}`, { headers });
  const json = async <T>(path: string, headers: Record<string, string> = {}) => {
    const res = await get(path, headers);
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };

  beforeAll(async () => {
    service = await startTestService({}, { fixture: 'nyc' });
  });
  afterAll(async () => service?.stop());

  it('answers the landing page as JSON to JSON clients and ?f=json, and keeps the explorer for browsers', async () => {
    for (const [path, headers] of [
      ['/', { accept: 'application/json' }],
      ['/?f=json', { accept: 'text/html,application/xhtml+xml' }],
    ] as const) {
      const res = await get(path, headers);
      expect(res.headers.get('content-type')).toContain('application/json');
      const body = (await res.json()) as { links: Link[] };
      const rels = Object.fromEntries(body.links.map((l) => [l.rel, l]));
      expect(Object.keys(rels)).toEqual(expect.arrayContaining(['self', 'service-desc', 'service-doc', 'conformance', 'data']));
      expect(rels['service-desc']!.type).toBe('application/vnd.oai.openapi+json;version=3.0');
    }
    for (const [path, headers] of [
      ['/', { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }],
      ['/?f=html', { accept: 'application/json' }],
      ['/', {}],
    ] as const) {
      expect((await get(path, headers)).headers.get('content-type'), path).toContain('text/html');
    }
  });

  it('serves the service description as OpenAPI 3.0 with the OpenAPI media type where asked', async () => {
    const res = await get('/api', { accept: 'application/vnd.oai.openapi+json;version=3.0, application/json' });
    expect(res.headers.get('content-type')).toBe('application/vnd.oai.openapi+json;version=3.0');
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, { get?: { parameters?: { name: string; schema?: { enum?: string[]; default?: number; maximum?: number } }[] } }>;
    };
    expect(doc.openapi).toMatch(/^3\.0\./);
    const params = doc.paths['/collections/{collectionId}/items']!.get!.parameters!;
    expect(params.map((p) => p.name)).toEqual(expect.arrayContaining(['bbox', 'limit', 'datetime', 'filter', 'filter-lang']));
    expect(params.find((p) => p.name === 'filter-lang')!.schema!.enum).toEqual(['cql2-text', 'cql2-json', 'cql-text']);
    // Clients (QGIS) size their pages from the stated default and maximum.
    expect(params.find((p) => p.name === 'limit')!.schema).toMatchObject({ default: 100, maximum: 1000 });
    expect((await get('/api')).headers.get('content-type')).toContain('application/json');
  });

  it('declares its conformance classes, tiles only where it can serve them', async () => {
    const body = await json<{ conformsTo: string[]; datetime: string }>('/conformance');
    expect(body.conformsTo).toEqual(
      expect.arrayContaining([
        'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
        'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
        'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
        'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter',
        'http://www.opengis.net/spec/cql2/1.0/conf/basic-cql2',
        'http://www.opengis.net/spec/cql2/1.0/conf/cql2-text',
        'http://www.opengis.net/spec/cql2/1.0/conf/cql2-json',
      ]),
    );
    expect(body.conformsTo.some((c) => c.includes('ogcapi-tiles'))).toBe(isServer);
    expect(body.datetime).toMatch(/open at either end/);
  });

  it('describes a collection with its extent from the data, item type, CRS and links', async () => {
    const osm = await json<{ id: string; itemType: string; crs: string[]; extent: { spatial: { bbox: number[][] } }; links: Link[] }>('/collections/osm');
    expect(osm).toMatchObject({ id: 'osm', itemType: 'feature', crs: ['http://www.opengis.net/def/crs/OGC/1.3/CRS84'] });
    const { rows } = await sql<{ minx: number; miny: number; maxx: number; maxy: number }>`
      SELECT ST_XMin(e) AS minx, ST_YMin(e) AS miny, ST_XMax(e) AS maxx, ST_YMax(e) AS maxy
      FROM (SELECT ST_Extent(geom) AS e FROM places WHERE source = 'osm') t`.execute(service.database.db);
    const r = rows[0]!;
    expect(osm.extent.spatial.bbox[0]!.map((v) => v.toFixed(6))).toEqual([r.minx, r.miny, r.maxx, r.maxy].map((v) => Number(v).toFixed(6)));
    expect(osm.links.map((l) => l.rel)).toEqual(expect.arrayContaining(['self', 'items', 'http://www.opengis.net/def/rel/ogc/1.0/queryables']));
    const all = await json<{ collections: { id: string; extent?: unknown }[] }>('/collections');
    expect(all.collections.every((c) => c.extent)).toBe(true);
    expect((await get('/collections/no-such-source')).status).toBe(404);
  });

  it('pages items with numberMatched, next and prev links that keep every parameter, and a Content-Crs header', async () => {
    const query = "/collections/osm/items?limit=7&bbox=-73.99,40.75,-73.98,40.76&filter=category%20IS%20NOT%20NULL&datetime=../..";
    const res = await get(query);
    expect(res.headers.get('content-crs')).toBe('<http://www.opengis.net/def/crs/OGC/1.3/CRS84>');
    const first = (await res.json()) as FC;
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM places WHERE source = 'osm' AND category IS NOT NULL
        AND ST_Intersects(geom, ST_MakeEnvelope(-73.99, 40.75, -73.98, 40.76, 4326))`.execute(service.database.db);
    expect(first.numberMatched).toBe(Number(rows[0]!.n));
    expect(first.numberReturned).toBe(7);
    const next = new URL(first.links.find((l) => l.rel === 'next')!.href);
    for (const name of ['bbox', 'filter', 'datetime']) expect(next.searchParams.get(name), name).toBe(new URL(`${service.url}${query}`).searchParams.get(name));
    expect(next.searchParams.get('offset')).toBe('7');
    const second = (await (await fetch(next)).json()) as FC;
    const prev = new URL(second.links.find((l) => l.rel === 'prev')!.href);
    expect(prev.searchParams.get('offset')).toBe('0');
    expect(prev.searchParams.get('filter')).toBe('category IS NOT NULL');
    expect(((await (await fetch(prev)).json()) as FC).features.map((f) => f.id)).toEqual(first.features.map((f) => f.id));
    expect(first.links.some((l) => l.rel === 'prev')).toBe(false);
  });

  it('reads datetime as stated: open intervals match every place, instants and closed intervals none, bad values are a 400', async () => {
    const count = async (datetime: string) => (await json<FC>(`/collections/osm/items?limit=1&datetime=${encodeURIComponent(datetime)}`)).numberReturned;
    expect(await count('2020-01-01T00:00:00Z/..')).toBe(1);
    expect(await count('../2020-01-01')).toBe(1);
    expect(await count('2020-01-01')).toBe(0);
    expect(await count('2020-01-01/2021-01-01')).toBe(0);
    const bad = await get('/collections/osm/items?datetime=yesterday');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: { field: string }[] }).errors[0]!.field).toBe('datetime');
  });

  it('filters with CQL2 text and JSON like SQL on the table', async () => {
    const { rows } = await sql<{ id: number }>`
      SELECT id FROM places WHERE source = 'osm' AND category IN ('cafe', 'bakery') AND name LIKE 'B%' ORDER BY id`.execute(service.database.db);
    expect(rows.length).toBeGreaterThan(0);
    const text = await json<FC>(`/collections/osm/items?limit=1000&filter=${encodeURIComponent("category IN ('cafe','bakery') AND name LIKE 'B%'")}`);
    expect(text.features.map((f) => f.id)).toEqual(rows.map((r) => Number(r.id)));
    const filterJson = { op: 'and', args: [{ op: 'in', args: [{ property: 'category' }, ['cafe', 'bakery']] }, { op: 'like', args: [{ property: 'name' }, 'B%'] }] };
    const viaJson = await json<FC>(`/collections/osm/items?limit=1000&filter-lang=cql2-json&filter=${encodeURIComponent(JSON.stringify(filterJson))}`);
    expect(viaJson.features.map((f) => f.id)).toEqual(rows.map((r) => Number(r.id)));
  });

  it('refuses a bad filter with a problem naming the position, and an unknown property by name', async () => {
    const res = await get(`/collections/osm/items?filter=${encodeURIComponent("category = 'cafe' AND OR")}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await res.json()) as { detail: string; errors: { field: string }[] };
    expect(problem.detail).toMatch(/position 23/);
    expect(problem.errors[0]!.field).toBe('filter');
    const unknown = (await (await get(`/collections/osm/items?filter=${encodeURIComponent("embedding = 'x'")}`)).json()) as { detail: string };
    expect(unknown.detail).toMatch(/unknown property 'embedding'/);
    expect((await get('/collections/osm/items?filter-lang=sql&filter=1')).status).toBe(400);
  });

  it('lists the queryables as JSON Schema', async () => {
    const res = await get('/collections/osm/queryables', { accept: 'application/schema+json' });
    expect(res.headers.get('content-type')).toBe('application/schema+json');
    const schema = (await res.json()) as { properties: Record<string, unknown>; additionalProperties: boolean };
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['name', 'category', 'source', 'sourceId', 'geometry']));
    expect(Object.keys(schema.properties).some((k) => k.startsWith('tags.'))).toBe(true);
    expect((await get('/collections/osm/queryables', { accept: 'application/json' })).headers.get('content-type')).toBe('application/json');
  });

  it('refuses a tile outside the tile matrix with a 400 in both modes', async () => {
    for (const path of ['3/8/0', '3/0/8', '23/0/0', '-1/0/0']) {
      const res = await get(`/collections/osm/tiles/WebMercatorQuad/${path}`);
      expect(res.status, path).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it.skipIf(isServer)('answers tiles in embedded mode with a clear 501', async () => {
    const [x, y] = tileOf(-73.9855, 40.758, 16);
    const res = await get(`/collections/osm/tiles/WebMercatorQuad/16/${x}/${y}`);
    expect(res.status).toBe(501);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/DATABASE_URL/);
  });

  it.skipIf(!isServer)('serves Midtown as Mapbox Vector Tiles whose features carry the expected names', async () => {
    const z = 16;
    const [x, y] = tileOf(-73.9855, 40.758, z);
    const res = await get(`/collections/osm/tiles/WebMercatorQuad/${z}/${x}/${y}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.mapbox-vector-tile');
    const tile = new VectorTile(new PbfReader(new Uint8Array(await res.arrayBuffer())));
    const layer = tile.layers.osm!;
    expect(layer).toBeDefined();
    const names = new Set(Array.from({ length: layer.length }, (_, i) => layer.feature(i).properties.name));
    // The names a SQL query finds among the places inside this tile's bounds (point places, away from the edges).
    const n = 2 ** z;
    const lon = (col: number) => (col / n) * 360 - 180;
    const lat = (row: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * row) / n))) * 180) / Math.PI;
    const { rows } = await sql<{ name: string }>`
      SELECT DISTINCT name FROM places WHERE source = 'osm' AND name IS NOT NULL AND GeometryType(geom) = 'POINT'
        AND ST_Intersects(geom, ST_MakeEnvelope(${lon(x)}, ${lat(y + 1)}, ${lon(x + 1)}, ${lat(y)}, 4326))`.execute(service.database.db);
    expect(rows.length).toBeGreaterThan(5);
    for (const r of rows) expect(names.has(r.name), r.name).toBe(true);
    const sample = layer.feature(0);
    expect(Object.keys(sample.properties)).toEqual(expect.arrayContaining(['category', 'source']));
  });

  it.skipIf(!isServer)('answers 204 for a tile with nothing in it and caps the features per tile at low zoom', async () => {
    const [x, y] = tileOf(-30, -40, 10); // the South Atlantic
    expect((await get(`/collections/osm/tiles/WebMercatorQuad/10/${x}/${y}`)).status).toBe(204);
    const [cx, cy] = tileOf(-73.9855, 40.758, 10);
    const res = await get(`/collections/places/tiles/WebMercatorQuad/10/${cx}/${cy}`);
    const layer = new VectorTile(new PbfReader(new Uint8Array(await res.arrayBuffer()))).layers.places!;
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM places WHERE geom && ST_Transform(ST_TileEnvelope(10, ${cx}::int, ${cy}::int), 4326)`.execute(service.database.db);
    expect(Number(rows[0]!.n)).toBeGreaterThan(10_000);
    // At most the zoom's limit (a shape that simplifies to nothing in the tile is dropped).
    expect(layer.length).toBeLessThanOrEqual(1000);
    expect(layer.length).toBeGreaterThan(900);
  });
});
