/**
 * A small BM25 index over tool texts. Dense vectors from the offline embedder blur rare but decisive
 * words (an index acronym, "Otsu", "median"); BM25 rewards them by their rarity across the catalog.
 * Terms are the embedder's own stems (same analysis, so "calibrate" meets "calibration"), adjacent-word
 * bigrams (so "VH/VV" is told from "VV/VH") and Chinese character bigrams.
 */
import { analyse, EN_STOP_WORDS, stem } from '../embedding/text.ts';

export interface WeightedTerm {
  term: string;
  weight: number;
}

/** Terms of a text, with counts. Numbers are dropped: years and resolutions say nothing about a tool. */
export function lexicalTerms(text: string): Map<string, number> {
  const analysis = analyse(text);
  const out = new Map<string, number>();
  const add = (term: string, by = 1) => out.set(term, (out.get(term) ?? 0) + by);
  for (const clause of analysis.clauses) {
    let previous: string | undefined;
    for (const token of clause) {
      if (token.stop) continue;
      if (token.numeric || token.stem.length < 2) {
        previous = undefined;
        continue;
      }
      add(token.stem);
      if (previous) add(`${previous}_${token.stem}`, 0.5);
      previous = token.stem;
    }
  }
  // A hyphenated word with a stop word in it ("no-data", "all-weather") would lose that part and its
  // meaning with it: it also counts as one word, so "no-data" meets "nodata".
  for (const m of text.matchAll(/[A-Za-z]+(?:-[A-Za-z]+)+/g)) {
    const parts = m[0].toLowerCase().split('-');
    if (parts.some((p) => EN_STOP_WORDS.has(p))) add(stem(parts.join('')));
  }
  for (const run of analysis.unspaced) {
    const chars = Array.from(run);
    if (chars.length === 1) add(chars[0]!);
    for (let i = 0; i + 1 < chars.length; i++) add(chars[i]! + chars[i + 1]!);
  }
  return out;
}

export interface LexicalField {
  text: string;
  /** How much a term found in this field counts (the name says more than the prose). */
  weight: number;
}

export interface LexicalDoc {
  id: string;
  fields: LexicalField[];
}

/** A document's weighted term frequencies and weighted length, computed once per document. */
export interface DocTerms {
  tf: Map<string, number>;
  length: number;
}

export function docTerms(doc: LexicalDoc): DocTerms {
  const tf = new Map<string, number>();
  let length = 0;
  for (const field of doc.fields) {
    for (const [term, count] of lexicalTerms(field.text)) {
      tf.set(term, (tf.get(term) ?? 0) + count * field.weight);
      length += count * field.weight;
    }
  }
  return { tf, length };
}

export interface LexicalIndex {
  size: number;
  avgLength: number;
  ids: string[];
  /** id -> document number */
  docOf: Map<string, number>;
  /** term -> parallel arrays of document numbers and weighted term frequencies */
  postings: Map<string, Postings>;
  lengths: Float32Array;
}

const K1 = 1.2;
const B = 0.75;
/** Terms in more than this share of the documents carry almost no weight and cost the most to score. */
const MAX_DF_SHARE = 0.5;

export function buildLexicalIndex(docs: Iterable<[id: string, terms: DocTerms]>): LexicalIndex {
  const ids: string[] = [];
  const lengthList: number[] = [];
  const lists = new Map<string, { docs: number[]; tf: number[] }>();
  let total = 0;
  for (const [id, { tf, length }] of docs) {
    const n = ids.length;
    ids.push(id);
    lengthList.push(length);
    total += length;
    for (const [term, f] of tf) {
      let list = lists.get(term);
      if (!list) lists.set(term, (list = { docs: [], tf: [] }));
      list.docs.push(n);
      list.tf.push(f);
    }
  }
  const postings = new Map<string, { docs: Int32Array; tf: Float32Array }>();
  for (const [term, list] of lists) postings.set(term, { docs: Int32Array.from(list.docs), tf: Float32Array.from(list.tf) });
  return {
    size: ids.length,
    avgLength: ids.length ? total / ids.length : 1,
    ids,
    docOf: new Map(ids.map((id, i) => [id, i])),
    postings,
    lengths: Float32Array.from(lengthList),
  };
}

/** Query terms with weights (an enrichment term counts less than a word the user typed). */
export function queryTerms(text: string, weight = 1): WeightedTerm[] {
  return [...lexicalTerms(text)].map(([term, count]) => ({ term, weight: weight * Math.min(count, 2) }));
}

export function mergeTerms(...lists: WeightedTerm[][]): WeightedTerm[] {
  const merged = new Map<string, number>();
  for (const list of lists) for (const t of list) merged.set(t.term, Math.max(merged.get(t.term) ?? 0, t.weight));
  return [...merged].map(([term, weight]) => ({ term, weight }));
}

function idf(index: LexicalIndex, df: number): number {
  return Math.log(1 + (index.size - df + 0.5) / (df + 0.5));
}

/** BM25 scores of one query: dense per document (no map of thousands of entries to build). */
export class LexicalScores {
  constructor(
    private readonly index: LexicalIndex,
    private readonly acc: Float64Array,
    /** Documents with a non-zero score. */
    readonly touched: readonly number[],
  ) {}

  get(id: string): number {
    const d = this.index.docOf.get(id);
    return d === undefined ? 0 : this.acc[d]!;
  }

  /** The `n` best documents, best first (ties by id, so results are stable). */
  top(n: number): [string, number][] {
    const top: [string, number][] = [];
    for (const d of this.touched) {
      const score = this.acc[d]!;
      if (top.length === n && score <= top[n - 1]![1]) continue;
      const id = this.index.ids[d]!;
      let i = top.length;
      while (i > 0 && (top[i - 1]![1] < score || (top[i - 1]![1] === score && top[i - 1]![0] > id))) i--;
      top.splice(i, 0, [id, score]);
      if (top.length > n) top.pop();
    }
    return top;
  }
}

type Postings = { docs: Int32Array; tf: Float32Array };

/** The postings of a query term worth scoring (terms in most documents are not), with its BM25 weight. */
function scoredPostings(index: LexicalIndex, { term, weight }: WeightedTerm): { list: Postings; w: number } | undefined {
  const list = index.postings.get(term);
  if (!list || (index.size > 50 && list.docs.length > MAX_DF_SHARE * index.size)) return undefined;
  return { list, w: idf(index, list.docs.length) * weight * (K1 + 1) };
}

/** One term's BM25 share in document `d`, where it occurs `f` times (weighted). */
function termScore(index: LexicalIndex, w: number, f: number, d: number): number {
  return (w * f) / (f + K1 * (1 - B) + B * (K1 / index.avgLength) * index.lengths[d]!);
}

/** BM25 scores of every document containing at least one (not ubiquitous) query term. */
export function scoreAll(index: LexicalIndex, terms: readonly WeightedTerm[]): LexicalScores {
  const acc = new Float64Array(index.size);
  const touched: number[] = [];
  for (const term of terms) {
    const scored = scoredPostings(index, term);
    if (!scored) continue;
    const { docs, tf } = scored.list;
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!;
      if (acc[d] === 0) touched.push(d);
      acc[d] = acc[d]! + termScore(index, scored.w, tf[i]!, d);
    }
  }
  return new LexicalScores(index, acc, touched);
}

/** The `n` best documents, best first. */
export function topLexical(index: LexicalIndex, terms: readonly WeightedTerm[], n: number): [string, number][] {
  return scoreAll(index, terms).top(n);
}

/** Vocabulary of an index by the first PREFIX characters of each plain word term (built once per index). */
const prefixTables = new WeakMap<LexicalIndex, Map<string, string[]>>();
const PREFIX = 4;

function prefixTable(index: LexicalIndex): Map<string, string[]> {
  let table = prefixTables.get(index);
  if (!table) {
    table = new Map();
    for (const term of index.postings.keys()) {
      if (term.length < PREFIX || !/^[a-z]+$/.test(term)) continue;
      const key = term.slice(0, PREFIX);
      const list = table.get(key);
      if (list) list.push(term);
      else table.set(key, [term]);
    }
    prefixTables.set(index, table);
  }
  return table;
}

/**
 * Terms the catalog does not contain, joined to catalog terms of the same word family that the stemmer
 * left apart ("algal" and "alga", "glacial" and "glacier"): one must start with the other, or both share
 * all but the last two letters of the longer, with at least four letters shared. Such a match is weaker
 * evidence than the same stem, so it carries `factor` of the term's weight.
 */
export function relatedTerms(index: LexicalIndex, terms: readonly WeightedTerm[], factor = 0.5): WeightedTerm[] {
  const table = prefixTable(index);
  const out: WeightedTerm[] = [];
  for (const { term, weight } of terms) {
    if (term.length < PREFIX + 1 || index.postings.has(term) || !/^[a-z]+$/.test(term)) continue;
    for (const candidate of table.get(term.slice(0, PREFIX)) ?? []) {
      if (sameFamily(term, candidate)) out.push({ term: candidate, weight: weight * factor });
    }
  }
  return out;
}

export function sameFamily(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  let shared = 0;
  while (shared < short.length && short[shared] === long[shared]) shared++;
  if (shared < PREFIX) return false;
  return shared === short.length ? long.length - shared <= 3 : shared >= long.length - 2;
}

/** The weighted term frequency of document `d` in a posting list (its documents are in ascending order). */
function tfIn(list: Postings, d: number): number {
  let lo = 0;
  let hi = list.docs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = list.docs[mid]!;
    if (at === d) return list.tf[mid]!;
    if (at < d) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

/** What each query term adds to one document's BM25 score (terms it lacks are left out). */
export function termContributions(index: LexicalIndex, terms: readonly WeightedTerm[], id: string): Map<string, number> {
  const out = new Map<string, number>();
  const d = index.docOf.get(id);
  if (d === undefined) return out;
  for (const term of terms) {
    const scored = scoredPostings(index, term);
    const f = scored ? tfIn(scored.list, d) : 0;
    if (f > 0) out.set(term.term, (out.get(term.term) ?? 0) + termScore(index, scored!.w, f, d));
  }
  return out;
}
