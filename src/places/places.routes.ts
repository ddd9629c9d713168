import { createRoute, z } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import type { Db } from '../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { IngestError, type PlaceFeature } from '../ingest/feature.ts';
import { readGeoJson } from '../ingest/geojson.ts';
import { loadPlaces } from '../ingest/load.ts';
import { isPlaceStream, PLACE_STREAM_TYPE, readPlaceStream } from '../ingest/place-stream.ts';
import { createRouter } from '../http/openapi-app.ts';
import { ApiError, badRequest, notFound, validationError } from '../http/problem.ts';
import { ALL_PLACES, CRS84, DATETIME_RULE } from '../ogc/ogc.routes.ts';
import { FILTER_LANGS, filterPredicate } from '../ogc/cql2/index.ts';
import { getPlace, queryItems, sourceExists } from './places.repository.ts';

export const MAX_ITEMS_LIMIT = 1000;
export const DEFAULT_ITEMS_LIMIT = 100;
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

const feature = z
  .object({ type: z.literal('Feature'), id: z.number(), geometry: z.any(), properties: z.record(z.string(), z.any()) })
  .openapi('PlaceFeature');
const link = z.object({ href: z.string(), rel: z.string(), type: z.string().optional(), title: z.string().optional() });
const featureCollection = z
  .object({
    type: z.literal('FeatureCollection'),
    features: z.array(feature),
    numberReturned: z.number(),
    numberMatched: z.number().optional(),
    timeStamp: z.string(),
    links: z.array(link),
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

const itemsQuery = z.strictObject({
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

export const itemsRoute = createRoute({
  method: 'get',
  path: '/collections/{collectionId}/items',
  tags: ['places'],
  summary: 'Features of a collection, filtered by bbox, datetime, a CQL2 filter, name text and category, paged with limit/offset',
  request: { params: z.object({ collectionId: z.string().max(200) }), query: itemsQuery },
  responses: {
    200: { description: 'GeoJSON FeatureCollection', content: { 'application/geo+json': { schema: featureCollection } } },
    400: { description: 'invalid or unknown query parameter' },
    404: { description: 'no such collection' },
  },
});

const itemRoute = createRoute({
  method: 'get',
  path: '/collections/{collectionId}/items/{featureId}',
  tags: ['places'],
  summary: 'One feature of a collection',
  request: { params: z.object({ collectionId: z.string().max(200), featureId: z.coerce.number().int().positive() }) },
  responses: { 200: { description: 'GeoJSON Feature', content: { 'application/geo+json': { schema: feature } } } },
});

export const placeRoute = createRoute({
  method: 'get',
  path: '/v1/places/{id}',
  tags: ['places'],
  summary: 'One place by id, as a GeoJSON Feature',
  request: { params: z.object({ id: z.coerce.number().int().positive() }) },
  responses: {
    200: { description: 'GeoJSON Feature', content: { 'application/geo+json': { schema: feature } } },
    404: { description: 'no such place' },
  },
});

const importQuery = z.strictObject({
  source: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'letters, digits, _ . : - (at most 64)').default('import'),
  replace: z.enum(['true', 'false']).default('false'),
  skipInvalid: z.enum(['true', 'false']).default('false'),
});

const importRoute = createRoute({
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
    200: { description: 'import report', content: { 'application/json': { schema: z.any() } } },
    400: { description: 'invalid GeoJSON; nothing was written' },
    413: { description: 'body too large' },
  },
});

/** GeoJSON with its own media type (RFC 7946), which the typed `c.json` would overwrite. */
function geoJson(body: unknown): never {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'content-type': 'application/geo+json', 'content-crs': `<${CRS84}>` },
  }) as never;
}

/** `parse`: Hono's cached parse (the security middleware may have read the body already). */
async function jsonBody(parse: () => Promise<unknown>): Promise<unknown> {
  try {
    return await parse();
  } catch {
    throw badRequest('the body is not valid JSON', [{ in: 'body', field: '(root)', message: 'invalid JSON' }]);
  }
}

/** The features of a JSON import, all read (and checked) before anything is written. */
async function readImportCollection(
  body: unknown,
  source: string,
  skipInvalid: boolean,
  skipped: { location: string; problem: string }[],
): Promise<PlaceFeature[]> {
  if ((body as { type?: unknown })?.type !== 'FeatureCollection') {
    throw badRequest('the body must be a GeoJSON FeatureCollection', [{ in: 'body', field: 'type', message: "expected 'FeatureCollection'" }]);
  }
  const features: PlaceFeature[] = [];
  for await (const f of readGeoJson(body as object, {
    source,
    file: 'request body',
    skipInvalid,
    onWarning: (w) => skipped.push({ location: w.location, problem: w.problem }),
  })) {
    features.push(f);
  }
  return features;
}

/** `readDb`: where the read routes query (server mode: read-only connections with a statement timeout). */
export function placesRoutes(db: Db, embedder: Embedder, readDb: Db = db) {
  const router = createRouter();
  router.openapi(itemsRoute, async (c) => {
    const { collectionId } = c.req.valid('param');
    const query = c.req.valid('query');
    const source = collectionId === ALL_PLACES ? undefined : collectionId;
    if (source && !(await sourceExists(readDb, source))) throw notFound(`no collection '${collectionId}'`);
    const filter = query.filter === undefined ? undefined : filterPredicate(query.filter, query['filter-lang']);
    const page = await queryItems(readDb, {
      limit: query.limit,
      offset: query.offset,
      source,
      bbox: query.bbox,
      q: query.q,
      category: query.category,
      filter,
      matchesNone: query.datetime !== undefined && !query.datetime.matchesAll,
    });
    const self = new URL(c.req.url);
    const links = [{ href: self.toString(), rel: 'self', type: 'application/geo+json' }];
    // Every other parameter is kept as the client sent it.
    const pageLink = (offset: number, rel: string) => {
      const url = new URL(self);
      url.searchParams.set('offset', String(offset));
      url.searchParams.set('limit', String(query.limit));
      links.push({ href: url.toString(), rel, type: 'application/geo+json' });
    };
    if (query.offset > 0) pageLink(Math.max(0, query.offset - query.limit), 'prev');
    if (page.hasMore) pageLink(query.offset + query.limit, 'next');
    return geoJson({
      type: 'FeatureCollection',
      features: page.features,
      numberReturned: page.features.length,
      ...(page.numberMatched === undefined ? {} : { numberMatched: page.numberMatched }),
      timeStamp: new Date().toISOString(),
      links,
    });
  });

  router.openapi(itemRoute, async (c) => {
    const { collectionId, featureId } = c.req.valid('param');
    const place = await getPlace(readDb, featureId);
    if (!place || (collectionId !== ALL_PLACES && place.properties.source !== collectionId)) {
      throw notFound(`no feature ${featureId} in collection '${collectionId}'`);
    }
    return geoJson(place);
  });

  router.openapi(placeRoute, async (c) => {
    const { id } = c.req.valid('param');
    const place = await getPlace(readDb, id);
    if (!place) throw notFound(`no place ${id}`);
    return geoJson(place);
  });

  // `/v1/places:import` (a custom method, AIP-136 style) is one path segment with a colon, which Hono's
  // path syntax reads as a parameter: it is routed with a pattern, validated here, documented explicitly.
  const importPath = '/v1/:op{places:import}';
  router.openAPIRegistry.registerPath(importRoute);
  const limitJsonImport = bodyLimit({
    maxSize: MAX_IMPORT_BYTES,
    onError: () => {
      throw new ApiError(413, 'Content Too Large', `the body exceeds ${MAX_IMPORT_BYTES} bytes; stream it instead: \`npm run ingest -- --url URL FILE\``);
    },
  });
  router.post(
    importPath,
    (c, next) => (isPlaceStream(c.req.header('content-type')) ? next() : limitJsonImport(c, next)),
    async (c) => {
      const parsedQuery = importQuery.safeParse(c.req.query());
      if (!parsedQuery.success) throw validationError('query', parsedQuery.error.issues);
      const query = parsedQuery.data;
      const skipped: { location: string; problem: string }[] = [];
      const stream = isPlaceStream(c.req.header('content-type'));
      const body = stream ? undefined : await jsonBody(() => c.req.json());
      try {
        const features = stream
          ? readPlaceStream(c.req.raw.body ?? new Blob([]).stream(), query.source)
          : await readImportCollection(body, query.source, query.skipInvalid === 'true', skipped);
        const report = await loadPlaces(db, embedder, features, {
          replaceSources: query.replace === 'true' ? [query.source] : [],
        });
        return c.json({ source: query.source, ...report, skipped }, 200);
      } catch (error) {
        if (error instanceof IngestError) {
          throw badRequest(`${error.location}: ${error.problem}; nothing was imported`, [
            { in: 'body', field: error.location.replace(/^feature (\d+)/, (_, n) => `features.${Number(n) - 1}`), message: error.problem },
          ]);
        }
        throw error;
      }
    },
  );
  return router;
}
