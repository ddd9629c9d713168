import type { Concept } from '../lexicon/types.ts';
import { hashString } from './hashing.ts';
import { analyse, hasUnspacedScript, normaliseText, type Analysis, type WordToken } from './text.ts';

interface WordForm {
  stems: string[];
  ids: string[];
}

interface CharForm {
  text: string;
  ids: string[];
}

const NO_FORMS: readonly CharForm[] = [];

export interface ConceptMatches {
  /** Concept ids mentioned in the text, once per occurrence. */
  ids: string[];
  /**
   * Words inside a multi-word match: "car park" is parking, not a park, so the embedder weakens what these
   * words say on their own.
   */
  phraseTokens: Set<WordToken>;
}

/** Finds the concepts a text mentions. */
export interface ConceptMatcher {
  /** Number of distinct surface forms compiled. */
  readonly size: number;
  /** Short hex digest of the concept set: vectors made with different lexicons live in different spaces. */
  readonly fingerprint: string;
  match(analysis: Analysis): ConceptMatches;
}

/**
 * English forms go through the same analysis as the texts, so "coffee shops" matches the form
 * "coffee shop". Stop words stay part of the form: dropping them would shrink "place to park" to "park".
 */
function formStems(form: string): string[] {
  return analyse(form).clauses.flatMap((clause) => clause.map((token) => token.stem));
}

function addForm<F extends { ids: string[] }>(forms: Map<string, F>, key: string, make: () => F, id: string): void {
  let entry = forms.get(key);
  if (!entry) {
    entry = make();
    forms.set(key, entry);
  }
  // A form listed under two concepts is genuinely ambiguous ("bar"): both concepts fire.
  if (!entry.ids.includes(id)) entry.ids.push(id);
}

/** Groups forms by their first element, longest first, so the first hit at a position is the longest match. */
function indexByFirst<T>(forms: Iterable<T>, first: (form: T) => string, length: (form: T) => number): Map<string, T[]> {
  const index = new Map<string, T[]>();
  for (const form of forms) {
    const key = first(form);
    const list = index.get(key);
    if (list) list.push(form);
    else index.set(key, [form]);
  }
  for (const list of index.values()) list.sort((a, b) => length(b) - length(a));
  return index;
}

function fingerprintOf(concepts: readonly Concept[]): string {
  const canonical = concepts
    .map((c) => `${c.id}:${[...c.en].sort().join('|')}:${[...c.zh].sort().join('|')}`)
    .sort()
    .join('\n');
  return hashString(canonical, 0x6c6578).toString(16).padStart(8, '0');
}

/** Whether the form's stems follow each other in `tokens` from position `at`. */
function formAt(form: WordForm, tokens: readonly WordToken[], at: number): boolean {
  if (form.stems.length > tokens.length - at) return false;
  for (let k = 0; k < form.stems.length; k++) if (tokens[at + k]!.stem !== form.stems[k]) return false;
  return true;
}

function matchWords(tokens: readonly WordToken[], index: Map<string, WordForm[]>, out: ConceptMatches): void {
  let i = 0;
  while (i < tokens.length) {
    let advance = 1;
    const forms = index.get(tokens[i]!.stem);
    if (forms === undefined) {
      i++;
      continue;
    }
    for (const form of forms) {
      if (formAt(form, tokens, i)) {
        out.ids.push(...form.ids);
        advance = form.stems.length;
        if (advance > 1) for (let k = i; k < i + advance; k++) out.phraseTokens.add(tokens[k]!);
        break;
      }
    }
    i += advance;
  }
}

function matchChars(text: string, index: Map<string, CharForm[]>, out: string[]): void {
  let i = 0;
  while (i < text.length) {
    let advance = 1;
    for (const form of index.get(text[i]!) ?? NO_FORMS) {
      if (text.startsWith(form.text, i)) {
        out.push(...form.ids);
        advance = form.text.length;
        break;
      }
    }
    i += advance;
  }
}

/**
 * Compiles concept surface forms into a leftmost-longest matcher: at each position the longest form wins
 * and matching resumes after it, so "coffee shop" yields the coffee-shop concept and not also "shop".
 * English forms match whole stemmed words within one clause; forms in unspaced scripts (Chinese) match
 * as substrings of the normalised text, since Chinese has no word boundaries to respect.
 */
export function compileConcepts(concepts: readonly Concept[]): ConceptMatcher {
  const wordForms = new Map<string, WordForm>();
  const charForms = new Map<string, CharForm>();
  for (const concept of concepts) {
    for (const form of [...concept.en, ...concept.zh]) {
      if (hasUnspacedScript(form)) {
        const text = normaliseText(form).trim();
        if (text) addForm(charForms, text, () => ({ text, ids: [] }), concept.id);
      } else {
        const stems = formStems(form);
        if (stems.length > 0) addForm(wordForms, stems.join(' '), () => ({ stems, ids: [] }), concept.id);
      }
    }
  }
  const wordIndex = indexByFirst(wordForms.values(), (f) => f.stems[0]!, (f) => f.stems.length);
  const charIndex = indexByFirst(charForms.values(), (f) => f.text[0]!, (f) => f.text.length);
  // When every char form holds a character of an unspaced script, a text without one (most place
  // descriptions) cannot contain any of them and needs no scan character by character.
  const scanNeedsUnspaced = [...charForms.values()].every((f) => hasUnspacedScript(f.text));
  return {
    size: wordForms.size + charForms.size,
    fingerprint: fingerprintOf(concepts),
    match(analysis) {
      const out: ConceptMatches = { ids: [], phraseTokens: new Set() };
      if (wordIndex.size > 0) {
        for (const clause of analysis.clauses) matchWords(clause, wordIndex, out);
      }
      if (charIndex.size > 0 && (!scanNeedsUnspaced || hasUnspacedScript(analysis.normalised))) {
        matchChars(analysis.normalised, charIndex, out.ids);
      }
      return out;
    },
  };
}
