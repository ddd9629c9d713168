/**
 * OGC API – Features (Part 1 Core, GeoJSON, OpenAPI 3.0; Part 3 filtering with CQL2) and OGC API – Tiles
 * style vector tiles: the landing page as JSON, `/conformance`, the collections with their extents and
 * queryables, and MVT tiles. The items themselves are served by src/places/places.routes.ts.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Db, DatabaseMode } from '../db/database.ts';
import { createRouter } from '../http/openapi-app.ts';
import { ApiError, badRequest, notFound } from '../http/problem.ts';
import { sourceExists } from '../places/places.repository.ts';
import { GEOMETRY_PROPERTY } from './cql2/index.ts';
import { frequentTagKeys, sourceSummaries, unionExtent, type Bbox } from './ogc.repository.ts';
import { collectionTile, MAX_TILE_ZOOM, MVT_TYPE, tileInRange } from './tiles.ts';

/** The collection holding every place, whatever its source. */
export const ALL_PLACES = 'places';
export const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
export const OPENAPI_30_TYPE = 'application/vnd.oai.openapi+json;version=3.0';
const SCHEMA_JSON = 'application/schema+json';
const QUERYABLE_TAG_KEYS = 50;

/** Places carry no time: this is how `datetime` treats them, stated in /conformance and the items docs. */
export const DATETIME_RULE =
  'places carry no time: an interval open at either end (`../2024-01-01`, `2024-01-01/..`, `../..`) matches every feature; an instant or a closed interval matches none';

const FEATURES = 'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf';
const FILTERING = 'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf';
const CQL2 = 'http://www.opengis.net/spec/cql2/1.0/conf';
const TILES = 'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf';

export function conformanceClasses(mode: DatabaseMode): string[] {
  return [
    `${FEATURES}/core`,
    `${FEATURES}/geojson`,
    `${FEATURES}/oas30`,
    `${FILTERING}/queryables`,
    `${FILTERING}/queryables-query-parameters`,
    `${FILTERING}/filter`,
    `${FILTERING}/features-filter`,
    `${CQL2}/cql2-text`,
    `${CQL2}/cql2-json`,
    `${CQL2}/basic-cql2`,
    `${CQL2}/advanced-comparison-operators`,
    `${CQL2}/basic-spatial-functions`,
    `${CQL2}/basic-spatial-functions-plus`,
    // PGlite's PostGIS cannot encode MVT (see src/ogc/tiles.ts).
    ...(mode === 'server' ? [`${TILES}/core`, `${TILES}/mvt`] : []),
  ];
}

interface Link {
  href: string;
  rel: string;
  type?: string;
  title?: string;
}

const collectionParams = z.object({ collectionId: z.string().max(200) });

const landingRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['ogc'],
  summary: 'Landing page: JSON for `Accept: application/json` or `?f=json`, the web explorer (HTML) otherwise',
  request: { query: z.object({ f: z.enum(['json', 'html']).optional() }) },
  responses: { 200: { description: 'landing page', content: { 'application/json': { schema: z.any() }, 'text/html': { schema: z.string() } } } },
});

const conformanceRoute = createRoute({
  method: 'get',
  path: '/conformance',
  tags: ['ogc'],
  summary: 'The OGC conformance classes this service implements',
  responses: { 200: { description: 'conformance declaration', content: { 'application/json': { schema: z.object({ conformsTo: z.array(z.string()) }) } } } },
});

const collectionsRoute = createRoute({
  method: 'get',
  path: '/collections',
  tags: ['ogc'],
  summary: 'Feature collections: all places, and one per data source, with their extents',
  responses: { 200: { description: 'collections', content: { 'application/json': { schema: z.any() } } } },
});

const collectionRoute = createRoute({
  method: 'get',
  path: '/collections/{collectionId}',
  tags: ['ogc'],
  summary: 'One collection: extent from the data, item type, CRS, links',
  request: { params: collectionParams },
  responses: {
    200: { description: 'collection', content: { 'application/json': { schema: z.any() } } },
    404: { description: 'no such collection' },
  },
});

const queryablesRoute = createRoute({
  method: 'get',
  path: '/collections/{collectionId}/queryables',
  tags: ['ogc'],
  summary: 'The properties a CQL2 filter may name (JSON Schema)',
  request: { params: collectionParams },
  responses: {
    200: { description: 'queryables', content: { [SCHEMA_JSON]: { schema: z.any() } } },
    404: { description: 'no such collection' },
  },
});

const tileRoute = createRoute({
  method: 'get',
  path: '/collections/{collectionId}/tiles/WebMercatorQuad/{z}/{x}/{y}',
  tags: ['ogc'],
  summary: 'A Mapbox Vector Tile of the collection (server mode; 501 in embedded mode)',
  description:
    'Per-zoom feature limit (1,000 up to zoom 10, 2,500 to 13, 5,000 to 15, then 10,000; larger shapes first) and ' +
    'simplification to one pixel of a 512-px tile. An empty tile is 204.',
  request: {
    params: collectionParams.extend({
      z: z.coerce.number().int().min(0).max(MAX_TILE_ZOOM),
      x: z.coerce.number().int().min(0),
      y: z.coerce.number().int().min(0),
    }),
  },
  responses: {
    200: { description: 'MVT', content: { [MVT_TYPE]: { schema: z.string().openapi({ format: 'binary' }) } } },
    204: { description: 'no feature in this tile' },
    400: { description: 'zoom, column or row outside the tile matrix' },
    404: { description: 'no such collection' },
    501: { description: 'embedded mode: the bundled PostGIS cannot encode vector tiles' },
  },
});

const origin = (c: Context) => new URL(c.req.url).origin;

/** JSON for `?f=json` or a client that prefers JSON to HTML; browsers (text/html first) and `?f=html` get the page. */
export function wantsJson(c: Context): boolean {
  const f = c.req.query('f');
  if (f === 'json') return true;
  if (f === 'html') return false;
  const accept = (c.req.header('accept') ?? '').toLowerCase();
  const jsonAt = accept.search(/application\/([a-z.+-]*\+)?json/);
  if (jsonAt < 0) return false;
  const htmlAt = accept.indexOf('text/html');
  return htmlAt < 0 || jsonAt < htmlAt;
}

function collectionJson(base: string, id: string, title: string, description: string, extent: Bbox | null) {
  const path = `${base}/collections/${encodeURIComponent(id)}`;
  const links: Link[] = [
    { href: path, rel: 'self', type: 'application/json', title: 'this collection' },
    { href: `${path}/items`, rel: 'items', type: 'application/geo+json', title: 'the features' },
    { href: `${path}/queryables`, rel: 'http://www.opengis.net/def/rel/ogc/1.0/queryables', type: SCHEMA_JSON, title: 'queryable properties' },
  ];
  return {
    id,
    title,
    description,
    itemType: 'feature',
    crs: [CRS84],
    storageCrs: CRS84,
    ...(extent ? { extent: { spatial: { bbox: [extent], crs: CRS84 } } } : {}),
    links,
  };
}

async function requireCollection(db: Db, id: string): Promise<string | undefined> {
  if (id === ALL_PLACES) return undefined;
  if (!(await sourceExists(db, id))) throw notFound(`no collection '${id}'`);
  return id;
}

export function ogcRoutes(db: Db, mode: DatabaseMode) {
  const router = createRouter();

  // The explorer keeps `/` for browsers (src/web/web.routes.ts): this answers only clients asking for JSON.
  router.openAPIRegistry.registerPath(landingRoute);
  router.get('/', async (c, next) => {
    if (!wantsJson(c)) return next();
    const base = origin(c);
    const links: Link[] = [
      { href: `${base}/?f=json`, rel: 'self', type: 'application/json', title: 'this document' },
      { href: `${base}/?f=html`, rel: 'alternate', type: 'text/html', title: 'the web explorer' },
      { href: `${base}/api`, rel: 'service-desc', type: OPENAPI_30_TYPE, title: 'the API definition (OpenAPI 3.0)' },
      { href: `${base}/docs`, rel: 'service-doc', type: 'text/html', title: 'the API documentation' },
      { href: `${base}/conformance`, rel: 'conformance', type: 'application/json', title: 'conformance classes' },
      { href: `${base}/collections`, rel: 'data', type: 'application/json', title: 'the feature collections' },
    ];
    return c.json({
      title: 'Spatial-RAG',
      description: 'Places as OGC API – Features collections (CQL2 filters, vector tiles in server mode), natural-language geographic questions at /v1/ask.',
      links,
    });
  });

  router.openapi(conformanceRoute, (c) => c.json({ conformsTo: conformanceClasses(mode), datetime: DATETIME_RULE }, 200));

  router.openapi(collectionsRoute, async (c) => {
    const base = origin(c);
    const sources = await sourceSummaries(db);
    return c.json(
      {
        collections: [
          collectionJson(base, ALL_PLACES, 'All places', 'Every place, whatever its source', unionExtent(sources)),
          ...sources.map((s) => collectionJson(base, s.source, `Places from ${s.source} (${s.count})`, `The ${s.count} places imported from ${s.source}`, s.extent)),
        ],
        links: [{ href: `${base}/collections`, rel: 'self', type: 'application/json' }],
      },
      200,
    );
  });

  router.openapi(collectionRoute, async (c) => {
    const { collectionId } = c.req.valid('param');
    const source = await requireCollection(db, collectionId);
    const base = origin(c);
    if (source === undefined) {
      return c.json(collectionJson(base, ALL_PLACES, 'All places', 'Every place, whatever its source', unionExtent(await sourceSummaries(db))), 200);
    }
    const summary = (await sourceSummaries(db, source))[0]!;
    return c.json(collectionJson(base, source, `Places from ${source} (${summary.count})`, `The ${summary.count} places imported from ${source}`, summary.extent), 200);
  });

  router.openapi(queryablesRoute, async (c) => {
    const { collectionId } = c.req.valid('param');
    const source = await requireCollection(db, collectionId);
    const text = (title: string) => ({ type: 'string', title });
    const tagKeys = await frequentTagKeys(db, source, QUERYABLE_TAG_KEYS);
    const body = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: `${origin(c)}/collections/${encodeURIComponent(collectionId)}/queryables`,
      type: 'object',
      title: `Queryables of ${collectionId}`,
      description: `CQL2 filters may name these properties, and any tag as tags.<key> (the ${QUERYABLE_TAG_KEYS} most frequent keys are listed).`,
      properties: {
        name: text('Name'),
        category: text('Category'),
        source: text('Data source'),
        sourceId: text('Identifier in the source'),
        [GEOMETRY_PROPERTY]: { format: 'geometry-any', title: 'Geometry (S_INTERSECTS)' },
        ...Object.fromEntries(tagKeys.map((key) => [`tags.${key}`, text(`Tag ${key}`)])),
      },
      patternProperties: { '^tags\\.[A-Za-z0-9_:.-]{1,100}$': { type: 'string' } },
      additionalProperties: false,
    };
    // JSON Schema's own type where the client accepts it; plain JSON for clients that ask only for that.
    const accept = c.req.header('accept') ?? '';
    const type = accept.includes(SCHEMA_JSON) || !/application\/json/.test(accept) ? SCHEMA_JSON : 'application/json';
    return c.body(JSON.stringify(body), 200, { 'content-type': type }) as never;
  });

  router.openapi(tileRoute, async (c) => {
    const { collectionId, z: zoom, x, y } = c.req.valid('param');
    if (!tileInRange(zoom, x, y)) {
      const n = 2 ** zoom;
      throw badRequest(`tile ${zoom}/${x}/${y} is outside WebMercatorQuad: at zoom ${zoom} column and row run from 0 to ${n - 1}`, [
        { in: 'path', field: x >= n ? 'x' : 'y', message: `at most ${n - 1} at zoom ${zoom}` },
      ]);
    }
    const source = await requireCollection(db, collectionId);
    if (mode !== 'server') {
      throw new ApiError(
        501,
        'Not Implemented',
        'vector tiles need PostGIS with protobuf support: the embedded database (PGlite) is built without it; run with DATABASE_URL (server mode) to serve tiles',
        undefined,
        'tiles-need-server-mode',
      );
    }
    const tile = await collectionTile(db, { id: collectionId, ...(source ? { source } : {}) }, zoom, x, y);
    if (tile.byteLength === 0) return c.body(null, 204) as never;
    return c.body(tile as Uint8Array<ArrayBuffer>, 200, { 'content-type': MVT_TYPE, 'cache-control': 'public, max-age=60' }) as never;
  });

  return router;
}
