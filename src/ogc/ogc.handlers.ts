import type { Context } from 'hono';
import type { Db, DatabaseMode } from '../db/database.ts';
import type { AppEnv, AppRouteHandler } from '../http/openapi-app.ts';
import type { LinkSchema } from '../http/openapi-helpers.ts';
import { ApiError, badRequest, notFound } from '../http/problem.ts';
import { sourceExists } from '../places/places.repository.ts';
import { GEOMETRY_PROPERTY } from './cql2/index.ts';
import { frequentTagKeys, sourceSummaries, unionExtent, type Bbox } from './ogc.repository.ts';
import {
  ALL_PLACES,
  type CollectionSchema,
  type collectionRoute,
  type collectionsRoute,
  type conformanceRoute,
  conformanceClasses,
  CRS84,
  DATETIME_RULE,
  OPENAPI_30_TYPE,
  type queryablesRoute,
  SCHEMA_JSON,
  type tileRoute,
} from './ogc.routes.ts';
import { collectionTile, MVT_TYPE, tileInRange } from './tiles.ts';
import type { z } from '@hono/zod-openapi';

type Link = z.infer<typeof LinkSchema>;

const QUERYABLE_TAG_KEYS = 50;

export interface OgcDeps {
  db: Db;
  mode: DatabaseMode;
}

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

function collectionJson(base: string, id: string, title: string, description: string, extent: Bbox | null): z.infer<typeof CollectionSchema> {
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
    itemType: 'feature' as const,
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

export function ogcHandlers({ db, mode }: OgcDeps) {
  /** The explorer keeps `/` for browsers (src/web): this answers only clients asking for JSON. */
  const landing = async (c: Context<AppEnv>, next: () => Promise<void>) => {
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
  };

  const conformance: AppRouteHandler<typeof conformanceRoute> = (c) => c.json({ conformsTo: conformanceClasses(mode), datetime: DATETIME_RULE }, 200);

  const collections: AppRouteHandler<typeof collectionsRoute> = async (c) => {
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
  };

  const collection: AppRouteHandler<typeof collectionRoute> = async (c) => {
    const { collectionId } = c.req.valid('param');
    const source = await requireCollection(db, collectionId);
    const base = origin(c);
    if (source === undefined) {
      return c.json(collectionJson(base, ALL_PLACES, 'All places', 'Every place, whatever its source', unionExtent(await sourceSummaries(db))), 200);
    }
    const summary = (await sourceSummaries(db, source))[0]!;
    return c.json(collectionJson(base, source, `Places from ${source} (${summary.count})`, `The ${summary.count} places imported from ${source}`, summary.extent), 200);
  };

  const queryables: AppRouteHandler<typeof queryablesRoute> = async (c) => {
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
  };

  const tile: AppRouteHandler<typeof tileRoute> = async (c) => {
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
    const found = await collectionTile(db, { id: collectionId, ...(source ? { source } : {}) }, zoom, x, y);
    if (found.byteLength === 0) return c.body(null, 204) as never;
    return c.body(found as Uint8Array<ArrayBuffer>, 200, { 'content-type': MVT_TYPE, 'cache-control': 'public, max-age=60' }) as never;
  };

  return { landing, conformance, collections, collection, queryables, tile };
}
