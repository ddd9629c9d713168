import { sql } from 'kysely';
import type { SpatialFunctionSpec } from './spec.ts';

/** How far from the reference a nearest question looks (its tagged and spatial pools). */
export const NEAREST_WINDOW_M = 3000;
/**
 * How far from the reference the semantic pool of a nearest question looks (3 km of Midtown hold 7,700
 * places): among its SEMANTIC_REACH nearest places (retrieve.ts).
 */
export const NEAREST_SEMANTIC_M = 1000;
/** Near misses of a nearest question are fetched this far beyond the window (only the margin of the sparse score uses it). */
const NEAREST_MARGIN_M = 150;

/** The k features closest to the reference: decided after the query, from the rank. */
export const nearest: SpatialFunctionSpec<'nearest'> = {
  fn: 'nearest',
  referenceShape: 'any',
  satisfiedReach: () => NEAREST_WINDOW_M,
  nearMissMargin: () => NEAREST_MARGIN_M,
  windowReach: () => NEAREST_WINDOW_M,
  semanticReach: () => NEAREST_SEMANTIC_M,
  sqlFunctions: [],
  compile: (_c, { distance }) => ({ distance, satisfied: () => sql<boolean>`true` }),
  closestK: (c) => c.k,
  excess: (_c, distance, cutoff) => Math.max(0, distance - (cutoff ?? 0)),
  proximityReach: (_c, cutoff) => Math.max(cutoff ?? 200, 100),
  labels: {
    en: { area: 'nearest (up to {m} m)', place: '{distance} from {ref}' },
    zh: { area: '最近（至 {m} 米）', place: '距{ref}{distance}' },
  },
  searchArea: { kind: 'ring' },
};
