/**
 * Mapbox Vector Tiles of a collection in the WebMercatorQuad tile matrix set, encoded by PostGIS
 * (`ST_AsMVT`). PGlite's PostGIS is built without protobuf-c ("ST_AsMVTGeom: Compiled without protobuf-c
 * support"), so embedded mode answers 501 and server mode serves the tiles.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

export const MVT_TYPE = 'application/vnd.mapbox-vector-tile';
export const MAX_TILE_ZOOM = 22;
/** Tile coordinate space of ST_AsMVTGeom. */
const EXTENT = 4096;
/** Web Mercator's width in metres. */
const WORLD_METRES = 40_075_016.685_578_5;

/**
 * At most this many features in one tile: whole-city tiles at low zoom stay small, a street-level tile
 * carries everything. Larger shapes first, so the outlines a map shows at that zoom are the ones kept.
 */
export function tileFeatureLimit(z: number): number {
  if (z <= 10) return 1_000;
  if (z <= 13) return 2_500;
  if (z <= 15) return 5_000;
  return 10_000;
}

/** Simplification tolerance in metres: one pixel of the tile drawn 512 px wide (8 of its 4096 units). */
export function tileSimplifyMetres(z: number): number {
  return (WORLD_METRES / 2 ** z / EXTENT) * 8;
}

export function tileInRange(z: number, x: number, y: number): boolean {
  const n = 2 ** z;
  return z >= 0 && z <= MAX_TILE_ZOOM && x >= 0 && x < n && y >= 0 && y < n;
}

/**
 * One tile as MVT bytes (empty when no feature falls in it); layer named after the collection, features
 * carrying id, name, category and source.
 */
export async function collectionTile(db: Db, collection: { id: string; source?: string }, z: number, x: number, y: number): Promise<Uint8Array> {
  const sourceFilter = collection.source === undefined ? sql`TRUE` : sql`p.source = ${collection.source}`;
  const { rows } = await sql<{ tile: Uint8Array | null }>`
    WITH bounds AS (
      SELECT ST_TileEnvelope(${z}::int, ${x}::int, ${y}::int) AS env,
             ST_Transform(ST_TileEnvelope(${z}::int, ${x}::int, ${y}::int), 4326) AS env4326
    ),
    picked AS (
      SELECT p.id, p.name, p.category, p.source, p.geom
      FROM places p, bounds
      WHERE p.geom && bounds.env4326 AND ${sourceFilter}
      ORDER BY ST_Area(p.geom) DESC, p.id
      LIMIT ${tileFeatureLimit(z)}
    ),
    shaped AS (
      SELECT picked.id, picked.name, picked.category, picked.source,
             ST_AsMVTGeom(
               ST_SimplifyPreserveTopology(ST_Transform(picked.geom, 3857), ${tileSimplifyMetres(z)}::float8),
               bounds.env, ${EXTENT}, 64, true) AS geom
      FROM picked, bounds
    )
    SELECT ST_AsMVT(shaped, ${collection.id}::text, ${EXTENT}, 'geom', 'id') AS tile
    FROM shaped WHERE geom IS NOT NULL`.execute(db);
  return rows[0]?.tile ?? new Uint8Array();
}
