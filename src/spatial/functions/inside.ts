import { sql } from 'kysely';
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

/** Inside the reference polygon: a place is inside when its representative point is (an area: its point on surface). */
export const inside: SpatialFunctionSpec<'inside'> = {
  fn: 'inside',
  ...onGeometry,
  sqlFunctions: ['ST_Intersects', 'ST_PointOnSurface'],
  compile: (_c, { distance, geometry }) => ({
    distance,
    satisfied: () => sql<boolean>`ST_Intersects(ST_PointOnSurface(p.geom), ${geometry})`,
  }),
  labels: {
    en: { area: 'inside', place: 'inside {ref}', notArea: 'outside', notPlace: 'outside {ref}' },
    zh: { area: '在区域内', place: '在{ref}内', notArea: '在区域以外', notPlace: '在{ref}以外' },
  },
  searchArea: { kind: 'fill' },
};
