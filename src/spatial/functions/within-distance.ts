import { sql } from 'kysely';
import type { SpatialFunctionSpec } from './spec.ts';

/** Margin beyond a distance inside which near misses are fetched. */
export function distanceMargin(distanceM: number): number {
  return Math.max(100, distanceM * 0.5);
}

/** The reaches of a constraint that holds within `distanceM` of the reference (within_distance, direction). */
export const distanceReaches = {
  satisfiedReach: (c: { distanceM: number }) => c.distanceM,
  nearMissMargin: (c: { distanceM: number }) => distanceMargin(c.distanceM),
  windowReach: (c: { distanceM: number }) => c.distanceM + distanceMargin(c.distanceM),
  semanticReach: (c: { distanceM: number }) => c.distanceM,
  proximityReach: (c: { distanceM: number }) => c.distanceM,
} satisfies Partial<SpatialFunctionSpec<'within_distance'>>;

/** Distance from the reference geometry at most `distanceM`. */
export const withinDistance: SpatialFunctionSpec<'within_distance'> = {
  fn: 'within_distance',
  referenceShape: 'any',
  ...distanceReaches,
  sqlFunctions: [],
  compile: (c, { distance }) => ({ distance, satisfied: (d) => sql<boolean>`(${d} <= ${c.distanceM})` }),
  excess: (c, distance) => Math.max(0, distance - c.distanceM),
  labels: {
    en: { area: 'within {m} m', place: '{distance} from {ref}', notArea: 'farther than {m} m', notPlace: '{distance} from {ref}' },
    zh: { area: '{m} 米以内', place: '距{ref}{distance}', notArea: '{m} 米以外', notPlace: '距{ref}{distance}' },
  },
  searchArea: { kind: 'radius', metres: 'distanceM' },
};
