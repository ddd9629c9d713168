/**
 * Meaning shared in other words: every tool text and the request as the IDF-weighted mean of pretrained
 * word vectors (GloVe, src/lexicon/word-vectors.ts, common direction removed in word-sense.ts).
 *
 * The offline embedder hashes character n-grams: it matches forms ("calibrate", "calibration") but not
 * meanings, so a request in everyday words ("the grass is drying out") shares nothing with a tool's
 * technical text ("vegetation moisture index"). Word vectors place such words near each other. A plain
 * mean over a whole description is dominated by its many frequent words, so each word is weighted by its
 * IDF over the catalog (a word most tools use says little about any one of them); request words the
 * catalog never uses have no IDF of their own and are weighted by their rarity in general English
 * (informationOf) times the catalog's highest IDF.
 *
 * Measured as a ranking of its own (eval/tool-baselines.ts) it stays well below the n-gram embedder and
 * BM25 (MRR@5 0.30 against 0.56 and 0.66 on the paraphrase tuning half, 0.34 against 0.49 and 0.55 on the
 * foreign catalog's), and as one more signal in the search's similarity (weights 0.3 to 1, scaled by the
 * pool's maximum or range, on all request words or only on those the catalog lacks, with or without
 * lowering the graph's weights) it lowered the paraphrase tuning half by one request or left it unchanged,
 * and moved the foreign catalog's within one request: it is not part of the search. Averaged over a text
 * the vectors blur what the rare words say, which is what tells one tool from the next.
 *
 * The tool vectors are computed once per catalog snapshot (catalog-cache.ts), so scoring a request costs
 * one dot product per tool.
 */
import { stem } from '../embedding/text.ts';
import { lexicalFields } from './capability.ts';
import type { ToolRecord } from './schema.ts';
import { contentWords, informationOf, VECTOR_DIMENSIONS, weightedMean } from './word-sense.ts';

/** A tool's plain words with the summed weight of the fields they occur in. */
export type WordWeights = Map<string, number>;

/** Words of a text, hyphenated ones also as their parts ("red-edge" is "red" and "edge"). */
function wordsOf(text: string): string[] {
  return contentWords(text).flatMap((w) => (w.includes('-') ? [w, ...w.split('-').filter((p) => p.length > 1)] : [w]));
}

/** The words of a tool's texts (name, id, keywords, description, graph vocabulary, parameters), by field weight. */
export function toolWords(tool: ToolRecord): WordWeights {
  const out: WordWeights = new Map();
  for (const field of lexicalFields(tool)) for (const w of wordsOf(field.text)) out.set(w, (out.get(w) ?? 0) + field.weight);
  return out;
}

export interface MeaningIndex {
  ids: string[];
  /** Row i holds the unit vector of tool ids[i] (zeros when none of its words has a vector). */
  vectors: Float32Array;
  /** IDF of a word stem over the catalog. */
  idf: Map<string, number>;
  maxIdf: number;
}

/** IDF of each word stem over the catalog's tools, and the unit IDF-weighted vector of every tool. */
export function buildMeaningIndex(tools: ReadonlyArray<[id: string, words: WordWeights]>): MeaningIndex {
  const df = new Map<string, number>();
  for (const [, words] of tools) for (const s of new Set([...words.keys()].map(stem))) df.set(s, (df.get(s) ?? 0) + 1);
  const n = tools.length;
  const idf = new Map([...df].map(([s, d]) => [s, Math.log((n + 1) / (d + 0.5))]));
  const maxIdf = Math.log((n + 1) / 0.5);
  const vectors = new Float32Array(n * VECTOR_DIMENSIONS);
  tools.forEach(([, words], i) => {
    // Repeating a word across fields counts, but less than proportionally.
    const v = weightedMean([...words].map(([w, f]) => [w, (idf.get(stem(w)) ?? maxIdf) * Math.log1p(f)]));
    if (v) vectors.set(v, i * VECTOR_DIMENSIONS);
  });
  return { ids: tools.map(([id]) => id), vectors, idf, maxIdf };
}

/**
 * The request's vector: its words weighted by their IDF over the catalog (words the catalog lacks by their
 * general-English rarity times the highest IDF), texts after the first (the graph's canonical words, glosses)
 * at `secondary` of that.
 */
export function requestVector(index: MeaningIndex, texts: readonly string[], secondary = 0.5): Float32Array | undefined {
  const weights = new Map<string, number>();
  texts.forEach((text, i) => {
    for (const w of wordsOf(text)) {
      const idf = index.idf.get(stem(w)) ?? index.maxIdf * informationOf(w);
      const weight = idf * (i === 0 ? 1 : secondary);
      weights.set(w, Math.max(weights.get(w) ?? 0, weight));
    }
  });
  return weightedMean(weights);
}

/** Cosine of the request vector with every tool's, by tool id. */
export function meaningScores(index: MeaningIndex, query: Float32Array | undefined): Map<string, number> {
  const out = new Map<string, number>();
  if (!query) return out;
  const { ids, vectors } = index;
  for (let i = 0; i < ids.length; i++) {
    let dot = 0;
    const offset = i * VECTOR_DIMENSIONS;
    for (let d = 0; d < VECTOR_DIMENSIONS; d++) dot += query[d]! * vectors[offset + d]!;
    out.set(ids[i]!, dot);
  }
  return out;
}

