import { sql } from 'kysely';
import type { CompileContext, ConstraintSql, SpatialFunctionSpec } from './spec.ts';

/** Margin beyond a buffer (along a line, between two references) inside which near misses are fetched. */
export function bufferMargin(bufferM: number): number {
  return Math.max(50, bufferM * 0.5);
}

/** The parts of a spec for a constraint that holds within `bufferM` of a line (along, between). */
export const buffered = {
  satisfiedReach: (c: { bufferM: number }) => c.bufferM,
  nearMissMargin: (c: { bufferM: number }) => bufferMargin(c.bufferM),
  windowReach: (c: { bufferM: number }) => c.bufferM + bufferMargin(c.bufferM),
  semanticReach: (c: { bufferM: number }) => c.bufferM,
  sqlFunctions: [],
  compile: (c: { bufferM: number }, { distance }: CompileContext): ConstraintSql => ({
    distance,
    satisfied: (d) => sql<boolean>`(${d} <= ${c.bufferM})`,
  }),
  excess: (c: { bufferM: number }, distance: number) => Math.max(0, distance - c.bufferM),
  // Both sides of the line count: a place 2 x bufferM away is still near it.
  proximityReach: (c: { bufferM: number }) => c.bufferM * 2,
} satisfies Omit<SpatialFunctionSpec<'along'>, 'fn' | 'referenceShape' | 'labels' | 'searchArea'>;

/** Within `bufferM` of a line: a street, or the route. */
export const along: SpatialFunctionSpec<'along'> = {
  fn: 'along',
  referenceShape: 'line',
  ...buffered,
  labels: {
    en: { area: 'within {m} m of the line', place: '{distance} from {ref}' },
    zh: { area: '沿线 {m} 米以内', place: '距{ref}{distance}' },
  },
  searchArea: { kind: 'buffer', metres: 'bufferM' },
};
