import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Db } from '../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import type { AppEnv, AppRouteHandler } from '../http/openapi-app.ts';
import { ApiError, badRequest, notFound, validationError } from '../http/problem.ts';
import { IngestError, type PlaceFeature } from '../ingest/feature.ts';
import { readGeoJson } from '../ingest/geojson.ts';
import { loadPlaces } from '../ingest/load.ts';
import { isPlaceStream, readPlaceStream } from '../ingest/place-stream.ts';
import { filterPredicate } from '../ogc/cql2/index.ts';
import { ALL_PLACES, CRS84 } from '../ogc/ogc.routes.ts';
import { getPlace, queryItems, sourceExists } from './places.repository.ts';
import { importQuery, type itemRoute, type itemsRoute, MAX_IMPORT_BYTES, type placeRoute } from './places.routes.ts';

export interface PlacesDeps {
  db: Db;
  embedder: Embedder;
  /** Where the read routes query (server mode: read-only connections with a statement timeout). */
  readDb: Db;
}

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

export function placesHandlers({ db, embedder, readDb }: PlacesDeps) {
  const items: AppRouteHandler<typeof itemsRoute> = async (c) => {
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
  };

  const item: AppRouteHandler<typeof itemRoute> = async (c) => {
    const { collectionId, featureId } = c.req.valid('param');
    const place = await getPlace(readDb, featureId);
    if (!place || (collectionId !== ALL_PLACES && place.properties.source !== collectionId)) {
      throw notFound(`no feature ${featureId} in collection '${collectionId}'`);
    }
    return geoJson(place);
  };

  const place: AppRouteHandler<typeof placeRoute> = async (c) => {
    const { id } = c.req.valid('param');
    const found = await getPlace(readDb, id);
    if (!found) throw notFound(`no place ${id}`);
    return geoJson(found);
  };

  /**
   * POST /v1/places:import: a plain route (see places.index.ts) taking either JSON or a place stream, so
   * its query and body are checked here.
   */
  const importPlaces = async (c: Context<AppEnv>) => {
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
  };

  return { items, item, place, importPlaces };
}

/** The JSON import's own limit, with a hint to stream instead (a place stream has none: it is read line by line). */
const limitJsonImport = bodyLimit({
  maxSize: MAX_IMPORT_BYTES,
  onError: () => {
    throw new ApiError(413, 'Content Too Large', `the body exceeds ${MAX_IMPORT_BYTES} bytes; stream it instead: \`npm run ingest -- --url URL FILE\``);
  },
});

export const importBodyLimit = (c: Context<AppEnv>, next: () => Promise<void>) =>
  isPlaceStream(c.req.header('content-type')) ? next() : limitJsonImport(c, next);
