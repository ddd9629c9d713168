/** Compact views of a plan, so tests read like the question they check. */
import type { Constraint, SpatialPlan } from '../../../src/planning/plan.ts';

/** The reference text a constraint points at ('route' for the route line). */
export function refText(plan: SpatialPlan, id: string): string {
  if (id === 'route') return 'route';
  return plan.references.find((r) => r.id === id)?.text ?? `?${id}`;
}

/**
 * "within_distance(Grand Central Terminal, 200)", "nearest(Vessel, k=2)", "between(A, B, 200)"; negated:
 * "not inside(Chelsea)"; an alternative: "inside(SoHo) [g1]".
 */
export function describeConstraint(plan: SpatialPlan, c: Constraint): string {
  const own = describeFunction(plan, c);
  return `${c.negated ? 'not ' : ''}${own}${c.anyOf ? ` [${c.anyOf}]` : ''}`;
}

function describeFunction(plan: SpatialPlan, c: Constraint): string {
  switch (c.fn) {
    case 'within_distance':
      return `within_distance(${refText(plan, c.ref)}, ${c.distanceM})`;
    case 'inside':
      return `inside(${refText(plan, c.ref)})`;
    case 'along':
      return `along(${refText(plan, c.ref)}, ${c.bufferM})`;
    case 'nearest':
      return `nearest(${refText(plan, c.ref)}, k=${c.k})`;
    case 'between':
      return `between(${refText(plan, c.refs[0])}, ${refText(plan, c.refs[1])}, ${c.bufferM})`;
    case 'intersects':
      return `intersects(${refText(plan, c.ref)})`;
    case 'direction':
      return `direction(${refText(plan, c.ref)}, ${c.bearing}, ${c.distanceM})`;
    case 'border':
      return `border(${refText(plan, c.ref)}, ${c.distanceM})`;
  }
}

export function constraintsOf(plan: SpatialPlan): string[] {
  return plan.constraints.map((c) => describeConstraint(plan, c));
}

export function refOf(plan: SpatialPlan, text: string) {
  return plan.references.find((r) => r.text === text);
}
