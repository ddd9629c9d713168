/**
 * Negation and alternatives over the spatial functions: the plan's constraints grouped into clauses that are
 * AND-ed, each clause one constraint or the alternatives of one group (OR-ed), possibly negated. The functions'
 * specs stay unaware of them; the compiler (retrieve.ts) and the ranking (rank.ts) go through these clauses.
 */
import type { RawBuilder } from 'kysely';
import { sql } from 'kysely';
import type { Constraint } from '../../planning/plan.ts';

export interface Clause {
  /** Indexes of the constraints in the plan: one, or the members of a group of alternatives. */
  members: number[];
  /** The clause holds when its (single) constraint does not. */
  negated: boolean;
}

/** The clauses of a plan's constraints, in the order of their first constraint. */
export function clausesOf(constraints: readonly Constraint[]): Clause[] {
  const clauses: Clause[] = [];
  const groups = new Map<string, Clause>();
  constraints.forEach((c, i) => {
    if (c.anyOf) {
      const group = groups.get(c.anyOf);
      if (group) {
        group.members.push(i);
        return;
      }
      const clause = { members: [i], negated: false };
      groups.set(c.anyOf, clause);
      clauses.push(clause);
      return;
    }
    clauses.push({ members: [i], negated: c.negated === true });
  });
  return clauses;
}

/** The clause each constraint belongs to (by constraint index). */
export function clauseOfConstraint(clauses: readonly Clause[], count: number): Clause[] {
  const out = new Array<Clause>(count);
  for (const clause of clauses) for (const i of clause.members) out[i] = clause;
  return out;
}

/**
 * Whether each constraint's clause holds, from the functions' own tests: a negated one when its function does
 * not hold (NULL counts as not holding), an alternative when any member of its group holds.
 */
export function clauseSatisfiedSql(constraints: readonly Constraint[], own: readonly RawBuilder<boolean>[]): RawBuilder<boolean>[] {
  const byConstraint = clauseOfConstraint(clausesOf(constraints), constraints.length);
  return constraints.map((_, i) => {
    const clause = byConstraint[i]!;
    if (clause.negated) return sql<boolean>`(NOT coalesce(${own[i]!}, false))`;
    if (clause.members.length === 1) return own[i]!;
    return sql<boolean>`(${sql.join(clause.members.map((j) => sql`coalesce(${own[j]!}, false)`), sql` OR `)})`;
  });
}
