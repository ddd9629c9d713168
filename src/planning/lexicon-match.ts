/**
 * Longest-match lookup of lexicon phrases (kinds of places, qualitative cues) in a question.
 *
 * English phrases are matched on word tokens of the folded text (so "cafés" = "cafe", "fast-food" = "fast food"),
 * with generated plurals; Chinese phrases as substrings. Spans that belong to references are masked first:
 * "Tompkins Square Park" must not yield a `park` target, nor "Staten Island Ferry Terminal" a ferry terminal.
 */
import { wordVectors } from '../lexicon/word-vectors.ts';
import { buildKindVocabulary, guessKind, type KindGuess, type KindVocabulary } from '../lexicon/kind-vectors.ts';
import { poiConcepts, poiConceptById, FOOD_QUALIFIER_IDS, GENERIC_FOOD_HEAD_IDS } from '../lexicon/poi-concepts.ts';
import { presetConceptById, presetVocabulary } from '../lexicon/presets.ts';
import { englishVocabulary, glossChinese } from '../lexicon/zh-gloss.ts';
import type { PoiConcept, TagFilter } from '../lexicon/types.ts';
import { brandTags, matchBrands, type BrandIndex } from './brands.ts';
import { foldAligned, foldKey, overlapsAny, type Span } from './text.ts';
import { NOT_TYPOS, typoBudget, typoDistance } from './typos.ts';
import { CUES } from '../lexicon/cues.ts';

export interface Token extends Span {
  /** Folded text of the token. */
  low: string;
}

const WORD_RE = /[\p{L}\p{N}]+(?:['&][\p{L}\p{N}]+)*/gu;

/** Word tokens of folded text (Han runs included, as single tokens). */
export function tokenize(folded: string): Token[] {
  const out: Token[] = [];
  for (const m of folded.matchAll(WORD_RE)) out.push({ start: m.index, end: m.index + m[0].length, low: m[0] });
  return out;
}

function keyOf(phrase: string): string {
  return tokenize(foldKey(phrase))
    .map((t) => t.low)
    .join(' ');
}

export function pluralOf(word: string): string | undefined {
  if (/'s$|s$/.test(word) || /[^a-z]$/.test(word)) return undefined;
  if (/(ch|sh|x|z)$/.test(word)) return `${word}es`;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

interface Entry {
  ids: string[];
  plural: boolean;
}

interface PhraseIndex {
  en: Map<string, Entry>;
  enMaxTokens: number;
  /** Chinese (and other unspaced) phrases, longest first. */
  zh: Array<{ form: string; ids: string[] }>;
}

function addEn(map: Map<string, Entry>, key: string, id: string, plural: boolean): void {
  if (!key) return;
  const e = map.get(key);
  if (!e) map.set(key, { ids: [id], plural });
  else if (!e.ids.includes(id)) e.ids.push(id);
}

function buildIndex(entries: Array<{ id: string; en: string[]; zh: string[] }>): PhraseIndex {
  const en = new Map<string, Entry>();
  const zhMap = new Map<string, string[]>();
  let enMaxTokens = 1;
  for (const { id, en: forms, zh } of entries) {
    for (const form of forms) {
      const key = keyOf(form);
      if (!key) continue;
      const words = key.split(' ');
      enMaxTokens = Math.max(enMaxTokens, words.length);
      addEn(en, key, id, false);
      const last = words[words.length - 1]!;
      const pl = pluralOf(last);
      if (pl) addEn(en, [...words.slice(0, -1), pl].join(' '), id, true);
    }
    for (const form of zh) {
      const f = foldKey(form);
      if (!f) continue;
      // Latin-only forms in the Chinese list ("ATM", "KTV") are matched as English words.
      if (/^[a-z0-9 &']+$/.test(f)) {
        addEn(en, keyOf(f), id, false);
        continue;
      }
      const ids = zhMap.get(f) ?? [];
      if (!ids.includes(id)) ids.push(id);
      zhMap.set(f, ids);
    }
  }
  const zh = [...zhMap.entries()].map(([form, ids]) => ({ form, ids })).sort((a, b) => b.form.length - a.form.length);
  return { en, enMaxTokens, zh };
}

let conceptIndex: PhraseIndex | undefined;
function getConceptIndex(): PhraseIndex {
  conceptIndex ??= buildIndex(poiConcepts);
  return conceptIndex;
}

let presetIndex: { strong: PhraseIndex; weak: PhraseIndex } | undefined;
/**
 * The community vocabulary (iD presets), consulted for the words the hand lexicon does not match: preset names
 * ("post office") are strong, synonym terms ("parcel") weak.
 */
function getPresetIndex(): { strong: PhraseIndex; weak: PhraseIndex } {
  if (!presetIndex) {
    // A qualitative cue ("cheap", "wifi", "view") is a cue even when some preset lists it as a synonym.
    const cueKeys = new Set(CUES.flatMap((c) => [...c.en.map(keyOf), ...c.zh.map((z) => foldKey(z))]));
    const { en, zh } = presetVocabulary();
    const group = (strong: boolean) => {
      const byId = new Map<string, { id: string; en: string[]; zh: string[] }>();
      const entry = (id: string) => byId.get(id) ?? byId.set(id, { id, en: [], zh: [] }).get(id)!;
      for (const f of en) if (f.strong === strong && !cueKeys.has(keyOf(f.form))) entry(f.id).en.push(f.form);
      for (const f of zh) if (f.strong === strong && !cueKeys.has(foldKey(f.form))) entry(f.id).zh.push(f.form);
      return buildIndex([...byId.values()]);
    };
    presetIndex = { strong: group(true), weak: group(false) };
  }
  return presetIndex;
}

/** Builds the vocabularies the planner loads lazily (presets, the Chinese glossary and English words). */
export function warmPlannerVocabularies(): void {
  getPresetIndex();
  englishVocabulary();
}

/** A kind of place by id: the hand lexicon's, or a preset's (`osm:key=value`). */
export function lookupConcept(id: string): PoiConcept | undefined {
  return poiConceptById.get(id) ?? (id.startsWith('osm:') ? presetConceptById(id) : undefined);
}

/**
 * Hand-lexicon matches first; when they find no kind of place, the preset vocabulary: its names, else the
 * first synonym term only (a need is said once, "print my boarding pass"; later terms are its objects).
 */
function matchKinds(folded: string, masked: readonly Span[], weak = true): PhraseMatch[] {
  const hand = matchIndex(folded, getConceptIndex(), masked);
  if (hand.length) return hand;
  const presets = getPresetIndex();
  const strong = matchIndex(folded, presets.strong, masked);
  if (strong.length || !weak) return strong;
  return matchIndex(folded, presets.weak, masked).slice(0, 1);
}

export interface PhraseMatch extends Span {
  ids: string[];
  plural: boolean;
}

/** All longest, non-overlapping matches of the index in `folded`, outside `masked` spans, in text order. */
function matchIndex(folded: string, index: PhraseIndex, masked: readonly Span[]): PhraseMatch[] {
  const candidates: PhraseMatch[] = [];
  const tokens = tokenize(folded).filter((t) => !overlapsAny(t, masked));
  for (let i = 0; i < tokens.length; i++) {
    let key = '';
    for (let n = 0; n < index.enMaxTokens && i + n < tokens.length; n++) {
      const t = tokens[i + n]!;
      if (n > 0) {
        // Only whitespace (or a folded hyphen/slash) may separate the words of a phrase.
        const gap = folded.slice(tokens[i + n - 1]!.end, t.start);
        if (!/^\s{1,3}$/.test(gap)) break;
        key += ' ';
      }
      key += t.low;
      const e = index.en.get(key);
      if (e) candidates.push({ start: tokens[i]!.start, end: t.end, ids: e.ids, plural: e.plural });
    }
  }
  if (/[^\x00-\x7F]/.test(folded)) {
    for (const { form, ids } of index.zh) {
      let from = 0;
      for (;;) {
        const at = folded.indexOf(form, from);
        if (at < 0) break;
        const span = { start: at, end: at + form.length };
        if (!overlapsAny(span, masked)) candidates.push({ ...span, ids, plural: false });
        from = at + 1;
      }
    }
  }
  // Longest first, then leftmost; a phrase listed under several concepts contributes all of them.
  candidates.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const chosen: PhraseMatch[] = [];
  for (const c of candidates) if (!overlapsAny(c, chosen)) chosen.push(c);
  return chosen.sort((a, b) => a.start - b.start);
}

export interface TargetResult {
  text: string;
  concepts: string[];
  tags: TagFilter[];
  categories: string[];
  matches: PhraseMatch[];
  /** The kind of place was said in the plural ("cafés", "the three nearest pubs"). */
  plural: boolean;
  notes: string[];
}

const CONNECTOR_GAP = /^[\s,;]*(?:(?:and\/or|and|or|&|plus|as well as|或者|或是|或|和|还是|及|以及|与|跟|、|\/)[\s,;]*)*$/;

function mergeTags(target: TagFilter[], add: readonly TagFilter[]): void {
  for (const [key, values] of add) {
    const existing = target.find(([k]) => k === key);
    if (!existing) target.push([key, [...values]]);
    else for (const v of values) if (!existing[1].includes(v)) existing[1].push(v);
  }
}

/** Kinds of places named in the question, outside the masked (reference) spans. */
export function matchTargets(original: string, folded: string, masked: readonly Span[], brands?: BrandIndex): TargetResult {
  const notes: string[] = [];
  // A brand the data knows ("a Starbucks") is more specific than any kind of place said with it.
  const brandMatches = brands ? matchBrands(original, folded, masked, brands, /\p{Script=Han}/u.test(original) ? glossSpans(original) : []) : [];
  if (brandMatches.length) {
    const entries = brandMatches.map((b) => b.entry);
    notes.push(`brand: ${[...new Set(entries.map((e) => e.brand))].join(', ')} (the data's brand tags)`);
    return {
      text: brandMatches.map((b) => original.slice(b.start, b.end)).join(', '),
      concepts: [...new Set(entries.map((e) => `brand:${e.brand}`.slice(0, 100)))],
      tags: brandTags(entries),
      categories: [],
      matches: brandMatches.map((b) => ({ start: b.start, end: b.end, ids: [], plural: false })),
      plural: false,
      notes,
    };
  }
  let matches = matchKinds(folded, masked);
  if (matches.length === 0) {
    // Nothing known: a misspelt kind of place ("pharmcy") is read as the word it is one typo away from.
    const fixed = correctTypos(folded, masked);
    matches = fixed.map((f) => f.match);
    for (const f of fixed) notes.push(`"${original.slice(f.match.start, f.match.end)}" read as "${f.to}" (spelling)`);
  }
  if (matches.length === 0) {
    // Still nothing: the need word closest, by word vectors, to a known kind-of-place word, above a threshold.
    const guess = guessKindByVectors(original, folded, masked);
    if (guess) {
      matches = [guess.match];
      notes.push(`"${guess.need}" read as "${guess.as}" (word vectors, similarity ${guess.similarity.toFixed(2)})`);
    }
  }
  let ids: string[] = [];
  for (const m of matches) for (const id of m.ids) if (!ids.includes(id)) ids.push(id);
  if (ids.some((id) => FOOD_QUALIFIER_IDS.has(id)) && ids.some((id) => GENERIC_FOOD_HEAD_IDS.has(id))) {
    const dropped = ids.filter((id) => GENERIC_FOOD_HEAD_IDS.has(id));
    ids = ids.filter((id) => !GENERIC_FOOD_HEAD_IDS.has(id));
    notes.push(`${dropped.join(', ')} implied by ${ids.filter((id) => FOOD_QUALIFIER_IDS.has(id)).join(', ')}: kept the qualifier only (tags are OR-ed)`);
  }
  const tags: TagFilter[] = [];
  const categories: string[] = [];
  for (const id of ids) {
    const c = lookupConcept(id);
    if (!c) continue;
    mergeTags(tags, c.tags);
    for (const cat of c.categories) if (!categories.includes(cat)) categories.push(cat);
  }
  // Target text: adjacent matches joined by connectors ("bakeries or patisseries") read as one phrase.
  const groups: Span[] = [];
  for (const m of matches) {
    const last = groups[groups.length - 1];
    if (last && CONNECTOR_GAP.test(folded.slice(last.end, m.start))) last.end = m.end;
    else groups.push({ start: m.start, end: m.end });
  }
  const text = groups.map((g) => original.slice(g.start, g.end)).join(', ');
  return { text, concepts: ids, tags, categories, matches, plural: matches.some((m) => m.plural), notes };
}

/** The lexicon concept a reference phrase ends with ("... Park" -> park), to size a vague "near" around it. */
export function referenceHeadConcept(refText: string): string | undefined {
  const index = getConceptIndex();
  const folded = foldAligned(refText.normalize('NFKC'));
  const tokens = tokenize(folded).map((t) => t.low);
  // English: head noun last ("Bryant Park", "JFK Airport"), or first in "Lake X" / "Mount X".
  for (let n = Math.min(3, tokens.length); n >= 1; n--) {
    const e = index.en.get(tokens.slice(-n).join(' '));
    if (e) return e.ids[0];
  }
  const first = tokens[0];
  if (first && tokens.length > 1 && /^(lake|mount|mt|isle|island)$/.test(first)) {
    const e = index.en.get(first === 'mt' ? 'mountain' : first === 'mount' ? 'mountain' : first === 'isle' ? 'island' : first);
    if (e) return e.ids[0];
  }
  // Chinese: the longest form the name ends with ("麦迪逊广场公园" -> 公园).
  const compact = folded.replace(/\s+/g, '');
  for (const { form, ids } of index.zh) if (compact.length > form.length && compact.endsWith(form)) return ids[0];
  return undefined;
}

/** Is the whole phrase just a kind of place ("cafes", "药店")? Such a phrase is not a named reference. */
export function isTargetPhrase(phrase: string): boolean {
  const folded = foldAligned(phrase.normalize('NFKC')).trim();
  if (!folded) return false;
  // Synonym terms include proper names (a palace's name among a castle's terms): only names decide here.
  const ms = matchKinds(folded, [], false);
  if (ms.length === 0) return false;
  const covered = ms.reduce((n, m) => n + (m.end - m.start), 0);
  return covered >= folded.replace(/^(?:the|a|an|some|any)\s+/, '').replace(/\s+/g, '').length * 0.8;
}

/** Is this single folded token a one-word kind of place ("pizza", "cafes")? */
export function isSingleWordTarget(low: string): boolean {
  return getConceptIndex().en.has(low);
}

let kindVocabulary: KindVocabulary | undefined;
/** The single words of the hand lexicon and of the preset names, as the vector fallback's vocabulary. */
function getKindVocabulary(): KindVocabulary {
  if (!kindVocabulary) {
    const { concepts, en } = presetVocabulary();
    const presetNames = new Map<string, string[]>();
    for (const f of en) if (f.strong) presetNames.set(f.id, [...(presetNames.get(f.id) ?? []), f.form]);
    kindVocabulary = buildKindVocabulary([
      ...poiConcepts.map((c) => ({ id: c.id, forms: c.en })),
      ...concepts.map((c) => ({ id: c.id, forms: presetNames.get(c.id) ?? [] })),
    ]);
  }
  return kindVocabulary;
}

/**
 * The words a question may state its need with, outside the references: English words as written, Chinese
 * dictionary words by their English senses (the first two: a single character lists rare senses first as often as not).
 */
function needWords(original: string, folded: string, masked: readonly Span[]): Array<Span & { word: string }> {
  const out: Array<Span & { word: string }> = [];
  for (const t of tokenize(folded)) if (!overlapsAny(t, masked) && /^[a-z]+$/.test(t.low)) out.push({ start: t.start, end: t.end, word: t.low });
  if (/\p{Script=Han}/u.test(original)) {
    for (const seg of glossSpans(original)) {
      if (overlapsAny(seg, masked)) continue;
      const senses = seg.senses.slice(0, 2);
      for (const sense of senses) for (const w of sense.toLowerCase().split(/[^a-z]+/)) if (w) out.push({ start: seg.start, end: seg.end, word: w });
    }
  }
  return out;
}

function guessKindByVectors(original: string, folded: string, masked: readonly Span[]): (KindGuess & { match: PhraseMatch }) | undefined {
  const words = needWords(original, folded, masked);
  const guess = guessKind(words.map((w) => w.word), getKindVocabulary());
  if (!guess) return undefined;
  const at = words.find((w) => w.word === guess.need)!;
  return { ...guess, match: { start: at.start, end: at.end, ids: guess.ids, plural: false } };
}

/** Dictionary words of the Chinese runs of the text, with their positions and English senses. */
function glossSpans(text: string): Array<Span & { senses: string[] }> {
  const out: Array<Span & { senses: string[] }> = [];
  for (const run of text.matchAll(/\p{Script=Han}+/gu)) {
    let at = run.index;
    for (const seg of glossChinese(run[0])) {
      out.push({ start: at, end: at + seg.text.length, senses: seg.senses });
      at += seg.text.length;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Spelling

interface Correction {
  match: PhraseMatch;
  to: string;
}

/**
 * Unknown words corrected to the single-word kind of place they are closest to (same first letter, within the
 * length's typo budget, one best candidate only). Hand-lexicon words are preferred to preset words.
 */
function correctTypos(folded: string, masked: readonly Span[]): Correction[] {
  const out: Correction[] = [];
  const presets = getPresetIndex();
  const indexes = [getConceptIndex(), presets.strong];
  const cueWords = new Set(CUES.flatMap((c) => c.en.flatMap((f) => keyOf(f).split(' '))));
  for (const t of tokenize(folded)) {
    if (overlapsAny(t, masked) || !/^[a-z]+$/.test(t.low) || NOT_TYPOS.has(t.low) || cueWords.has(t.low)) continue;
    const budget = typoBudget(t.low.length);
    if (budget === 0 || indexes.some((ix) => ix.en.has(t.low))) continue;
    // A kind of place with a wrong plural ending ("librarys").
    const stem = t.low.replace(/(?:es|s)$/, '');
    const stemmed = indexes.map((ix) => ix.en.get(stem)).find((e) => e !== undefined);
    if (stem !== t.low && stemmed) {
      out.push({ match: { start: t.start, end: t.end, ids: stemmed.ids, plural: true }, to: stem });
      continue;
    }
    // A real English word is not a typo; its plural or past form neither.
    const vocabulary = englishVocabulary();
    if (vocabulary.has(t.low) || vocabulary.has(t.low.replace(/(?:es|s|ed|d)$/, ''))) continue;
    // Nor is a word of the pretrained vectors' frequent-word table ("lozenges" is not a misspelt "lounges").
    if (wordVectors().has(t.low)) continue;
    for (const ix of indexes) {
      let best: { key: string; d: number; ids: string[] } | undefined;
      let tie = false;
      for (const [key, e] of ix.en) {
        if (key.includes(' ') || key[0] !== t.low[0]) continue;
        const d = typoDistance(t.low, key, budget);
        if (d > budget) continue;
        if (!best || d < best.d) {
          best = { key, d, ids: e.ids };
          tie = false;
        } else if (d === best.d && best.ids.join() !== e.ids.join()) tie = true;
      }
      if (best && !tie) {
        out.push({ match: { start: t.start, end: t.end, ids: best.ids, plural: /s$/.test(best.key) }, to: best.key });
        break;
      }
    }
  }
  return out.slice(0, 2);
}

// ---------------------------------------------------------------------------------------------------------
// Qualitative cues (the semantic need that is not a kind of place)

let cueIndex: PhraseIndex | undefined;

/** Qualitative cue ids found outside the masked spans, in text order, without duplicates. */
export function matchCues(folded: string, masked: readonly Span[]): string[] {
  cueIndex ??= buildIndex(CUES);
  const out: string[] = [];
  for (const m of matchIndex(folded, cueIndex, masked)) for (const id of m.ids) if (!out.includes(id)) out.push(id);
  return out;
}
