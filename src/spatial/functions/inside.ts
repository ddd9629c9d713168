import { type RawBuilder, sql } from 'kysely';
import type { SpatialFunctionSpec } from './spec.ts';

/** The margin around an area or a line inside which near misses of inside/intersects are fetched. */
const ON_GEOMETRY_MARGIN_M = 150;

/** The parts of a spec for a constraint that holds on the reference geometry itself (inside, intersects). */
export const onGeometry = {
  referenceShape: 'polygon',
  satisfiedReach: () => 0,
  nearMissMargin: () => ON_GEOMETRY_MARGIN_M,
  windowReach: () => ON_GEOMETRY_MARGIN_M,
  semanticReach: () => 0,
  // Not on it: the metres to the geometry, at least 1 (a place touching an outline but not inside it).
  excess: (_c: unknown, distance: number) => Math.max(distance, 1),
  proximityReach: () => 300,
} satisfies Partial<SpatialFunctionSpec<'inside'>>;

/** Whether a place's representative point (an area: its point on surface) lies in the geometry. */
function pointInside(geometry: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`ST_Intersects(ST_PointOnSurface(p.geom), ${geometry})`;
}

/**
 * In a country: a place that carries a country code (the world seed's cities, by GeoNames) is in it when the
 * code is the country's, whatever the outline says; only a place without one is placed by the outline. A
 * country's outline at 1:50m cuts coasts and borders by kilometres: it leaves out coastal cities (on a
 * peninsula, a bay's shore) and takes in cities of the neighbour across a border. The code is matched as a
 * tag token (the GIN index of migration 0010) and the outline through `geom && outline` (the GiST index),
 * so that the pools of a country find either by an index (a BitmapOr).
 */
function inCountry(code: string, geometry: RawBuilder<unknown>) {
  const tagged = sql<boolean>`p.tag_tokens @> ARRAY[${`country_code=${code}`}]::text[]`;
  const untaggedInside = sql<boolean>`(NOT (p.tags ? 'country_code') AND ST_Intersects(p.geom, ${geometry}) AND ${pointInside(geometry)})`;
  return { tagged, satisfied: sql<boolean>`(${tagged} OR ${untaggedInside})` };
}

/** Inside the reference polygon: a place is inside when its representative point is; in a country, see inCountry. */
export const inside: SpatialFunctionSpec<'inside'> = {
  fn: 'inside',
  ...onGeometry,
  sqlFunctions: ['ST_Intersects', 'ST_PointOnSurface'],
  compile: (_c, { distance, geometry, countryCode }) => {
    if (!countryCode) return { distance, satisfied: () => pointInside(geometry) };
    const country = inCountry(countryCode, geometry);
    // A place of the country is at distance 0 from it, so that the window's measured reach keeps it.
    return { distance: sql<number>`(CASE WHEN ${country.tagged} THEN 0 ELSE ${distance} END)`, satisfied: () => country.satisfied };
  },
  labels: {
    en: { area: 'inside', place: 'inside {ref}', notArea: 'outside', notPlace: 'outside {ref}' },
    zh: { area: '在区域内', place: '在{ref}内', notArea: '在区域以外', notPlace: '在{ref}以外' },
  },
  searchArea: { kind: 'fill' },
};
