import type { z } from '@hono/zod-openapi';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import type { PlaceFeatureSchema } from './places.routes.ts';

/** A place as the routes answer it (a GeoJSON Feature; its schema is in places.routes.ts). */
export type PlaceFeatureOut = z.infer<typeof PlaceFeatureSchema>;

interface PlaceRow {
  id: number;
  source: string;
  source_id: string;
  name: string | null;
  category: string | null;
  description: string;
  tags: Record<string, string>;
  geometry: string;
}

/** RFC 7946 geometry: counter-clockwise outer rings, 6 decimals (~0.1 m). */
export const geoJsonOf = (column: string) => sql<string>`ST_AsGeoJSON(ST_ForcePolygonCCW(${sql.ref(column)}), 6)`;

function toFeature(row: PlaceRow): PlaceFeatureOut {
  return {
    type: 'Feature',
    id: row.id,
    geometry: JSON.parse(row.geometry),
    properties: {
      source: row.source,
      sourceId: row.source_id,
      name: row.name,
      category: row.category,
      description: row.description,
      tags: row.tags,
    },
  };
}

export async function getPlace(db: Db, id: number): Promise<PlaceFeatureOut | undefined> {
  const row = await db
    .selectFrom('places')
    .select(['id', 'source', 'source_id', 'name', 'category', 'description', 'tags', geoJsonOf('geom').as('geometry')])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toFeature(row as PlaceRow) : undefined;
}

export interface ItemsQuery {
  /** Restrict to one source; undefined = every place. */
  source?: string;
  bbox?: [number, number, number, number];
  /** Case-insensitive text match on the name. */
  q?: string;
  category?: string;
  /** A compiled CQL2 filter (src/ogc/cql2): a parameterised predicate over `places`. */
  filter?: RawBuilder<boolean>;
  /** Nothing can match (a closed `datetime` interval: places carry no time). */
  matchesNone?: boolean;
  limit: number;
  offset: number;
}

/**
 * `numberMatched` is given only when exact and cheap: a count stopped after this many rows. Above it the
 * member is omitted (an estimate is not allowed).
 */
export const NUMBER_MATCHED_LIMIT = 100_000;

/** The WHERE clause of an items query, shared by the page and its count. */
function itemsWhere(query: ItemsQuery): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [];
  if (query.matchesNone) parts.push(sql`FALSE`);
  if (query.source) parts.push(sql`source = ${query.source}`);
  if (query.category) parts.push(sql`category = ${query.category}`);
  if (query.q) parts.push(sql`lower(name) LIKE ${`%${escapeLike(query.q.toLowerCase())}%`}`);
  if (query.bbox) {
    const [minLon, minLat, maxLon, maxLat] = query.bbox;
    // The index finds the boxes that overlap, ST_Intersects keeps the shapes that do (a bent street's box may not).
    const envelope = sql`ST_MakeEnvelope(${minLon}, ${minLat}, ${maxLon}, ${maxLat}, 4326)`;
    parts.push(sql`ST_Intersects(geom, ${envelope})`);
  }
  if (query.filter) parts.push(query.filter);
  return (parts.length === 0 ? sql`TRUE` : sql`${sql.join(parts, sql` AND `)}`) as RawBuilder<boolean>;
}

/**
 * One page of features, whether another page follows (one extra row is fetched to know), and the number of
 * matches when it is exact and at most NUMBER_MATCHED_LIMIT.
 */
export async function queryItems(
  db: Db,
  query: ItemsQuery,
): Promise<{ features: PlaceFeatureOut[]; hasMore: boolean; numberMatched?: number }> {
  const where = itemsWhere(query);
  const rows = (
    await db
      .selectFrom('places')
      .select(['id', 'source', 'source_id', 'name', 'category', 'description', 'tags', geoJsonOf('geom').as('geometry')])
      .where(where)
      .orderBy('id')
      .limit(query.limit + 1)
      .offset(query.offset)
      .execute()
  ) as PlaceRow[];
  const hasMore = rows.length > query.limit;
  const features = rows.slice(0, query.limit).map(toFeature);
  if (!hasMore && (features.length > 0 || query.offset === 0)) return { features, hasMore, numberMatched: query.offset + features.length };
  const { rows: counted } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM (SELECT 1 FROM places WHERE ${where} LIMIT ${NUMBER_MATCHED_LIMIT + 1}) matched`.execute(db);
  const n = Number(counted[0]!.n);
  return n <= NUMBER_MATCHED_LIMIT ? { features, hasMore, numberMatched: n } : { features, hasMore };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function sourceExists(db: Db, source: string): Promise<boolean> {
  const row = await db.selectFrom('places').select('id').where('source', '=', source).limit(1).executeTakeFirst();
  return row !== undefined;
}
