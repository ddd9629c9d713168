/**
 * Meaning of words no lexicon lists, read from pretrained word vectors (src/lexicon/word-vectors.ts).
 *
 * The knowledge graph and BM25 only see words they hold; an everyday request uses words that neither the
 * graph nor the catalog text contain. Two general uses of the vectors, both weighted below what is listed:
 *
 * - concepts: a request word no form of the graph uses is read as the task or object concept whose form is
 *   closest, when that closeness passes a threshold and stands out from the next concept (request/facts.ts);
 * - query expansion: a request word the catalog does not contain is joined to the catalog's own words
 *   whose vectors are close enough, as extra BM25 terms weighted by closeness (search/rank.ts).
 *
 * GloVe vectors share a common direction (frequent words are all somewhat alike); it is removed (the mean
 * vector of the frequent words is subtracted) before comparing, which makes unrelated words score near 0.
 * A third use, a word-vector mean per tool text compared with the request's as one more similarity
 * signal, was measured on the tuning halves and lowered hit@1 (0.820 -> 0.803 on the paraphrase half,
 * 0.588 -> 0.571 on the foreign catalog's): averaged over a whole text the vectors blur what the rare
 * words say, so it is not used. Weighting the words by their IDF over the catalog (meaning.ts) did not
 * change that.
 */
import { analyse, stem } from '../embedding/text.ts';
import { wordVectors, type WordVectors } from '../lexicon/word-vectors.ts';
import { lexicalFields } from './capability.ts';
import type { CatalogSnapshot } from './catalog-cache.ts';
import type { LexicalIndex, WeightedTerm } from './lexical.ts';
import { knowledgeGraph } from './knowledge/index.ts';

export const VECTOR_DIMENSIONS = 100;
const DIMENSIONS = VECTOR_DIMENSIONS;
/** Words ranked above this in general-English frequency are the ones whose mean is the common direction. */
const COMMON_WORDS = 20_000;

interface Space {
  vectors: WordVectors;
  common: Float32Array;
  /** Frequency rank of a word (its row in the table; the shipped table is in corpus-frequency order). */
  rank: Map<string, number>;
  cache: Map<string, Float32Array | null>;
}

let space: Space | undefined;

function spaceOf(): Space {
  if (space) return space;
  const vectors = wordVectors();
  const words = vectors.words();
  const common = new Float32Array(DIMENSIONS);
  const n = Math.min(COMMON_WORDS, words.length);
  for (let i = 0; i < n; i++) {
    const v = vectors.vector(words[i]!)!;
    for (let d = 0; d < DIMENSIONS; d++) common[d]! += v[d]! / n;
  }
  space = { vectors, common, rank: new Map(words.map((w, i) => [w, i])), cache: new Map() };
  return space;
}

/** A word's vector without the common direction, unit length; undefined when the word is not in the table. */
export function senseVector(word: string): Float32Array | undefined {
  const s = spaceOf();
  const cached = s.cache.get(word);
  if (cached !== undefined) return cached ?? undefined;
  const v = s.vectors.vector(word);
  let out: Float32Array | null = null;
  if (v) {
    out = new Float32Array(DIMENSIONS);
    let norm = 0;
    for (let d = 0; d < DIMENSIONS; d++) {
      out[d] = v[d]! - s.common[d]!;
      norm += out[d]! * out[d]!;
    }
    const inv = 1 / Math.sqrt(norm);
    for (let d = 0; d < DIMENSIONS; d++) out[d]! *= inv;
  }
  if (s.cache.size > 100_000) s.cache.clear();
  s.cache.set(word, out);
  return out ?? undefined;
}

export function dot(a: Float32Array, b: Float32Array, offset = 0): number {
  let sum = 0;
  for (let d = 0; d < DIMENSIONS; d++) sum += a[d]! * b[offset + d]!;
  return sum;
}

/**
 * How much a word of a request says, from its general-English frequency: the most frequent words
 * ("show", "area") little, rare ones fully. Words outside the table get the weight of a rare word.
 */
export function informationOf(word: string): number {
  const rank = spaceOf().rank.get(word);
  if (rank === undefined) return 1;
  return Math.min(1, Math.max(0.1, Math.log10(rank + 10) - 2) / 2);
}

/** Plain content words of a text (stop words, numbers and non-Latin script left out), as written. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const clause of analyse(text).clauses) for (const t of clause) if (!t.stop && !t.numeric && /^[a-z][a-z-]+$/.test(t.surface)) out.push(t.surface);
  return out;
}

/** Unit-length weighted mean of the words' sense vectors; undefined when no word has one. */
export function weightedMean(words: Iterable<readonly [string, number]>): Float32Array | undefined {
  const sum = new Float32Array(DIMENSIONS);
  let any = false;
  for (const [word, weight] of words) {
    const v = senseVector(word);
    if (!v || !(weight > 0)) continue;
    any = true;
    for (let d = 0; d < DIMENSIONS; d++) sum[d]! += weight * v[d]!;
  }
  if (!any) return undefined;
  const norm = Math.hypot(...sum);
  if (!(norm > 0)) return undefined;
  for (let d = 0; d < DIMENSIONS; d++) sum[d]! /= norm;
  return sum;
}

/**
 * Whether the two readings take part in tool search. Both are off: measured with the service's whole
 * pipeline, neither moved the paraphrase tuning half (hit@1 0.820, MRR@5 0.855 with or without), the
 * foreign catalog's tuning half or the development set, and on the check half each lost one request
 * (hit@1 0.644 without them, 0.627 with either one, 0.610 with both): single words read by vectors err as often as they help
 * while the graph and BM25 already cover what the sets ask. They stay available (a deployment or a test
 * may switch them on) for catalogs and wording the graph covers less; the meaning match of the workflow
 * memory (src/memory/priors.ts) and the Chinese glosses do not depend on them.
 */
export const WORD_SENSE = { concepts: false, expansion: false };

// ---------------------------------------------------------------------------------------------------
// Per-catalog tables

interface CatalogSenses {
  /** The catalog's words that have a vector, with their stem as the lexical index holds it. */
  vocabulary: string[];
  stems: string[];
  vocabularyVectors: Float32Array;
  expansions: Map<string, WeightedTerm[]>;
}

const tables = new WeakMap<LexicalIndex, CatalogSenses>();

function catalogSenses(snapshot: CatalogSnapshot): CatalogSenses {
  const index = snapshot.lexical;
  const existing = tables.get(index);
  if (existing) return existing;
  const vocabulary = new Map<string, string>();
  for (const id of index.ids) {
    const tool = snapshot.lookup(id);
    if (!tool) continue;
    for (const field of lexicalFields(tool)) {
      for (const word of contentWords(field.text)) {
        const s = stem(word);
        if (!vocabulary.has(word) && index.postings.has(s)) vocabulary.set(word, s);
      }
    }
  }
  const words = [...vocabulary.keys()].filter((w) => senseVector(w));
  const vocabularyVectors = new Float32Array(words.length * DIMENSIONS);
  words.forEach((w, i) => vocabularyVectors.set(senseVector(w)!, i * DIMENSIONS));
  const table: CatalogSenses = { vocabulary: words, stems: words.map((w) => vocabulary.get(w)!), vocabularyVectors, expansions: new Map() };
  tables.set(index, table);
  return table;
}

/** How close a catalog word must be to an unknown request word to stand in for it (chosen on the tuning half). */
export const EXPANSION_TUNING = { threshold: 0.55, minInformation: 0.5 };
const EXPANSIONS_PER_WORD = 3;

/**
 * Catalog terms for request terms the catalog does not hold: the catalog's words whose vectors are within
 * the threshold of the word, each weighted by `factor` times its closeness (below a typed word).
 */
export function expandUnknownWords(snapshot: CatalogSnapshot, words: readonly string[], weightOf: (word: string) => number, factor = 0.5, threshold = EXPANSION_TUNING.threshold): WeightedTerm[] {
  const t = catalogSenses(snapshot);
  const out: WeightedTerm[] = [];
  for (const word of words) {
    if (snapshot.lexical.postings.has(stem(word)) || weightOf(word) < EXPANSION_TUNING.minInformation) continue;
    const key = `${word} ${threshold}`;
    let found = t.expansions.get(key);
    if (!found) {
      found = [];
      const v = senseVector(word);
      if (v) {
        const scored: [number, number][] = [];
        for (let i = 0; i < t.vocabulary.length; i++) {
          const sim = dot(v, t.vocabularyVectors, i * DIMENSIONS);
          if (sim >= threshold) scored.push([i, sim]);
        }
        scored.sort((a, b) => b[1] - a[1]);
        const seen = new Set<string>();
        for (const [i, sim] of scored) {
          if (seen.has(t.stems[i]!)) continue;
          seen.add(t.stems[i]!);
          found.push({ term: t.stems[i]!, weight: sim });
          if (found.length >= EXPANSIONS_PER_WORD) break;
        }
      }
      if (t.expansions.size > 20_000) t.expansions.clear();
      t.expansions.set(key, found);
    }
    const w = weightOf(word) * factor;
    for (const e of found) out.push({ term: e.term, weight: w * e.weight });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Task concepts for words the graph does not list

interface FormVector {
  concept: string;
  form: string;
  /** Stems of the form's words: a word sharing one only partly matches the form ("damaged" and "damage assessment"). */
  stems: ReadonlySet<string>;
  vector: Float32Array;
}

let formVectors: FormVector[] | undefined;

/** One vector per English form of the graph's task and object concepts (the mean of its words). */
function conceptForms(): FormVector[] {
  if (formVectors) return formVectors;
  formVectors = [];
  for (const c of knowledgeGraph().concepts) {
    if (c.kind !== 'task' && c.kind !== 'object') continue;
    for (const form of c.en) {
      const words = contentWords(form);
      const vector = weightedMean(words.map((w) => [w, 1]));
      if (vector) formVectors.push({ concept: c.id, form, stems: new Set(words.map(stem)), vector });
    }
  }
  return formVectors;
}

export interface SenseConcept {
  id: string;
  /** The words read as the concept. */
  words: string[];
  /** Summed closeness above the floor (CONCEPT_TUNING). */
  score: number;
}

/**
 * Reading words as concepts. A word's closeness to a concept is that of the concept's closest form; only
 * closeness above `floor` counts as evidence, summed over the request's unknown words, so that words agree
 * or not ("submerged" with "downpour" says flooding more surely than either alone). A concept is read when
 * its evidence reaches `threshold` and exceeds the next concept's by `margin` (an everyday word close to
 * many concepts says none of them). `weight` is what a reading counts per unit of evidence, against 1 for
 * a form the graph lists; `minInformation` the least information (informationOf) a word must carry.
 * Chosen on the tuning half.
 */
export const CONCEPT_TUNING = { floor: 0.5, threshold: 0.18, margin: 0.08, weight: 2, minInformation: 0.5 };

const closenessCache = new Map<string, Map<string, number>>();

/**
 * Closeness of a word to each concept (only those above the floor). A word some form of the graph uses is
 * not unknown and gets none: its partial match says little ("field" in "per field", "damaged" in
 * "damaged crops").
 */
export function conceptCloseness(word: string): ReadonlyMap<string, number> {
  const cached = closenessCache.get(word);
  if (cached) return cached;
  const out = new Map<string, number>();
  const v = senseVector(word);
  const s = stem(word);
  if (v && !conceptForms().some((f) => f.stems.has(s))) {
    for (const f of conceptForms()) {
      const similarity = dot(v, f.vector);
      if (similarity > CONCEPT_TUNING.floor && similarity > (out.get(f.concept) ?? 0)) out.set(f.concept, similarity);
    }
  }
  if (closenessCache.size > 20_000) closenessCache.clear();
  closenessCache.set(word, out);
  return out;
}

/** The concepts a set of unknown words reads as (usually none or one), strongest first. */
export function conceptsOfWords(words: readonly string[]): SenseConcept[] {
  const evidence = new Map<string, SenseConcept>();
  for (const word of new Set(words)) {
    for (const [id, similarity] of conceptCloseness(word)) {
      const e = evidence.get(id) ?? { id, words: [], score: 0 };
      e.score += similarity - CONCEPT_TUNING.floor;
      e.words.push(word);
      evidence.set(id, e);
    }
  }
  const ranked = [...evidence.values()].sort((a, b) => b.score - a.score);
  const [first, second] = ranked;
  if (!first || first.score < CONCEPT_TUNING.threshold || first.score - (second?.score ?? 0) < CONCEPT_TUNING.margin) return [];
  return [first];
}
