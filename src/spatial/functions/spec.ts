/**
 * What every spatial function of the plan (a `Constraint['fn']`) must say about itself, in one place: how far
 * its window reaches, the SQL that measures and checks it, how a near miss is scored, which shape of the
 * reference it needs, and how it is named in answers and in the explorer. The table of all of them is
 * SPATIAL_FUNCTIONS (index.ts); a function without a spec does not compile.
 */
import type { RawBuilder } from 'kysely';
import type { ConstraintFields } from '../../planning/parse-types.ts';
import type { Constraint } from '../../planning/plan.ts';

export type SpatialFunctionName = Constraint['fn'];
export type ConstraintOf<F extends SpatialFunctionName> = Extract<Constraint, { fn: F }>;

/** A local planar frame (metres east and north per degree) or null: measure on the sphere (see retrieve.ts). */
export type PlanarFrame = { kx: number; ky: number } | null;

/** What a function's SQL is built from; every value in it is already a bound parameter. */
export interface CompileContext {
  /** The constraint's geometry (EPSG:4326). */
  geometry: RawBuilder<unknown>;
  /** Metres from the candidate `p` to the geometry, in the frame or on the sphere. */
  distance: RawBuilder<number>;
  /** The local planar frame and the geometry in it (metres east and north), or null: measured on the sphere. */
  inFrame: { frame: NonNullable<PlanarFrame>; geometry: RawBuilder<unknown> } | null;
  /** The ISO 3166-1 code of the reference when it is a country (see functions/inside.ts). */
  countryCode?: string;
}

export interface ConstraintSql {
  /** Metres from a candidate to the constraint's geometry. */
  distance: RawBuilder<number>;
  /** Whether the constraint holds, given `d`, the candidate's measured distance to it. */
  satisfied: (d: RawBuilder<number>) => RawBuilder<boolean>;
}

/**
 * The geometry the resolver fetches for a reference the function uses: an area (inside), a line (along), or
 * `any`: what the reference's kind gives (a landmark's point or outline, a street's line).
 */
export type ReferenceShape = 'polygon' | 'line' | 'any';

/**
 * How the explorer draws the search area (src/web/static/util.js): `radius` a circle around a point (a
 * buffer around a line or an area), `buffer` a line or area widened, `fill` the polygon itself, `ring` a
 * circle through the farthest answer, `corridor` the segment between two references widened, `sector` a
 * wedge from the reference's centre. `metres` names the constraint's field that sizes it.
 */
export interface SearchAreaSpec {
  kind: 'radius' | 'buffer' | 'fill' | 'ring' | 'corridor' | 'sector';
  metres?: string;
  /** A sector's axis: the constraint's field holding the bearing, its degrees clockwise from north, the half-width. */
  sector?: { field: string; degrees: Record<string, number>; halfWidthDeg: number };
}

/**
 * Texts with placeholders: `{m}` metres of the drawn area, `{distance}` a candidate's distance, `{ref}` the
 * reference's name, `{field}` a field of the constraint (looked up in `words` when listed there).
 */
export interface LanguageLabels {
  /** The search area, as the explorer's legend says it ("within {m} m"). */
  area: string;
  /** Where a candidate that satisfies the constraint is, relative to the reference ("inside {ref}"). */
  place: string;
  /** The same when the constraint is negated ("outside {ref}"); without it, the language's "not" before `area`/`place`. */
  notArea?: string;
  notPlace?: string;
}

export interface SpatialFunctionLabels {
  en: LanguageLabels;
  zh: LanguageLabels;
  /** Words for values of the constraint's fields, per language ({ en: { north: 'north' } }). */
  words?: { en: Record<string, string>; zh: Record<string, string> };
}

export interface SpatialFunctionSpec<F extends SpatialFunctionName> {
  fn: F;
  referenceShape: ReferenceShape;
  /** Metres from the geometry within which the constraint holds (inside, intersects: on the geometry itself). */
  satisfiedReach(c: ConstraintOf<F>): number;
  /** Margin beyond the reach inside which near misses are still fetched (with a lower sparse score). */
  nearMissMargin(c: ConstraintOf<F>): number;
  /** Metres from the geometry within which candidates are fetched (the reach plus near misses). */
  windowReach(c: ConstraintOf<F>): number;
  /** Metres from the geometry within which the semantic pool is drawn. */
  semanticReach(c: ConstraintOf<F>): number;
  /** SQL functions the compiled constraint may use beyond the shared ones (checked against the allow-list). */
  sqlFunctions: readonly string[];
  compile(c: ConstraintOf<F>, ctx: CompileContext): ConstraintSql;
  /**
   * Set when the index-driven pools must keep only places that satisfy the constraint: its places are not
   * among the nearest to the window's middle (the border of a country). Near misses are then not fetched.
   */
  filtersPools?: boolean;
  /**
   * Set for "the k closest": the constraint holds for the k closest qualifying places, decided after the
   * query from the rank (the SQL then orders by distance); its cut-off is the k-th distance.
   */
  closestK?(c: ConstraintOf<F>): number;
  /** Metres beyond the constraint for a candidate that does not satisfy it (the sparse score decays with it). */
  excess(c: ConstraintOf<F>, distance: number, cutoff: number | undefined): number;
  /** Metres over which the proximity term of the spatial score decays. */
  proximityReach(c: ConstraintOf<F>, cutoff: number | undefined): number;
  labels: SpatialFunctionLabels;
  searchArea: SearchAreaSpec;
  /**
   * How the offline planner completes a relation the grammars found (for the functions assemble.ts does not
   * complete itself): from the fields the question said and the reference's "near" radius, the constraint's
   * fields, with a note when a default was used (a loose distance of the question then replaces `distanceM`);
   * undefined: the relation cannot be used.
   */
  plan?(said: Partial<ConstraintFields<F>>, context: PlanContext): { fields: ConstraintFields<F>; defaulted?: string } | undefined;
}

export interface PlanContext {
  /** The reference as the question says it. */
  ref: string;
  /** The reference's "near" radius (its kind's, a street's, a city's), in metres. */
  nearM: number;
  /** A distance said in the question, rounded and clamped to the plan's bounds. */
  metres(value: number): number;
}
