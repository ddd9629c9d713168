import { z } from '@hono/zod-openapi';
import { PLACE_STREAM_TYPE } from '../ingest/place-stream.ts';
import { GeometrySchema, jsonContent, LinkSchema, numericIdParams, problemResponse } from '../http/openapi-helpers.ts';
import { defineRoute } from '../http/route-policy.ts';
import { CRS84, DATETIME_RULE } from '../ogc/ogc.routes.ts';
import { FILTER_LANGS } from '../ogc/cql2/index.ts';

export const MAX_ITEMS_LIMIT = 1000;
export const DEFAULT_ITEMS_LIMIT = 100;
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

export const PlaceFeatureSchema = z
  .object({
    type: z.literal('Feature'),
    id: z.number(),
    geometry: GeometrySchema,
    properties: z.object({
      source: z.string(),
      sourceId: z.string(),
      name: z.string().nullable(),
      category: z.string().nullable(),
      description: z.string(),
      tags: z.record(z.string(), z.string()).openapi({ description: 'the OpenStreetMap (or source) tags, key to value' }),
    }),
  })
  .openapi('PlaceFeature');
const featureCollection = z
  .object({
    type: z.literal('FeatureCollection'),
    features: z.array(PlaceFeatureSchema),
    numberReturned: z.number(),
    numberMatched: z.number().optional(),
    timeStamp: z.string(),
    links: z.array(LinkSchema),
  })
  .openapi('PlaceFeatureCollection');

const bboxParam = z
  .string()
  .transform((text, ctx) => {
    const parts = text.split(',').map(Number);
    const [minLon, minLat, maxLon, maxLat] = parts as [number, number, number, number];
    const valid =
      parts.length === 4 &&
      parts.every(Number.isFinite) &&
      minLon >= -180 && maxLon <= 180 && minLat >= -90 && maxLat <= 90 &&
      minLon <= maxLon && minLat <= maxLat;
    if (!valid) {
      ctx.addIssue({ code: 'custom', message: 'bbox must be minLon,minLat,maxLon,maxLat in WGS84 degrees' });
      return z.NEVER;
    }
    return [minLon, minLat, maxLon, maxLat] as [number, number, number, number];
  })
  .openapi({ example: '-73.99,40.74,-73.97,40.76' });

/** An RFC 3339 date or date-time, the `datetime` parameter's instants. */
const INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))?$/i;

/** `datetime`: an instant or an interval (`start/end`, `..` or empty for an open end), read as `DATETIME_RULE` says. */
const datetimeParam = z
  .string()
  .max(100)
  .transform((text, ctx) => {
    const parts = text.split('/');
    const open = (p: string) => p === '' || p === '..';
    const valid =
      (parts.length === 1 && INSTANT.test(parts[0]!) && !Number.isNaN(Date.parse(parts[0]!))) ||
      (parts.length === 2 && parts.every((p) => open(p) || (INSTANT.test(p) && !Number.isNaN(Date.parse(p)))));
    if (!valid) {
      ctx.addIssue({ code: 'custom', message: 'datetime is an RFC 3339 instant or an interval start/end, with .. for an open end' });
      return z.NEVER;
    }
    return { matchesAll: parts.length === 2 && parts.some(open) };
  })
  .openapi({ description: `An RFC 3339 instant or interval; ${DATETIME_RULE}.`, example: '2024-01-01T00:00:00Z/..' });

export const itemsQuery = z.strictObject({
  bbox: bboxParam.optional(),
  // OGC API - Features: a limit above the maximum is clamped, not refused.
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(DEFAULT_ITEMS_LIMIT)
    .transform((n) => Math.min(n, MAX_ITEMS_LIMIT))
    .openapi({ description: `default ${DEFAULT_ITEMS_LIMIT}, at most ${MAX_ITEMS_LIMIT} (a larger limit is clamped)`, maximum: MAX_ITEMS_LIMIT }),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  datetime: datetimeParam.optional(),
  q: z.string().min(1).max(200).optional(),
  category: z.string().min(1).max(100).optional(),
  filter: z.string().min(1).max(10_000).optional().openapi({
    description: 'A CQL2 filter over the queryables (/collections/{collectionId}/queryables)',
    example: "category = 'cafe' AND name LIKE 'B%'",
  }),
  'filter-lang': z.enum(FILTER_LANGS).default('cql2-text').openapi({ description: '`cql-text` is read as `cql2-text`' }),
  'filter-crs': z.literal(CRS84).optional(),
  f: z.enum(['json', 'geojson']).optional(),
});

export const itemsRoute = defineRoute({
  policy: 'read',
  method: 'get',
  path: '/collections/{collectionId}/items',
  tags: ['places'],
  summary: 'Features of a collection, filtered by bbox, datetime, a CQL2 filter, name text and category, paged with limit/offset',
  request: { params: z.object({ collectionId: z.string().max(200) }), query: itemsQuery },
  responses: {
    200: { description: 'GeoJSON FeatureCollection', content: { 'application/geo+json': { schema: featureCollection } } },
    400: problemResponse('invalid or unknown query parameter'),
    404: problemResponse('no such collection'),
  },
});

export const itemRoute = defineRoute({
  policy: 'read',
  method: 'get',
  path: '/collections/{collectionId}/items/{featureId}',
  tags: ['places'],
  summary: 'One feature of a collection',
  request: { params: z.object({ collectionId: z.string().max(200), featureId: z.coerce.number().int().positive() }) },
  responses: {
    200: { description: 'GeoJSON Feature', content: { 'application/geo+json': { schema: PlaceFeatureSchema } } },
    404: problemResponse('no such collection or feature'),
  },
});

export const placeRoute = defineRoute({
  policy: 'read',
  method: 'get',
  path: '/v1/places/{id}',
  tags: ['places'],
  summary: 'One place by id, as a GeoJSON Feature',
  request: { params: numericIdParams() },
  responses: {
    200: { description: 'GeoJSON Feature', content: { 'application/geo+json': { schema: PlaceFeatureSchema } } },
    404: problemResponse('no such place'),
  },
});

export const importQuery = z.strictObject({
  source: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'letters, digits, _ . : - (at most 64)').default('import'),
  replace: z.enum(['true', 'false']).default('false'),
  skipInvalid: z.enum(['true', 'false']).default('false'),
});

const ImportReport = z
  .object({
    source: z.string(),
    read: z.number(),
    written: z.number().openapi({ description: 'rows inserted or updated' }),
    repaired: z.array(z.string()).openapi({ description: 'source ids whose invalid polygons were repaired' }),
    ms: z.number(),
    skipped: z.array(z.object({ location: z.string(), problem: z.string() })).openapi({ description: 'with skipInvalid=true: the features left out, and why' }),
  })
  .openapi('PlaceImportReport');

export const importRoute = defineRoute({
  policy: 'expensive-write',
  bodyLimit: 'stream',
  method: 'post',
  path: '/v1/places:import',
  tags: ['places'],
  summary: 'Import a GeoJSON FeatureCollection, or stream place records (all or nothing; upsert on source + feature id)',
  description:
    'A JSON body is a GeoJSON FeatureCollection of at most 20 MB. A `' + PLACE_STREAM_TYPE + '` body streams place records ' +
    '(one JSON object a line: source, sourceId, name, category, tags, description, descriptionFromTags, geometry), ' +
    'of any size, loaded in one transaction as they arrive; `npm run ingest -- --url` sends any supported file this way.',
  request: {
    query: importQuery,
    body: {
      content: {
        'application/json': { schema: z.object({ type: z.literal('FeatureCollection') }).passthrough() },
        [PLACE_STREAM_TYPE]: { schema: z.string() },
      },
    },
  },
  responses: {
    200: jsonContent(ImportReport, 'import report'),
    400: problemResponse('invalid GeoJSON; nothing was written'),
    413: problemResponse('body too large'),
  },
});

