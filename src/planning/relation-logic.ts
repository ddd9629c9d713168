/**
 * Negation said before a spatial phrase, in either language: "not in X", "except near X", "museums that aren't
 * along X"; "不在X内", "除了X附近". The grammars find the phrase as usual; the word before it negates the
 * relation. A negated member of a group of alternatives negates the whole group, which then is no longer a
 * choice: "not in X or Y" is neither in X nor in Y.
 */
import type { Relation, SpatialParse } from './parse-types.ts';
import type { Span } from './text.ts';

/** Words that negate the spatial phrase right after them (folded English text). */
const NOT_EN =
  /(?:(?<![\p{L}\p{N}])(?:not|never)|\p{L}*n't|(?<![\p{L}\p{N}])(?:except(?:\s+for)?|excluding|but\s+not|other\s+than|apart\s+from|rather\s+than))(?:\s+(?:those|ones|the\s+ones|places|any|anything))?(?:\s+(?:that\s+are|which\s+are|that're|located|situated))?\s*$/u;
/** The same in Chinese (不在X内, 并不在, 除了X附近, 不包括X). */
const NOT_ZH = /(?:不是|并不|不|除了|除去|除|不包括|排除)\s*$/u;

/** Relations whose function has a meaningful complement (not the k closest, not the route). */
function negatable(r: Relation): boolean {
  return r.fn !== 'nearest' && r.fn !== 'along_route';
}

/** Marks relations said negated, their span extended over the negating words; groups with a negated member dissolve. */
export function markNegations(parse: SpatialParse, folded: string, lang: 'en' | 'zh'): void {
  const re = lang === 'zh' ? NOT_ZH : NOT_EN;
  for (const r of parse.relations) {
    if (!negatable(r) || r.negated || r.spans.length === 0) continue;
    const start = Math.min(...r.spans.map((s) => s.start));
    const m = re.exec(folded.slice(Math.max(0, start - 40), start));
    if (!m) continue;
    r.negated = true;
    const span = r.spans.find((s) => s.start === start)!;
    span.start = start - m[0].length;
  }
  const negatedGroups = new Set(parse.relations.filter((r) => r.negated && r.group !== undefined).map((r) => r.group));
  for (const r of parse.relations) {
    if (r.group === undefined || !negatedGroups.has(r.group)) continue;
    if (negatable(r)) r.negated = true;
    delete r.group;
  }
}

/** The next free group number of a parse. */
export function nextGroup(parse: SpatialParse): number {
  return Math.max(0, ...parse.relations.map((r) => r.group ?? 0)) + 1;
}

/** A border said without its place ("within 50 km of the border", "距边境50公里"). */
export interface UnscopedBorder {
  said: { distanceM?: number };
  distanceNote?: string;
  spans: Span[];
}

/**
 * The borders said without their place are those of the first place another phrase names ("cities in X within
 * 50 km of the border"), put before that phrase's relation so that answers say how far from the border each
 * place is; with no place named, they are dropped and the plan says so.
 */
export function scopeBorders(parse: SpatialParse, borders: readonly UnscopedBorder[]): void {
  const at = parse.relations.findIndex((r) => 'ref' in r && r.ref && !r.ref.user && !r.ref.point);
  const scope = at >= 0 ? parse.relations[at]! : undefined;
  for (const b of borders) {
    if (scope && 'ref' in scope && scope.ref) parse.relations.splice(at, 0, { fn: 'border', ref: { ...scope.ref }, ...b });
    else parse.notes.push('a border of no place named: ignored');
  }
}
