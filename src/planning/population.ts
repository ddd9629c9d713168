/**
 * Population words of a question: "with more than a million people", "over 500,000 inhabitants",
 * "人口超过100万". They become the plan's `minPopulation`, a filter on the `population` tag the world seed's
 * cities carry (src/spatial/retrieve.ts).
 */

const EN_SCALE: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, mn: 1e6, billion: 1e9 };
const EN_NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, five: 5, ten: 10, half: 0.5 };
const ZH_SCALE: Record<string, number> = { 千: 1e3, 万: 1e4, 十万: 1e5, 百万: 1e6, 千万: 1e7, 亿: 1e8 };

const EN_PATTERN =
  /\b(?:more than|over|above|at least|greater than|bigger than|exceeding)\s+(?:(a half|a|an|one|two|three|five|ten|half a)|(\d[\d,]*(?:\.\d+)?))\s*(thousand|million|billion|k|m|mn)?\s+(?:people|inhabitants|residents|population)\b/i;
const EN_POPULATION_FIRST = /\bpopulation\s+(?:of\s+)?(?:more than|over|above|at least|greater than)\s+(\d[\d,]*(?:\.\d+)?)\s*(thousand|million|billion|k|m|mn)?\b/i;
const ZH_PATTERN = /人口\s*(?:超过|多于|大于|逾|在)\s*(\d+(?:\.\d+)?)\s*(千万|百万|十万|万|千|亿)?/;

/** The smallest population the question asks for, if it says one. */
export function minPopulation(text: string): number | undefined {
  const en = EN_PATTERN.exec(text);
  if (en) {
    const word = en[1]?.toLowerCase();
    const base = word ? (word === 'half a' || word === 'a half' ? 0.5 : EN_NUMBER_WORDS[word] ?? 1) : Number(en[2]!.replace(/,/g, ''));
    return Math.round(base * (en[3] ? EN_SCALE[en[3].toLowerCase()]! : 1));
  }
  const first = EN_POPULATION_FIRST.exec(text);
  if (first) return Math.round(Number(first[1]!.replace(/,/g, '')) * (first[2] ? EN_SCALE[first[2].toLowerCase()]! : 1));
  const zh = ZH_PATTERN.exec(text);
  if (zh) return Math.round(Number(zh[1]) * (zh[2] ? ZH_SCALE[zh[2]]! : 1));
  return undefined;
}
