/**
 * Every spatial function of the plan with its spec. The table's type demands one spec per member of
 * `Constraint['fn']`: a function added to the plan schema without a spec here does not compile.
 */
import type { Constraint } from '../../planning/plan.ts';
import { along } from './along.ts';
import { between } from './between.ts';
import { border } from './border.ts';
import { direction } from './direction.ts';
import { inside } from './inside.ts';
import { intersects } from './intersects.ts';
import { nearest } from './nearest.ts';
import type { SpatialFunctionName, SpatialFunctionSpec } from './spec.ts';
import { withinDistance } from './within-distance.ts';

export type SpatialFunctionTable = { [F in SpatialFunctionName]: SpatialFunctionSpec<F> };

export const SPATIAL_FUNCTIONS: SpatialFunctionTable = {
  within_distance: withinDistance,
  inside,
  along,
  nearest,
  between,
  intersects,
  direction,
  border,
};

/**
 * The spec of a constraint's function, to be called with that constraint. The table's type pairs each spec with
 * its own constraint type; the pairing by `c.fn` is what the compiler cannot follow through the union.
 */
export function specOf(c: Constraint): SpatialFunctionSpec<SpatialFunctionName> {
  return SPATIAL_FUNCTIONS[c.fn] as unknown as SpatialFunctionSpec<SpatialFunctionName>;
}

/** The references a constraint is measured against ("route" for the route line). */
export function constraintRefs(c: Constraint): string[] {
  return c.fn === 'between' ? [...c.refs] : [c.ref];
}

/** Whether the constraint holds for the k closest places, decided from the rank (see SpatialFunctionSpec.closestK). */
export function isClosestK(c: Constraint): boolean {
  return specOf(c).closestK !== undefined;
}
