import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { MultiLineStringGeometry } from './feature.ts';

/**
 * An area's land border (migration 0012): the part of its outline it shares with a neighbouring area of its
 * source, without its coastline. Empty when it has no land neighbour. Written once a seed's places are in.
 */
export interface LandBorder {
  /** The area's `source_id` in places. */
  sourceId: string;
  border: MultiLineStringGeometry;
}

/** Writes (or replaces) the land borders of a source's areas in one statement. */
export async function writeLandBorders(db: Db, source: string, borders: Iterable<LandBorder>): Promise<number> {
  const rows = [...borders];
  if (rows.length === 0) return 0;
  await sql`
    INSERT INTO land_borders (source, source_id, border)
    SELECT ${source}, b.source_id, ST_SetSRID(ST_Multi(ST_GeomFromGeoJSON(b.border)), 4326)
    FROM unnest(${rows.map((r) => r.sourceId)}::text[], ${rows.map((r) => JSON.stringify(r.border))}::text[]) AS b(source_id, border)
    ON CONFLICT (source, source_id) DO UPDATE SET border = EXCLUDED.border`.execute(db);
  return rows.length;
}
