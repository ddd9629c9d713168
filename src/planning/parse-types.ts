/**
 * What a language grammar (English, Chinese) extracts before the plan is assembled: reference mentions with
 * their positions, and spatial relations with the values the question states (defaults are applied later, in
 * one place, so that both languages resolve vague words identically).
 */
import type { Constraint, LonLat, ReferenceKind } from './plan.ts';
import type { PopulationSuperlative } from './population.ts';
import type { DistanceMention, Span } from './text.ts';

export interface RefMention extends Span {
  /** As written (articles and possessive qualifiers stripped). */
  text: string;
  kind?: ReferenceKind;
  point?: LonLat;
  /** A containing place named with it ("Manhattan" in "Manhattan's Koreatown"). */
  context?: string;
  /** Where the context phrase ends in the question (a further ", France" may extend it). */
  contextEnd?: number;
  /** The asker's own position: said explicitly ("near me"), or only implied by a bare "nearby". */
  user?: 'explicit' | 'soft';
  /** Accepted without strong evidence (no capitals, no place word): lowers confidence. */
  weak?: boolean;
}

/** How a vague proximity word is sized when no number is given. */
export type Vague = 'near' | 'adjacent' | 'walking' | 'at';

/**
 * What any relation may carry besides its function: said negated ("not in X", "不在X内"), or one of a group of
 * alternatives ("near X or Y", "X或Y附近"; the same number for each member).
 */
export interface RelationLogic {
  negated?: boolean;
  group?: number;
}

export type Relation = RelationLogic & (
  | { fn: 'within_distance'; ref: RefMention; distanceM?: number; distanceNote?: string; vague?: Vague; spans: Span[] }
  | { fn: 'inside'; ref: RefMention; spans: Span[] }
  | { fn: 'along'; ref: RefMention; bufferM?: number; spans: Span[] }
  | { fn: 'along_route'; bufferM?: number; spans: Span[] }
  | { fn: 'nearest'; ref?: RefMention; k?: number; spans: Span[] }
  | { fn: 'between'; refs: [RefMention, RefMention]; bufferM?: number; spans: Span[] }
  | { fn: 'intersects'; ref: RefMention; spans: Span[] }
  | SpecRelation
);

/** The functions whose relations the assembly (assemble.ts) completes itself. */
export type AssembledFn = 'within_distance' | 'inside' | 'along' | 'nearest' | 'between' | 'intersects';
type SpecFn = Exclude<Constraint['fn'], AssembledFn>;
/** The fields of a function's constraint besides its name and reference. */
export type ConstraintFields<F extends Constraint['fn']> = Omit<Extract<Constraint, { fn: F }>, 'fn' | 'ref'>;

/**
 * A relation of any other function of the plan: the reference as mentioned and the fields the question said;
 * the function's spec (`plan` in src/spatial/functions) completes them.
 */
export type SpecRelation = {
  [F in SpecFn]: { fn: F; ref: RefMention; said: Partial<ConstraintFields<F>>; distanceNote?: string; spans: Span[] };
}[SpecFn];

export interface SpatialParse {
  relations: Relation[];
  route?: { from: RefMention; to: RefMention; via: 'straight' | 'streets'; spans: Span[] };
  /** Distances not tied to a reference ("cafés near X, within 200 m"): attached during assembly. */
  looseDistances: DistanceMention[];
  /** "the largest", "the 5 most populous", "人口最多的": a superlative of size or population (population.ts). */
  order?: PopulationSuperlative;
  /** "nearest"/"closest"/"最近" was said (even without a usable reference). */
  nearestWord: boolean;
  /** Relations guessed without an explicit spatial word (Chinese "X有哪些Y"). */
  implicit: boolean;
  /** Spatial phrases the plan cannot express ("near the hotel": a kind of place as anchor); kept out of targets. */
  unused: Span[];
  notes: string[];
}

export function emptyParse(): SpatialParse {
  return { relations: [], looseDistances: [], nearestWord: false, implicit: false, unused: [], notes: [] };
}
