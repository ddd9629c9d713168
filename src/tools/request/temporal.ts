/** The temporal slot: dates, intervals and the temporal shape of a request. */
import { conceptInfo } from '../knowledge/index.ts';
import type { Temporal } from '../schema.ts';
import type { ConceptHit, TemporalSlot } from './types.ts';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const SEASONS: Record<string, [number, number]> = { spring: [3, 5], summer: [6, 8], autumn: [9, 11], fall: [9, 11], winter: [12, 2] };

const ZH_MONTH = '(\\d{1,2}|十[一二]?|[一二三四五六七八九])';
const ZH_MONTH_RANGE = new RegExp(
  `(?:((?:19|20)\\d{2})\\s*年)?\\s*${ZH_MONTH}\\s*月份?(?:\\s*\\d{1,2}\\s*[日号])?\\s*(?:到|至|—|–|-|~|～)\\s*(?:((?:19|20)\\d{2})\\s*年)?\\s*${ZH_MONTH}\\s*月份?(?:\\s*\\d{1,2}\\s*[日号])?`,
  'gu',
);
const ZH_DIGITS = '一二三四五六七八九';
/** Whole month names or their abbreviations only: "separate", "decade" and "marsh" are no months. */
const MONTH_WORD = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\b\\.?';
const UNDATED_MONTH_RANGE = new RegExp(`\\b(?:\\d{1,2}\\s+)?${MONTH_WORD}\\s*(?:-|–|—|to|until|till|through|and)\\s*(?:\\d{1,2}\\s+)?${MONTH_WORD}(?!\\s*\\d)`, 'g');

/** 3, 三, 十一 -> 3, 3, 11 (0 when it is not a month). */
function zhMonth(s: string): number {
  const n = /^\d+$/.test(s) ? Number(s) : s.startsWith('十') ? 10 + (s.length > 1 ? ZH_DIGITS.indexOf(s[1]!) + 1 : 0) : ZH_DIGITS.indexOf(s) + 1;
  return n >= 1 && n <= 12 ? n : 0;
}

const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

function isoDay(y: number, m: number, d: number): string {
  return `${y}-${pad(m)}-${pad(d)}`;
}

const NUMBER_WORDS = 'two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|several|many|a few|few';
/** "over the past three decades", "in the past decade", "for 15 years", "year after year", "decades of", "since 2005". */
const SPAN_EN = new RegExp(
  [
    `\\b(?:over|in|during|for|across|through(?:out)?|within)\\s+(?:the\\s+)?(?:last|past|previous|recent|coming|next)?\\s*(?:\\d+|${NUMBER_WORDS})\\s*[- ]?(?:years?|decades?|seasons|summers|winters|springs|autumns|growing seasons)\\b`,
    `\\b(?:the\\s+)?(?:last|past|previous|recent)\\s+(?:\\d+\\s*|${NUMBER_WORDS}\\s+)?(?:decades?|years|seasons)\\b`,
    `\\b(?:year after year|year[- ]on[- ]year|year by year|every year|each year|decades?\\s+of|long[- ]term|multi[- ]?decadal|\\d+[- ]year)\\b`,
    `\\b(?:ever\\s+)?since\\s+(?:the\\s+)?(?:early\\s+|late\\s+|mid[- ])?(?:19|20)\\d{2}s?\\b`,
  ].join('|'),
);
/** 2005年以来, 这二十年, 近十年, 过去五年, 多年来, 几十年, 每年, 逐年, 历年, 年际. */
const SPAN_ZH = /(?:19|20)\d{2}\s*年?\s*(?:以来|至今|到现在|到今天)|(?:这|近|过去|最近|这些|前)\s*(?:\d+|[一二两三四五六七八九十几百]+)\s*(?:多)?年|[几十数]+年(?:来|间|里)?|多年来|每年|逐年|历年|年际|年复一年/u;

/** The words that say the request covers many years (a series of acquisitions), when it says so. */
export function spanOfYears(text: string): string | undefined {
  return (SPAN_EN.exec(text) ?? SPAN_ZH.exec(text))?.[0];
}

/** Dates, intervals and the temporal shape of a request. Seasons are northern-hemisphere meteorological ones. */
export function parseTemporal(query: string, concepts: readonly ConceptHit[]): TemporalSlot | undefined {
  const text = query.toLowerCase();
  const dates: string[] = [];
  const spans: string[] = [];
  let start: string | undefined;
  let end: string | undefined;
  const consumed: [number, number][] = [];
  let interval = false;
  const free = (i: number, j: number) => !consumed.some(([a, b]) => i < b && j > a);

  const written: string[] = [];
  for (const m of text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) {
    dates.push(m[0]);
    written.push(m[0]);
    spans.push(m[0]);
    consumed.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(/\b((?:19|20)\d{2})\s*(?:-|–|—|to|until)\s*((?:19|20)\d{2})\b/g)) {
    if (!free(m.index, m.index + m[0].length)) continue;
    const a = Number(m[1]);
    const b = Number(m[2]);
    if (b <= a) continue;
    start ??= isoDay(a, 1, 1);
    end ??= isoDay(b, 12, 31);
    dates.push(isoDay(a, 1, 1), isoDay(b, 1, 1));
    spans.push(m[0]);
    consumed.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(/\b(spring|summer|autumn|fall|winter)\s+(?:of\s+)?((?:19|20)\d{2})\b/g)) {
    const [from, to] = SEASONS[m[1]!]!;
    const y = Number(m[2]);
    const endYear = from > to ? y + 1 : y;
    start ??= isoDay(y, from, 1);
    end ??= isoDay(endYear, to, lastDay(endYear, to));
    dates.push(start);
    spans.push(m[0]);
    consumed.push([m.index, m.index + m[0].length]);
  }
  // "March to May 2019", "from May until September 2022": a range of months of one year is an interval
  // (a range across the new year starts in the year before).
  const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';
  for (const m of text.matchAll(new RegExp(`\\b${MONTH}\\s*(?:-|–|—|to|until|till|through|and)\\s*${MONTH}\\s+((?:19|20)\\d{2})\\b`, 'g'))) {
    const from = MONTHS.indexOf(m[1]!) + 1;
    const to = MONTHS.indexOf(m[2]!) + 1;
    const y = Number(m[3]);
    const startYear = from > to ? y - 1 : y;
    start ??= isoDay(startYear, from, 1);
    end ??= isoDay(y, to, lastDay(y, to));
    dates.push(isoDay(startYear, from, 1), isoDay(y, to, 1));
    spans.push(m[0]);
    consumed.push([m.index, m.index + m[0].length]);
  }
  // "between 1 May and 30 June", "from March to May": a range of months with no year is still an interval.
  for (const m of text.matchAll(UNDATED_MONTH_RANGE)) {
    if (!free(m.index, m.index + m[0].length)) continue;
    interval = true;
    spans.push(m[0]);
    consumed.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(/\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+((?:19|20)\d{2})\b/g)) {
    if (!free(m.index, m.index + m[0].length)) continue;
    const month = MONTHS.indexOf(m[1]!) + 1;
    const y = Number(m[2]);
    dates.push(isoDay(y, month, 1));
    spans.push(m[0]);
    consumed.push([m.index, m.index + m[0].length]);
  }
  // "2023年3月到5月", "三月至五月": a range of months (the year, when not written with either month, is
  // the first one written elsewhere in the request).
  const firstYear = /(?:19|20)\d{2}/.exec(text);
  const elsewhere = firstYear ? Number(firstYear[0]) : undefined;
  for (const m of text.matchAll(ZH_MONTH_RANGE)) {
    const from = zhMonth(m[2]!);
    const to = zhMonth(m[4]!);
    if (!from || !to) continue;
    // A range across the new year ends in the year after its start.
    const y1 = Number(m[1] ?? (m[3] ? Number(m[3]) - (from > to ? 1 : 0) : (elsewhere ?? 0)));
    const y2 = Number(m[3] ?? (y1 && from > to ? y1 + 1 : y1));
    if (y1 && y2) {
      start ??= isoDay(y1, from, 1);
      end ??= isoDay(y2, to, lastDay(y2, to));
      dates.push(isoDay(y1, from, 1), isoDay(y2, to, 1));
    } else {
      interval = true;
    }
    spans.push(m[0]);
    consumed.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(/((?:19|20)\d{2})\s*年(?:\s*(\d{1,2})\s*月)?(?:\s*(\d{1,2})\s*日)?/gu)) {
    if (!free(m.index, m.index + m[0].length)) continue;
    dates.push(isoDay(Number(m[1]), Number(m[2] ?? 1), Number(m[3] ?? 1)));
    spans.push(m[0]);
    consumed.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(/\b((?:19|20)\d{2})\b/g)) {
    if (!free(m.index, m.index + 4)) continue;
    // "2.5 m", "2000 m": a number followed by a unit is not a year.
    if (/^\s*(?:m|cm|km|metres?|meters?|ha|px)\b/.test(text.slice(m.index + 4))) continue;
    dates.push(isoDay(Number(m[1]), 1, 1));
    spans.push(m[1]!);
  }
  // "between 2019-03-15 and 2019-10-31": two written-out dates bound an interval (two bare years are two
  // acquisitions: "scenes from 2018 and 2023").
  if (!start && written.length >= 2 && /\b(?:between|from)\b/.test(text)) {
    const sorted = [...written].sort();
    start = sorted[0];
    end = sorted[sorted.length - 1];
  }

  const duration = spanOfYears(text);
  if (duration) spans.push(duration);

  const modifiers = concepts.filter((c) => !c.negated).map((c) => conceptInfo(c.id)?.temporal).filter((t): t is Temporal => !!t);
  let shape: Temporal | undefined;
  if (modifiers.includes('pair')) shape = 'pair';
  else if (modifiers.includes('series')) shape = 'series';
  const distinct = [...new Set(dates)];
  if (!shape) {
    // An interval is a period of acquisitions; two separate dates are a before/after pair.
    if ((start && end) || duration || interval) shape = 'series';
    else if (distinct.length === 2) shape = 'pair';
    else if (distinct.length > 2) shape = 'series';
    else if (distinct.length === 1) shape = 'single';
  }
  if (!shape && dates.length === 0 && !duration && !interval) return undefined;
  return { shape, dates: [...new Set(dates)].sort(), start, end, ...(interval && !start ? { undated: true } : {}), text: spans };
}
