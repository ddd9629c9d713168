/**
 * The constraints the assembly (assemble.ts) drafts from the grammar's relations before reference ids are
 * known, the defaults of vague words, and how drafts become the plan's constraints (with their negation and
 * groups of alternatives).
 */
import type { RefMention, RelationLogic, SpecRelation } from './parse-types.ts';
import { DISTANCE_MAX_M, DISTANCE_MIN_M, ROUTE_REF, type Constraint, type ReferenceKind } from './plan.ts';
import { clamp } from './text.ts';

/** Defaults, in metres, for vague spatial words (conventions of the evaluation README and GeoQA literature). */
export const DEFAULTS = {
  nearPoiM: 500,
  nearCityM: 5000,
  adjacentM: 100,
  atM: 100,
  walkingDistanceM: 800,
  alongStreetM: 100,
  nearStreetM: 200,
  routeBufferM: 200,
  betweenBufferM: 200,
  pluralNearestK: 3,
  /** How far beyond an excluded place ("not in X") the search looks when nothing else bounds it. */
  outsideM: 1000,
} as const;

/** A distance in metres, rounded and clamped to the plan's bounds. */
export const round = (n: number): number => Math.round(clamp(n, DISTANCE_MIN_M, DISTANCE_MAX_M));

export interface Slot {
  key: string;
  mention: RefMention;
  kind?: ReferenceKind;
  order: number;
  id?: string;
}

export type Draft = RelationLogic & (
  | { fn: 'within_distance'; slot: Slot; distanceM: number }
  | { fn: 'inside'; slot: Slot }
  | { fn: 'along'; slot: Slot | 'route'; bufferM: number }
  | { fn: 'nearest'; slot: Slot | 'route'; k: number }
  | { fn: 'between'; slots: [Slot, Slot]; bufferM: number }
  | { fn: 'intersects'; slot: Slot }
  /** Completed by the function's spec (see SpecRelation). */
  | { fn: 'spec'; of: SpecRelation['fn']; slot: Slot; fields: Record<string, unknown> }
);

export function toConstraint(d: Draft, groups: ReadonlyMap<number, string>): Constraint {
  const group = d.group !== undefined ? groups.get(d.group) : undefined;
  const logic = { ...(d.negated ? { negated: true } : {}), ...(group ? { anyOf: group } : {}) };
  return { ...functionOf(d), ...logic } as Constraint;
}

function functionOf(d: Draft): Constraint {
  const ref = (s: Slot | 'route'): string => (s === 'route' ? ROUTE_REF : s.id!);
  switch (d.fn) {
    case 'within_distance':
      return { fn: 'within_distance', ref: ref(d.slot), distanceM: d.distanceM };
    case 'inside':
      return { fn: 'inside', ref: ref(d.slot) };
    case 'along':
      return { fn: 'along', ref: ref(d.slot), bufferM: d.bufferM };
    case 'nearest':
      return { fn: 'nearest', ref: ref(d.slot), k: d.k };
    case 'between':
      return { fn: 'between', refs: [ref(d.slots[0]), ref(d.slots[1])], bufferM: d.bufferM };
    case 'intersects':
      return { fn: 'intersects', ref: ref(d.slot) };
    case 'spec':
      // The fields come from the function's own spec (its `plan`); the plan is validated as a whole after.
      return { fn: d.of, ref: ref(d.slot), ...d.fields } as Constraint;
  }
}

/** Group ids (g1, g2, ...) of the groups of alternatives that still have two members or more. */
export function groupIds(drafts: readonly Draft[]): Map<number, string> {
  const sizes = new Map<number, number>();
  for (const d of drafts) if (d.group !== undefined && !d.negated && d.fn !== 'nearest') sizes.set(d.group, (sizes.get(d.group) ?? 0) + 1);
  const ids = new Map<number, string>();
  for (const [group, n] of sizes) if (n >= 2) ids.set(group, `g${ids.size + 1}`);
  return ids;
}

/**
 * Only negations ("museums not in Chelsea"): the search needs a positive bound, so it looks around what is
 * excluded, up to DEFAULTS.outsideM beyond it (either excluded place, when there are several).
 */
export function surroundNegations(drafts: Draft[], notes: string[]): void {
  if (drafts.length === 0 || drafts.some((d) => !d.negated)) return;
  const around = new Map<Slot, number>();
  for (const d of drafts) {
    if (d.fn === 'between' || d.fn === 'nearest' || d.slot === 'route') continue;
    const reach = d.fn === 'within_distance' ? d.distanceM : d.fn === 'along' ? d.bufferM : d.fn === 'spec' && typeof d.fields.distanceM === 'number' ? d.fields.distanceM : 0;
    around.set(d.slot, Math.max(around.get(d.slot) ?? 0, round(reach + DEFAULTS.outsideM)));
  }
  const group = around.size > 1 ? Math.max(0, ...drafts.map((d) => d.group ?? 0)) + 1 : undefined;
  for (const [slot, m] of around) {
    drafts.push({ fn: 'within_distance', slot, distanceM: m, ...(group !== undefined ? { group } : {}) });
    notes.push(`only "not": searching within ${m} m of "${slot.mention.text}"`);
  }
}

