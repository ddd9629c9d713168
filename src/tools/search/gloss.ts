/**
 * Which dictionary sense of a Chinese word the request means. CC-CEDICT lists a word's senses out of
 * context (补 "repair; patch; mend; make up for; fill; supplement"); the one a tool text uses together with
 * the request's other words is the one meant: the choice of translation by co-occurrence in the target
 * collection, as cross-language retrieval makes it. Without such a sense the first (commonest) one stands.
 */
import { type LexicalIndex, type WeightedTerm, mergeTerms, queryTerms } from '../lexical.ts';
import type { GlossedWord } from '../request/index.ts';
import type { Gloss } from './types.ts';

/**
 * How much less likely each further sense is than the one before: a later sense must co-occur clearly
 * better to be chosen. Measured on the tuning halves (eval/sets/README.md): 0.7 and 0.8 choose alike;
 * without the discount (1) a rare sense that shares more words with some tool wins (去掉 "strip").
 */
const SENSE_PRIOR = 0.8;

/** Terms in more than this share of the tools say nothing about which sense is meant. */
const MAX_DF_SHARE = 0.5;

/** The sense chosen for each glossed word, given the request's other terms (`context`). */
export function chooseGlosses(index: LexicalIndex, glossed: readonly GlossedWord[], context: readonly WeightedTerm[]): Gloss[] {
  const out: Gloss[] = [];
  glossed.forEach((word, i) => {
    // A word whose commonest sense names nothing (看看 "take a look") is a word of grammar or manner.
    if (!word.senses[0]?.length) return;
    const others = glossed.flatMap((g, j) => (j === i ? [] : (g.senses[0] ?? [])));
    const reach = contextReach(index, mergeTerms([...context], queryTerms(others.join(' , '))));
    let best = 0;
    let bestScore = 0;
    word.senses.forEach((sense, k) => {
      const score = coOccurrence(index, queryTerms(sense.join(' ')), reach) * SENSE_PRIOR ** k;
      if (score > bestScore) [best, bestScore] = [k, score];
    });
    out.push({ text: word.text, words: word.senses[best]! });
  });
  return out;
}

function postingsOf(index: LexicalIndex, term: string): Int32Array | undefined {
  const list = index.postings.get(term);
  return list && list.docs.length <= MAX_DF_SHARE * index.size ? list.docs : undefined;
}

/** Per tool, the summed IDF of the context terms its text holds. */
function contextReach(index: LexicalIndex, context: readonly WeightedTerm[]): Map<number, number> {
  const reach = new Map<number, number>();
  for (const { term } of context) {
    const docs = postingsOf(index, term);
    if (!docs) continue;
    const idf = Math.log(1 + (index.size - docs.length + 0.5) / (docs.length + 0.5));
    for (const d of docs) reach.set(d, (reach.get(d) ?? 0) + idf);
  }
  return reach;
}

/** The largest context reach of a tool whose text holds one of the sense's terms. */
function coOccurrence(index: LexicalIndex, sense: readonly WeightedTerm[], reach: ReadonlyMap<number, number>): number {
  let best = 0;
  for (const { term } of sense) for (const d of postingsOf(index, term) ?? []) best = Math.max(best, reach.get(d) ?? 0);
  return best;
}
