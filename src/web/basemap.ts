import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.ts';

/**
 * The explorer's basemap, drawn from the places table itself (these machines have no internet basemap):
 * named streets, green and open areas, building footprints (on request, when zoomed in) and neighbourhood
 * outlines inside a bounding box, simplified to the map's scale and limited in count per layer.
 */
export const BASEMAP_LAYERS = ['streets', 'areas', 'buildings', 'neighbourhoods'] as const;
export type BasemapLayer = (typeof BASEMAP_LAYERS)[number];
export const DEFAULT_BASEMAP_LAYERS: BasemapLayer[] = ['streets', 'areas', 'neighbourhoods'];

export const DEFAULT_BASEMAP_LIMIT = 1500;
export const MAX_BASEMAP_LIMIT = 5000;

/** Categories drawn as areas: parks, greens, plazas, water. */
export const AREA_CATEGORIES = [
  'park',
  'garden',
  'grass',
  'playground',
  'pitch',
  'pedestrian',
  'dog_park',
  'recreation_ground',
  'cemetery',
  'water',
  'fountain',
  'flowerbed',
  'scrub',
  'wood',
  'village_green',
];

/** Simplification tolerance: about one pixel of a 1500-pixel-wide view of the box, in degrees. */
export function simplifyTolerance(bbox: readonly [number, number, number, number]): number {
  const span = Math.max(bbox[2] - bbox[0], bbox[3] - bbox[1]);
  return Math.max(span / 1500, 1e-7);
}

export interface BasemapFeature {
  type: 'Feature';
  geometry: unknown;
  properties: { layer: BasemapLayer; name: string | null; category: string | null };
}

export interface BasemapResult {
  type: 'FeatureCollection';
  bbox: [number, number, number, number];
  features: BasemapFeature[];
  /** Features per layer, and whether the layer hit the limit (more exist in the box). */
  layers: Partial<Record<BasemapLayer, { count: number; truncated: boolean }>>;
}

const POLYGONAL = sql`GeometryType(p.geom) IN ('POLYGON', 'MULTIPOLYGON')`;

/** The WHERE clause of one layer; every value is a bound parameter. */
function layerFilter(layer: BasemapLayer): RawBuilder<unknown> {
  switch (layer) {
    case 'streets':
      return sql`p.category = ${'street'} AND GeometryType(p.geom) IN ('LINESTRING', 'MULTILINESTRING')`;
    case 'areas':
      return sql`p.category = ANY(${AREA_CATEGORIES}::text[]) AND ${POLYGONAL}`;
    case 'buildings':
      return sql`(p.category = ${'building'} OR p.tags ? ${'building'}) AND ${POLYGONAL}`;
    case 'neighbourhoods':
      return sql`p.category = ${'neighbourhood'} AND ${POLYGONAL}`;
  }
}

/** Larger features first, so a truncated layer keeps the main streets and the big parks. */
function layerOrder(layer: BasemapLayer): RawBuilder<unknown> {
  return layer === 'streets' ? sql`ST_Length(p.geom) DESC, p.id` : sql`ST_Area(p.geom) DESC, p.id`;
}

export async function loadBasemap(
  db: Db,
  bbox: readonly [number, number, number, number],
  layers: readonly BasemapLayer[] = DEFAULT_BASEMAP_LAYERS,
  limit = DEFAULT_BASEMAP_LIMIT,
): Promise<BasemapResult> {
  const chosen = BASEMAP_LAYERS.filter((l) => layers.includes(l));
  const result: BasemapResult = { type: 'FeatureCollection', bbox: [...bbox], features: [], layers: {} };
  if (chosen.length === 0) return result;
  const [minLon, minLat, maxLon, maxLat] = bbox;
  const tolerance = simplifyTolerance(bbox);
  // One more row than the limit tells whether the layer was cut.
  const parts = chosen.map(
    (layer) => sql`(
      SELECT ${layer}::text AS layer, p.name, p.category,
             ST_AsGeoJSON(ST_Simplify(p.geom, ${tolerance}::float8, true), 6) AS geometry
      FROM places p
      WHERE p.geom && ST_MakeEnvelope(${minLon}::float8, ${minLat}::float8, ${maxLon}::float8, ${maxLat}::float8, 4326)
        AND ${layerFilter(layer)}
      ORDER BY ${layerOrder(layer)}
      LIMIT ${limit + 1}::int
    )`,
  );
  const rows = await sql<{ layer: BasemapLayer; name: string | null; category: string | null; geometry: string | null }>`
    ${sql.join(parts, sql` UNION ALL `)}
  `.execute(db);

  const counts = new Map<BasemapLayer, number>();
  for (const row of rows.rows) {
    const seen = (counts.get(row.layer) ?? 0) + 1;
    counts.set(row.layer, seen);
    if (seen > limit || !row.geometry) continue;
    result.features.push({
      type: 'Feature',
      geometry: JSON.parse(row.geometry),
      properties: { layer: row.layer, name: row.name, category: row.category },
    });
  }
  for (const layer of chosen) {
    const seen = counts.get(layer) ?? 0;
    result.layers[layer] = { count: Math.min(seen, limit), truncated: seen > limit };
  }
  return result;
}

/**
 * The map's first view: the extent of the point features (the shops, stations and sights questions are
 * about), or of all places when there are no points; null on an empty database. Large outlines such as a
 * city's neighbourhood polygons would otherwise zoom the first view far out of the detailed data.
 */
export async function placesExtent(db: Db): Promise<[number, number, number, number] | null> {
  const rows = await sql<{ minx: number | null; miny: number | null; maxx: number | null; maxy: number | null }>`
    WITH points AS (SELECT ST_Extent(geom) AS e FROM places WHERE GeometryType(geom) = 'POINT'),
         everything AS (SELECT ST_Extent(geom) AS e FROM places WHERE NOT EXISTS (SELECT 1 FROM points WHERE e IS NOT NULL))
    SELECT ST_XMin(e) AS minx, ST_YMin(e) AS miny, ST_XMax(e) AS maxx, ST_YMax(e) AS maxy
    FROM (SELECT coalesce((SELECT e FROM points), (SELECT e FROM everything)) AS e) t
  `.execute(db);
  const row = rows.rows[0];
  if (!row || row.minx === null || row.miny === null || row.maxx === null || row.maxy === null) return null;
  return [Number(row.minx), Number(row.miny), Number(row.maxx), Number(row.maxy)];
}
