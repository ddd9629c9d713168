import type { Concept } from '../lexicon/types.ts';
import { compileConcepts, type ConceptMatcher, type ConceptMatches } from './concept-matcher.ts';
import type { Embedder } from './embedder.ts';
import { fmix32, hashRange, hashString } from './hashing.ts';
import { memoizeBounded } from '../memo.ts';
import { analyse, stem, type WordToken } from './text.ts';
import { blankTextVector, l2NormaliseInPlace } from './vector.ts';

/** Bump when the features or weights change: stored vectors of another version are not comparable. */
const ALGORITHM = 'offline-ngram-v1';

export const DEFAULT_OFFLINE_DIMENSION = 384;

/**
 * Relative weight of each feature family. Concepts dominate because they are curated synonymy
 * (café = coffee shop = 咖啡店), which hashing alone cannot discover. A word's whole character n-gram
 * block weighs as much as the word itself: on the hand-labelled set in test/unit/embedding/fixtures.ts
 * lighter blocks lost most misspellings (libary, pharmacey) to hashing noise, while heavier ones gave no
 * further gain. Numbers (house numbers, opening hours) rarely say what a place is.
 */
const WEIGHT = {
  word: 1.0,
  number: 0.3,
  joinedPair: 0.6,
  charBlock: 1.0,
  cjkUnigram: 0.5,
  cjkBigram: 1.0,
  concept: 2.0,
} as const;

/**
 * Hash seeds per family. Joined word pairs deliberately share the word seed: "steak house" then
 * produces the same feature as the single word "steakhouse".
 */
const SEED = { word: 1, char: 2, cjkUnigram: 3, cjkBigram: 4, concept: 5 } as const;

/** Weight of a word inside a multi-word concept match or a hyphenated compound, relative to the same word elsewhere. */
const PHRASE_WORD_DISCOUNT = 0.5;
const NO_MATCHES: ConceptMatches = { ids: [], phraseTokens: new Set() };

const MIN_NGRAM = 3;
const MAX_NGRAM = 5;
/** Longer tokens are URLs or codes; their n-grams would flood the vector. */
const MAX_NGRAM_WORD = 40;
/** Texts embedded between two yields to the event loop, so that a bulk import does not stall HTTP requests. */
const YIELD_EVERY = 500;

export interface OfflineEmbedderOptions {
  /** Vector length; default 384 (the database column's initial dimension). */
  dimension?: number;
  /** Synonym groups; a text mentioning any surface form of a concept gets that concept's feature. */
  concepts?: Concept[];
}

/**
 * Sublinear term frequency: a word said three times is more important, not three times as important.
 * Counts can be fractional (discounted phrase words); below 1 they scale linearly.
 */
function tf(count: number): number {
  return count <= 1 ? count : 1 + Math.log(count);
}

function increment(counts: Map<string, number>, key: string, by = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}

/**
 * Signed feature hashing: the sign makes colliding features cancel on average instead of always adding up,
 * so unrelated texts have cosine ≈ 0 rather than a positive bias.
 */
function addFeature(vector: Float64Array, hash: number, weight: number): void {
  const index = hash % vector.length;
  vector[index] = vector[index]! + ((hash & 0x80000000) === 0 ? weight : -weight);
}

/**
 * Strong features (words, concepts, Chinese characters) are spread over several buckets at 1/√k of the
 * weight each. The expected collision noise stays the same, but a collision between two unrelated
 * features then costs 1/k of a match instead of a whole one. At 384 dimensions two single-bucket words
 * share a bucket about once in 800 pairs, which made e.g. "changes" look identical to "speckle"; with
 * hundreds of concepts, some pairs always collide. On the project lexicon (328 concepts), 8 buckets
 * instead of 3 cut the pairs of different concepts above cosine 0.3 from 31 to 9 (of 53,628).
 */
const SLOTS = 8;
const SLOT_SCALE = 1 / Math.sqrt(SLOTS);

function addSpreadFeature(vector: Float64Array, hash: number, weight: number): void {
  const each = weight * SLOT_SCALE;
  addFeature(vector, hash, each);
  for (let slot = 1; slot < SLOTS; slot++) addFeature(vector, fmix32((hash + Math.imul(slot, 0x9e3779b9)) >>> 0), each);
}

function ngramCount(paddedLength: number): number {
  let count = 0;
  for (let n = MIN_NGRAM; n <= MAX_NGRAM; n++) count += Math.max(0, paddedLength - n + 1);
  return count;
}

/** Hashes of the character n-grams of `<word>`, in order; the markers let prefixes and suffixes count as such. */
function charNgramHashes(surface: string): Uint32Array {
  const padded = `<${surface.slice(0, MAX_NGRAM_WORD)}>`;
  const hashes = new Uint32Array(ngramCount(padded.length));
  let k = 0;
  for (let n = MIN_NGRAM; n <= MAX_NGRAM; n++) {
    for (let start = 0; start + n <= padded.length; start++) hashes[k++] = hashRange(padded, start, start + n, SEED.char);
  }
  return hashes;
}

/** The same words come back in text after text of a bulk import: their n-gram hashes are computed once. */
const charNgramHashesOnce = memoizeBounded(charNgramHashes, 50_000);

function addCharNgrams(vector: Float64Array, surface: string, weight: number): void {
  const hashes = charNgramHashesOnce(surface);
  const count = hashes.length;
  if (count === 0) return;
  // Dividing by √count gives every word's n-gram block the same norm whatever the word's length.
  const each = weight / Math.sqrt(count);
  for (let k = 0; k < count; k++) addFeature(vector, hashes[k]!, each);
}

interface WordCounts {
  stems: Map<string, number>;
  numbers: Map<string, number>;
  surfaces: Map<string, number>;
  joinedPairs: Map<string, number>;
  hyphenPairs: Map<string, number>;
}

/** "wi-fi": two content words written as one with a hyphen. */
function isHyphenPair(left: WordToken | undefined, right: WordToken): boolean {
  return left !== undefined && right.hyphenated && !left.stop && !right.stop && !left.numeric && !right.numeric;
}

/**
 * How much each word of a clause counts on its own. Words of a multi-word concept ("car park") and the
 * parts of a hyphenated compound ("wi-fi") are discounted: the phrase, not the part, carries the meaning.
 */
function wordMultipliers(clause: readonly WordToken[], phraseTokens: ReadonlySet<WordToken>): number[] {
  const multipliers: number[] = clause.map((token) => (phraseTokens.has(token) ? PHRASE_WORD_DISCOUNT : 1));
  for (let i = 1; i < clause.length; i++) {
    if (!isHyphenPair(clause[i - 1], clause[i]!)) continue;
    multipliers[i] = multipliers[i]! * PHRASE_WORD_DISCOUNT;
    if (!isHyphenPair(clause[i - 2], clause[i - 1]!)) multipliers[i - 1] = multipliers[i - 1]! * PHRASE_WORD_DISCOUNT;
  }
  return multipliers;
}

/**
 * Adjacent content words (stop words in between are skipped) are also joined into one word and stemmed,
 * which catches compounds written apart (steak house / steakhouse) and adds word-order information like
 * a bigram. A hyphenated pair is a spelling of one word (wi-fi = wifi), so its joined form counts as a
 * full word and gets that word's character n-grams.
 */
function countWords(clauses: readonly WordToken[][], phraseTokens: ReadonlySet<WordToken>): WordCounts {
  const counts: WordCounts = { stems: new Map(), numbers: new Map(), surfaces: new Map(), joinedPairs: new Map(), hyphenPairs: new Map() };
  for (const clause of clauses) {
    const multipliers = wordMultipliers(clause, phraseTokens);
    let previous: WordToken | undefined;
    clause.forEach((token, i) => {
      if (token.stop) return;
      const by = multipliers[i]!;
      if (token.numeric) {
        increment(counts.numbers, token.stem, by);
      } else {
        increment(counts.stems, token.stem, by);
        if (token.surface.length >= 3) increment(counts.surfaces, token.surface, by);
        if (previous && !previous.numeric) {
          const joined = previous.surface + token.surface;
          if (isHyphenPair(clause[i - 1], token)) {
            increment(counts.hyphenPairs, stem(joined));
            increment(counts.surfaces, joined);
          } else {
            increment(counts.joinedPairs, stem(joined));
          }
        }
      }
      previous = token;
    });
  }
  return counts;
}

function addWordFeatures(vector: Float64Array, clauses: readonly WordToken[][], phraseTokens: ReadonlySet<WordToken>): void {
  const counts = countWords(clauses, phraseTokens);
  for (const [key, count] of counts.stems) addSpreadFeature(vector, hashString(key, SEED.word), WEIGHT.word * tf(count));
  for (const [key, count] of counts.numbers) addSpreadFeature(vector, hashString(key, SEED.word), WEIGHT.number * tf(count));
  for (const [key, count] of counts.joinedPairs) addSpreadFeature(vector, hashString(key, SEED.word), WEIGHT.joinedPair * tf(count));
  for (const [key, count] of counts.hyphenPairs) addSpreadFeature(vector, hashString(key, SEED.word), WEIGHT.word * tf(count));
  for (const [surface, count] of counts.surfaces) addCharNgrams(vector, surface, WEIGHT.charBlock * tf(count));
}

/** Chinese has no spaces: character unigrams catch shared morphemes, bigrams approximate words (咖啡). */
function addUnspacedFeatures(vector: Float64Array, runs: readonly string[]): void {
  const unigrams = new Map<string, number>();
  const bigrams = new Map<string, number>();
  for (const run of runs) {
    const chars = Array.from(run);
    for (let i = 0; i < chars.length; i++) {
      increment(unigrams, chars[i]!);
      if (i + 1 < chars.length) increment(bigrams, chars[i]! + chars[i + 1]!);
    }
  }
  for (const [key, count] of unigrams) addSpreadFeature(vector, hashString(key, SEED.cjkUnigram), WEIGHT.cjkUnigram * tf(count));
  for (const [key, count] of bigrams) addSpreadFeature(vector, hashString(key, SEED.cjkBigram), WEIGHT.cjkBigram * tf(count));
}

function addConceptFeatures(vector: Float64Array, matches: ConceptMatches): void {
  const counts = new Map<string, number>();
  for (const id of matches.ids) increment(counts, id);
  for (const [id, count] of counts) addSpreadFeature(vector, hashString(id, SEED.concept), WEIGHT.concept * tf(count));
}

let scratch = new Float64Array(0);

/**
 * One zeroed accumulator reused for every text: embedding is synchronous, so it is never shared, and
 * allocating a fresh vector per text doubled the garbage of a bulk import.
 */
function scratchVector(dimension: number): Float64Array {
  if (scratch.length !== dimension) scratch = new Float64Array(dimension);
  else scratch.fill(0);
  return scratch;
}

function toPlainArray(vector: Float64Array): number[] {
  const out = new Array<number>(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i]!;
  return out;
}

/** Embeds one text; a text without letters or digits gets {@link blankTextVector}, never NaN or a zero vector. */
export function embedText(text: string, dimension: number, matcher: ConceptMatcher): number[] {
  const analysis = analyse(text);
  const matches = matcher.size > 0 ? matcher.match(analysis) : NO_MATCHES;
  const vector = scratchVector(dimension);
  addWordFeatures(vector, analysis.clauses, matches.phraseTokens);
  addUnspacedFeatures(vector, analysis.unspaced);
  addConceptFeatures(vector, matches);
  if (l2NormaliseInPlace(vector) === 0) return blankTextVector(dimension);
  return toPlainArray(vector);
}

function validateDimension(dimension: number): void {
  // pgvector's limit for a vector column is 16000 dimensions.
  if (!Number.isInteger(dimension) || dimension < 8 || dimension > 16_000) {
    throw new RangeError(`offline embedder dimension must be an integer between 8 and 16000, got ${dimension}`);
  }
}

/**
 * Deterministic embedder that needs no model download: feature hashing of stemmed words, joined word pairs,
 * character 3–5-grams, Chinese character uni/bigrams and concept ids. The model name encodes the algorithm
 * version, the dimension and (when concepts are given) a fingerprint of the lexicon, because each of them
 * changes the vector space.
 */
export function createOfflineEmbedder(options: OfflineEmbedderOptions = {}): Embedder {
  const dimension = options.dimension ?? DEFAULT_OFFLINE_DIMENSION;
  validateDimension(dimension);
  const matcher = compileConcepts(options.concepts ?? []);
  const model = matcher.size > 0 ? `${ALGORITHM}-${dimension}-c${matcher.fingerprint}` : `${ALGORITHM}-${dimension}`;
  return {
    model,
    dimension,
    async embed(texts: string[]): Promise<number[][]> {
      const vectors: number[][] = [];
      for (let i = 0; i < texts.length; i++) {
        if (i > 0 && i % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
        vectors.push(embedText(texts[i]!, dimension, matcher));
      }
      return vectors;
    },
  };
}
