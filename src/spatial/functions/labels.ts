/**
 * The labels of the spatial functions filled in: for answers (where a candidate is relative to the reference)
 * and, as data, for the explorer (GET /web/spatial-functions.json, read by src/web/static/util.js).
 */
import type { Constraint } from '../../planning/plan.ts';
import { SPATIAL_FUNCTIONS, specOf } from './index.ts';
import type { SearchAreaSpec, SpatialFunctionLabels, SpatialFunctionName } from './spec.ts';

export type Lang = 'en' | 'zh';

/**
 * A template with its `{name}` placeholders replaced: from `values` first, then from the constraint's fields
 * (a value listed in the spec's words for the language is said in words).
 */
export function fillLabel(template: string, c: Constraint, lang: Lang, values: Record<string, string>): string {
  const words = specOf(c).labels.words?.[lang] ?? {};
  const fields = c as unknown as Record<string, unknown>;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (name in values) return values[name]!;
    const field = fields[name];
    if (typeof field === 'string') return words[field] ?? field;
    if (typeof field === 'number') return String(field);
    return whole;
  });
}

/** Where a candidate satisfying the constraint is: "inside Bryant Park", "350 m north of Bryant Park". */
export function placeLabel(c: Constraint, lang: Lang, values: { distance: string; ref: string }): string {
  return fillLabel(specOf(c).labels[lang].place, c, lang, values);
}

/** "not" in each language, before a label that has no negated form of its own. */
const NOT: Record<Lang, string> = { en: 'not ', zh: '不' };

/** Where a candidate satisfying a negated constraint is: "outside Chelsea", "not 200 m north of X". */
export function negatedPlaceLabel(c: Constraint, lang: Lang, values: { distance: string; ref: string }): string {
  const labels = specOf(c).labels[lang];
  return fillLabel(labels.notPlace ?? `${NOT[lang]}${labels.place}`, c, lang, values);
}

/** What the explorer needs of each function: how to draw its search area and how to name it. */
export type ExplorerFunctions = Record<SpatialFunctionName, { searchArea: SearchAreaSpec; labels: SpatialFunctionLabels }>;

export function explorerFunctions(): ExplorerFunctions {
  const entries = Object.values(SPATIAL_FUNCTIONS).map((f) => [f.fn, { searchArea: f.searchArea, labels: f.labels }] as const);
  return Object.fromEntries(entries) as ExplorerFunctions;
}
