/**
 * Population words of a question: "with more than a million people", "over 500,000 inhabitants",
 * "人口超过100万". They become the plan's `minPopulation`, a filter on the `population` tag the world seed's
 * cities carry (src/spatial/retrieve.ts).
 */
import { EN_NUMBER_WORDS as EN_COUNT_WORDS, parseEnNumber, parseZhNumber, ZH_NUM_RE, type Span } from './text.ts';

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

/**
 * A superlative of size or population said of the places asked for: "the 5 largest cities", "the most
 * populous towns", "the smallest 3 cities", "cities by population", "人口最多的5个城市", "最大的城市", "三大城市".
 * The grammar of the construction, not a list of phrases: an English superlative (-est, or most/least before
 * the adjective) of an adjective of size or of population, with a count before or after it; a Chinese 最 before
 * 大/小 (size) or 人口 ... 多/少, or a count before 大 ("N大" + the kind: the N largest).
 */
export interface PopulationSuperlative extends Span {
  direction: 'desc' | 'asc';
  /** The count said with it ("the 5 largest"). */
  k?: number;
  /** Population was said ("most populous", "人口最多"), not only size ("largest"). */
  population: boolean;
}

/** English adjectives of size (+1: larger is more) and of population, by the stem their superlative is made from. */
const EN_SIZE: Record<string, { sign: 1 | -1; population: boolean }> = {
  large: { sign: 1, population: false },
  big: { sign: 1, population: false },
  small: { sign: -1, population: false },
  populous: { sign: 1, population: true },
  populated: { sign: 1, population: true },
  inhabited: { sign: 1, population: true },
};
const EN_COUNT = `(?:\\d{1,2}|${EN_COUNT_WORDS.filter((w) => !/hundred|thousand|zero/.test(w)).join('|')})`;
const EN_SUPERLATIVE = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:the\\s+)?(?:top\\s+)?(?:(?<k1>${EN_COUNT})\\s+)?(?:(?<degree>most|least)\\s+(?<adj>[a-z]+)|(?<est>[a-z]+?)est)(?![\\p{L}\\p{N}])(?:\\s+(?<k2>${EN_COUNT})(?![\\p{L}\\p{N}]))?`,
  'gu',
);
const EN_BY_POPULATION = /(?<![\p{L}\p{N}])(?:(?:ranked|sorted|ordered|listed)\s+)?by\s+(?:(?:their|its)\s+)?population(?:\s+size)?(?![\p{L}\p{N}])/u;

/** The adjective a superlative form is made from ("largest" -> large, "biggest" -> big), if it is one of size. */
function sizeAdjective(stem: string): (typeof EN_SIZE)[string] | undefined {
  const candidates = [stem, `${stem}e`, stem.replace(/(.)\1$/, '$1'), stem.replace(/i$/, 'y')];
  return candidates.map((c) => EN_SIZE[c]).find((x) => x !== undefined);
}

/** The population superlative of an English question (folded: lower case), if it says one. */
export function findPopulationOrderEn(folded: string): PopulationSuperlative | undefined {
  for (const m of folded.matchAll(EN_SUPERLATIVE)) {
    const g = m.groups ?? {};
    const size = sizeAdjective(g.adj ?? g.est ?? '');
    if (!size) continue;
    const sign = g.degree === 'least' ? -size.sign : size.sign;
    const kText = g.k1 ?? g.k2;
    const k = kText ? parseEnNumber(kText) : undefined;
    return {
      start: m.index,
      end: m.index + m[0].length,
      direction: sign > 0 ? 'desc' : 'asc',
      ...(k !== undefined && k >= 1 ? { k: Math.round(k) } : {}),
      population: size.population,
    };
  }
  const by = EN_BY_POPULATION.exec(folded);
  return by ? { start: by.index, end: by.index + by[0].length, direction: 'desc', population: true } : undefined;
}

const ZH_CLASSIFIER = '(?:个|座|大)';
/** 最 + 大/小, or 人口 + 最 + 多/少 (人口 may stand a few characters before: "人口数量最多"), then a count. */
const ZH_SUPERLATIVE = new RegExp(
  `(?:(?<k1>${ZH_NUM_RE})\\s*(?:个|座)\\s*)?(?:(?<pop>人口(?:数量|规模)?)\\s*最\\s*(?<more>多|少|大|小)|最\\s*(?<size>大|小))的?\\s*(?:(?<k2>${ZH_NUM_RE})\\s*${ZH_CLASSIFIER})?`,
  'u',
);
/** "三大城市": a count, then 大, then the kind of place (not a bare 大城市, "a big city"). */
const ZH_COUNT_BIG = new RegExp(`(?<k>${ZH_NUM_RE})\\s*大(?=\\s*(?:城市|都市|城镇|城))`, 'u');

/** The population superlative of a Chinese question, if it says one. */
export function findPopulationOrderZh(text: string): PopulationSuperlative | undefined {
  const m = ZH_SUPERLATIVE.exec(text);
  if (m) {
    const g = m.groups ?? {};
    const word = g.more ?? g.size ?? '';
    const kText = g.k2 ?? g.k1;
    const k = kText ? parseZhNumber(kText) : undefined;
    return {
      start: m.index,
      end: m.index + m[0].length,
      direction: /[多大]/.test(word) ? 'desc' : 'asc',
      ...(k !== undefined && k >= 1 ? { k: Math.round(k) } : {}),
      population: g.pop !== undefined,
    };
  }
  const big = ZH_COUNT_BIG.exec(text);
  const k = big ? parseZhNumber(big.groups?.k ?? '') : undefined;
  if (!big || k === undefined || k < 1) return undefined;
  return { start: big.index, end: big.index + big[0].length, direction: 'desc', k: Math.round(k), population: false };
}
