/**
 * OGC API – Features (Part 1 Core, GeoJSON, OpenAPI 3.0; Part 3 filtering with CQL2) and OGC API – Tiles
 * style vector tiles: the landing page as JSON, `/conformance`, the collections with their extents and
 * queryables, and MVT tiles. The items themselves are served by src/places/places.routes.ts.
 */
import { z } from '@hono/zod-openapi';
import type { DatabaseMode } from '../db/database.ts';
import { jsonContent, LinkSchema, problemResponse } from '../http/openapi-helpers.ts';
import { defineRoute } from '../http/route-policy.ts';
import { MAX_TILE_ZOOM, MVT_TYPE } from './tiles.ts';

/** The collection holding every place, whatever its source. */
export const ALL_PLACES = 'places';
export const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
export const OPENAPI_30_TYPE = 'application/vnd.oai.openapi+json;version=3.0';
export const SCHEMA_JSON = 'application/schema+json';

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

const collectionParams = z.object({ collectionId: z.string().max(200) });

export const LandingPageSchema = z
  .object({ title: z.string(), description: z.string(), links: z.array(LinkSchema) })
  .openapi('LandingPage');

/**
 * `/`: JSON for clients asking for it, else the web explorer's page (src/web), which the same path serves to
 * browsers. A plain route that passes the request on when it is not for JSON, so only documented here.
 */
export const landingRoute = defineRoute({
  policy: 'read',
  method: 'get',
  path: '/',
  tags: ['ogc'],
  summary: 'Landing page: JSON for `Accept: application/json` or `?f=json`, the web explorer (HTML) otherwise',
  request: { query: z.object({ f: z.enum(['json', 'html']).optional() }) },
  responses: { 200: { description: 'landing page', content: { 'application/json': { schema: LandingPageSchema }, 'text/html': { schema: z.string() } } } },
});

const Conformance = z
  .object({ conformsTo: z.array(z.string()), datetime: z.string().openapi({ description: 'how `datetime` treats places, which carry no time' }) })
  .openapi('Conformance');

export const conformanceRoute = defineRoute({
  policy: 'read',
  method: 'get',
  path: '/conformance',
  tags: ['ogc'],
  summary: 'The OGC conformance classes this service implements',
  responses: { 200: jsonContent(Conformance, 'conformance declaration') },
});

export const CollectionSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    itemType: z.literal('feature'),
    crs: z.array(z.string()),
    storageCrs: z.string(),
    extent: z
      .object({ spatial: z.object({ bbox: z.array(z.tuple([z.number(), z.number(), z.number(), z.number()])), crs: z.string() }) })
      .optional()
      .openapi({ description: 'absent for a collection without places' }),
    links: z.array(LinkSchema),
  })
  .openapi('Collection');

export const collectionsRoute = defineRoute({
  policy: 'read',
  method: 'get',
  path: '/collections',
  tags: ['ogc'],
  summary: 'Feature collections: all places, and one per data source, with their extents',
  responses: { 200: jsonContent(z.object({ collections: z.array(CollectionSchema), links: z.array(LinkSchema) }).openapi('Collections'), 'collections') },
});

export const collectionRoute = defineRoute({
  policy: 'read',
  method: 'get',
  path: '/collections/{collectionId}',
  tags: ['ogc'],
  summary: 'One collection: extent from the data, item type, CRS, links',
  request: { params: collectionParams },
  responses: {
    200: jsonContent(CollectionSchema, 'collection'),
    404: problemResponse('no such collection'),
  },
});

/** A JSON Schema document (draft 2020-12): open by nature, so a named object of its keywords. */
const Queryables = z
  .object({ $schema: z.string(), $id: z.string(), type: z.literal('object'), title: z.string(), properties: z.record(z.string(), z.record(z.string(), z.unknown())) })
  .passthrough()
  .openapi('Queryables', { description: 'a JSON Schema (2020-12) of the properties a CQL2 filter may name' });

export const queryablesRoute = defineRoute({
  policy: 'read',
  method: 'get',
  path: '/collections/{collectionId}/queryables',
  tags: ['ogc'],
  summary: 'The properties a CQL2 filter may name (JSON Schema)',
  request: { params: collectionParams },
  responses: {
    200: { description: 'queryables', content: { [SCHEMA_JSON]: { schema: Queryables } } },
    404: problemResponse('no such collection'),
  },
});

export const tileRoute = defineRoute({
  policy: 'read',
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
    400: problemResponse('zoom, column or row outside the tile matrix'),
    404: problemResponse('no such collection'),
    501: problemResponse('embedded mode: the bundled PostGIS cannot encode vector tiles'),
  },
});
