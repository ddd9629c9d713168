import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

export interface PlaceFeatureOut {
  type: 'Feature';
  id: number;
  geometry: unknown;
  properties: {
    source: string;
    sourceId: string;
    name: string | null;
    category: string | null;
    description: string;
    tags: Record<string, string>;
  };
}

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
  limit: number;
  offset: number;
}

/** One page of features, plus whether another page follows (one extra row is fetched to know). */
export async function queryItems(db: Db, query: ItemsQuery): Promise<{ features: PlaceFeatureOut[]; hasMore: boolean }> {
  let select = db
    .selectFrom('places')
    .select(['id', 'source', 'source_id', 'name', 'category', 'description', 'tags', geoJsonOf('geom').as('geometry')])
    .orderBy('id')
    .limit(query.limit + 1)
    .offset(query.offset);
  if (query.source) select = select.where('source', '=', query.source);
  if (query.category) select = select.where('category', '=', query.category);
  if (query.q) select = select.where(sql<boolean>`lower(name) LIKE ${`%${escapeLike(query.q.toLowerCase())}%`}`);
  if (query.bbox) {
    const [minLon, minLat, maxLon, maxLat] = query.bbox;
    select = select.where(sql<boolean>`geom && ST_MakeEnvelope(${minLon}, ${minLat}, ${maxLon}, ${maxLat}, 4326)`);
  }
  const rows = (await select.execute()) as PlaceRow[];
  return { features: rows.slice(0, query.limit).map(toFeature), hasMore: rows.length > query.limit };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function listSources(db: Db): Promise<{ source: string; count: number }[]> {
  const { rows } = await sql<{ source: string; count: number }>`
    SELECT source, count(*)::int AS count FROM places GROUP BY source ORDER BY source`.execute(db);
  return rows;
}

export async function sourceExists(db: Db, source: string): Promise<boolean> {
  const row = await db.selectFrom('places').select('id').where('source', '=', source).limit(1).executeTakeFirst();
  return row !== undefined;
}
