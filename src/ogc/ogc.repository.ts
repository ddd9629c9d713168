import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

export type Bbox = [number, number, number, number];

export interface SourceSummary {
  source: string;
  count: number;
  /** Spatial extent of the source's places, WGS84 lon/lat; null when the source is empty. */
  extent: Bbox | null;
}

interface ExtentRow {
  source: string;
  count: number;
  minx: number | null;
  miny: number | null;
  maxx: number | null;
  maxy: number | null;
}

const toSummary = (r: ExtentRow): SourceSummary => ({
  source: r.source,
  count: Number(r.count),
  extent: r.minx === null || r.miny === null || r.maxx === null || r.maxy === null ? null : [Number(r.minx), Number(r.miny), Number(r.maxx), Number(r.maxy)],
});

/**
 * Count and extent per source, from the data (one pass over the bounding boxes).
 * `SELECT source, count(*), ST_XMin(ST_Extent(geom)), … FROM places [WHERE source = $1] GROUP BY source`
 */
export async function sourceSummaries(db: Db, source?: string): Promise<SourceSummary[]> {
  const where = source === undefined ? sql`` : sql`WHERE source = ${source}`;
  const { rows } = await sql<ExtentRow>`
    SELECT source, count(*)::int AS count,
           ST_XMin(ST_Extent(geom)) AS minx, ST_YMin(ST_Extent(geom)) AS miny,
           ST_XMax(ST_Extent(geom)) AS maxx, ST_YMax(ST_Extent(geom)) AS maxy
    FROM places ${where} GROUP BY source ORDER BY source`.execute(db);
  return rows.map(toSummary);
}

/** The union of the sources' extents (the `places` collection). */
export function unionExtent(summaries: SourceSummary[]): Bbox | null {
  const boxes = summaries.map((s) => s.extent).filter((e): e is Bbox => e !== null);
  if (boxes.length === 0) return null;
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}

/** The most frequent tag keys of a collection (for the queryables), at most `limit`. */
export async function frequentTagKeys(db: Db, source: string | undefined, limit: number): Promise<string[]> {
  const where = source === undefined ? sql`` : sql`WHERE source = ${source}`;
  const { rows } = await sql<{ key: string }>`
    SELECT key FROM (SELECT jsonb_object_keys(tags) AS key FROM places ${where}) k
    GROUP BY key ORDER BY count(*) DESC, key LIMIT ${limit}`.execute(db);
  return rows.map((r) => r.key);
}
