/**
 * Surface forms of the knowledge graph found in texts, and the request context's free-form item names
 * mapped to graph names.
 */
import { idx, knowledgeGraph, productSatisfies } from './graph.ts';
import { stem } from '../../embedding/text.ts';
import { sameFamily } from '../lexical.ts';
import { normalizeForMatch } from './normalize.ts';

export type FormKind = 'concept' | 'function' | 'product' | 'capability' | 'sensor' | 'family' | 'band';

export interface FormMatch {
  kind: FormKind;
  /** Ids carrying the form (several when a form is listed under more than one entry). */
  ids: string[];
  form: string;
  start: number;
  end: number;
}

interface CompiledKind {
  /** Latin-script forms, whole words, longest first. */
  words?: RegExp;
  /** Forms containing Han characters, substrings, longest first. */
  chars?: RegExp;
  byForm: Map<string, string[]>;
  /** Latin-script forms by the stems of their words ("flooded fields" and "flooding field" meet). */
  byStems: Map<string, { form: string; ids: string[] }>;
  /** Latin-script phrases of two words or more by the stem of their last word, with all their stems. */
  byLastStem: Map<string, { stems: string[]; form: string; ids: string[] }[]>;
}

const HAN = /\p{Script=Han}/u;
const WORD_CHAR = '[\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}\\p{N}]';
let compiled: Map<FormKind, CompiledKind> | undefined;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compileKind(entries: { id: string; forms: string[] }[]): CompiledKind {
  const byForm = new Map<string, string[]>();
  for (const e of entries) {
    for (const raw of e.forms) {
      const form = normalizeForMatch(raw).trim();
      if (!form) continue;
      const ids = byForm.get(form) ?? [];
      if (!ids.includes(e.id)) ids.push(e.id);
      byForm.set(form, ids);
    }
  }
  const byStems = new Map<string, { form: string; ids: string[] }>();
  const byLastStem: CompiledKind['byLastStem'] = new Map();
  for (const [form, ids] of byForm) {
    if (!/^[a-z]+(?:[ -][a-z]+)*$/.test(form)) continue;
    const stems = form.split(/[ -]/).map(stem);
    if (stems.length > MAX_STEMMED_WORDS) continue;
    const key = stems.join(' ');
    if (!byStems.has(key)) byStems.set(key, { form, ids });
    if (stems.length >= 2) {
      const last = stems[stems.length - 1]!;
      byLastStem.set(last, [...(byLastStem.get(last) ?? []), { stems, form, ids }]);
    }
  }
  const all = [...byForm.keys()].sort((a, b) => b.length - a.length);
  const words = all.filter((f) => !HAN.test(f));
  const chars = all.filter((f) => HAN.test(f));
  return {
    // A regex alternation tries alternatives in order, so longest-first gives leftmost-longest matches.
    // An optional plural ending lets "buildings" match "building" without stemming every form.
    // Word boundaries are alphabetic-script letters and digits only: in Chinese text a Latin form sits
    // directly against Han characters ("计算NDVI"), which must not hide it.
    words: words.length
      ? new RegExp(`(?<!${WORD_CHAR})(?:${words.map(escapeRe).join('|')})(?:s|es)?(?!${WORD_CHAR})`, 'gu')
      : undefined,
    chars: chars.length ? new RegExp(chars.map(escapeRe).join('|'), 'gu') : undefined,
    byForm,
    byStems,
    byLastStem,
  };
}

function compiledKinds(): Map<FormKind, CompiledKind> {
  if (compiled) return compiled;
  const g = knowledgeGraph();
  const both = (x: { en: string[]; zh: string[] }) => [...x.en, ...x.zh];
  compiled = new Map<FormKind, CompiledKind>([
    ['concept', compileKind(g.concepts.map((c) => ({ id: c.id, forms: both(c) })))],
    ['function', compileKind(g.functions.map((f) => ({ id: f.id, forms: both(f) })))],
    ['product', compileKind(g.products.map((p) => ({ id: p.id, forms: both(p) })))],
    ['capability', compileKind(g.capabilities.map((c) => ({ id: c.id, forms: both(c) })))],
    ['sensor', compileKind(g.sensors.map((s) => ({ id: s.dataSource, forms: [...both(s), s.dataSource] })))],
    ['family', compileKind(g.families.map((f) => ({ id: f.id, forms: both(f) })))],
    ['band', compileKind(g.bandRoles.map((b) => ({ id: b.id, forms: both(b) })))],
  ]);
  return compiled;
}

function lookupForm(byForm: Map<string, string[]>, text: string): [string, string[]] | undefined {
  for (const candidate of [text, text.replace(/es$/, ''), text.replace(/s$/, '')]) {
    const ids = byForm.get(candidate);
    if (ids) return [candidate, ids];
  }
  return undefined;
}

/**
 * Surface forms of the graph found in a text, per kind, leftmost-longest and non-overlapping within a
 * kind (a product and a concept may cover the same words). Offsets refer to the normalised text.
 */
export function matchForms(text: string, kinds?: readonly FormKind[]): FormMatch[] {
  const norm = normalizeForMatch(text);
  const out: FormMatch[] = [];
  for (const [kind, c] of compiledKinds()) {
    if (kinds && !kinds.includes(kind)) continue;
    for (const re of [c.words, c.chars]) {
      if (!re) continue;
      for (const m of norm.matchAll(re)) {
        const hit = lookupForm(c.byForm, m[0]);
        if (hit) out.push({ kind, ids: hit[1], form: hit[0], start: m.index, end: m.index + m[0].length });
      }
    }
  }
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

const MAX_STEMMED_WORDS = 4;

/**
 * A phrase of the graph whose last word has the same stem as the run's and whose other words are of the
 * same word family ("coast erosion" for "coastal erosion", "topography analysis" for "topographic
 * analysis"): the stemmer keeps such derivations apart, but in a phrase that ends the same they name the
 * same thing.
 */
function familyPhrase(c: CompiledKind, stems: readonly string[]): { form: string; ids: string[] } | undefined {
  const candidates = c.byLastStem.get(stems[stems.length - 1]!) ?? [];
  return candidates.find((p) => p.stems.length === stems.length && p.stems.every((s, i) => s === stems[i] || sameFamily(s, stems[i]!)));
}

/**
 * Forms met in another inflection or derivation of their words ("deforested hillsides" for the form
 * "deforestation", "irrigated" for "irrigation"): runs of up to four words whose stems are a form's stems.
 * Offsets refer to the normalised text; `form` is the graph's form.
 */
export function matchFormsByStem(text: string, kinds?: readonly FormKind[]): FormMatch[] {
  const norm = normalizeForMatch(text);
  const words = [...norm.matchAll(/[a-z]+/g)].map((m) => ({ word: m[0], stem: stem(m[0]), start: m.index, end: m.index + m[0].length }));
  const out: FormMatch[] = [];
  for (const [kind, c] of compiledKinds()) {
    if (kinds && !kinds.includes(kind)) continue;
    for (let i = 0; i < words.length; i++) {
      for (let n = Math.min(MAX_STEMMED_WORDS, words.length - i); n >= 1; n--) {
        // Only words separated by a space or a hyphen make one phrase.
        const run = words.slice(i, i + n);
        if (run.some((w, j) => j > 0 && !/^[ -]$/.test(norm.slice(run[j - 1]!.end, w.start)))) continue;
        const stems = run.map((w) => w.stem);
        const hit = c.byStems.get(stems.join(' ')) ?? (n >= 2 ? familyPhrase(c, stems) : undefined);
        // A bare word does not stand for a form derived from it: "green" is not "greening", "map" not "mapping".
        if (hit && n === 1 && run[0]!.word === run[0]!.stem && hit.form !== run[0]!.word) continue;
        if (hit) {
          out.push({ kind, ids: hit.ids, form: hit.form, start: run[0]!.start, end: run[n - 1]!.end });
          break;
        }
      }
    }
  }
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

// ---------------------------------------------------------------------------------------------------
// Request context

/** Suffixes that only tell two items of the same kind apart (`_t1`, `_2020`, `_pre`, `_a`). */
const DATE_SUFFIX = /(?:_(?:t\d+|\d{1,4}|pre|post|before|after|old|new|early|late|first|second|start|end|ref|reference|a|b))+$/;

const IMAGE_WORDS = new Set(['image', 'images', 'scene', 'scenes', 'img', 'raster', 'tile', 'tiles', 'imagery', 'data']);

/**
 * Maps the free-form ids a client lists as `available` (`landcover_map_t1`, `scene_2020`, `sigma0_db`,
 * `coregistered_pair`) to graph names (products and capabilities). Two items of the same product make a
 * pair: two images are an `image_pair` (not yet co-registered), two land-cover maps are still
 * `landcover_map`. Unrecognised items are returned unchanged so that exact tool-id matches still work.
 */
export function normalizeAvailable(items: readonly string[] | undefined): string[] {
  if (!items) return [];
  const i = idx();
  const out = new Set<string>();
  const counts = new Map<string, number>();
  for (const raw of items) {
    const key = normalizeForMatch(raw).trim().replace(/[\s-]+/g, '_');
    if (!key) continue;
    const stripped = key.replace(DATE_SUFFIX, '') || key;
    let found: string | undefined;
    for (const cand of [key, stripped]) {
      if (i.products.has(cand) || i.capabilities.has(cand)) {
        found = cand;
        break;
      }
      if (IMAGE_WORDS.has(cand)) {
        found = 'image';
        break;
      }
    }
    if (!found) {
      const hits = matchForms(stripped.replace(/_/g, ' '), ['product', 'capability']);
      const best = hits.sort((a, b) => b.end - b.start - (a.end - a.start))[0];
      found = best?.ids[0];
    }
    const name = found ?? key;
    out.add(name);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  for (const [name, n] of counts) {
    if (n >= 2 && productSatisfies(name, 'image')) out.add('image_pair');
  }
  return [...out];
}
