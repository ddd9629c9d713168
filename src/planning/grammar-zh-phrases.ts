/**
 * The place phrases of the Chinese grammar (grammar-zh.ts): Chinese has no spaces or capitals, so a place phrase
 * is cut by the words around it (an opening preposition, request words before it, a closing spatial word after
 * it). A span once used by a construction is claimed and not reused.
 */
import { classifyKindZh, safeHint, type GazetteerHint } from './references.ts';
import { isTargetPhrase } from './lexicon-match.ts';
import { emptyParse, type RefMention, type Relation, type SpatialParse } from './parse-types.ts';
import { findZhDistances, insideAny, type DistanceMention, type Span } from './text.ts';
import { glossChinese, loadGlossary } from '../lexicon/zh-gloss.ts';

/** Clause punctuation (after NFKC, full-width ，？！ are ASCII). */
export const PUNCT = ',.?!;:。、()"\'\\[\\]{}<>《》【】…~';
export const N = `[^${PUNCT}]`;
export const CLAUSE_START = `(?<=^|[${PUNCT}])`;
/** Place names are short; bounding the lazy captures keeps every pattern linear in the question length. */

/** Words that open a place phrase; a phrase is cut after the last one ("我想去外滩" -> "外滩"). */
const ANCHORS = ['距离', '离', '距', '在', '从', '靠近', '临近', '位于', '沿着', '挨着', '紧邻', '围绕', '去', '到', '除了', '除去', '不包括', '排除'];
/** Request words before a place ("请问", "帮我找"). Longest first. */
const LEADING_FILLERS = [
  '请问一下', '请帮我找', '麻烦帮我', '我想知道', '请问', '请帮我', '帮我找', '帮我查', '帮我', '帮忙', '麻烦你', '麻烦', '你好', '您好', '我想要', '我们想',
  '我想', '我要', '我需要', '想要', '想', '要', '需要', '找一下', '找找', '找', '查一下', '查找', '查询', '查', '搜索', '搜一下', '搜', '推荐一下', '推荐',
  '列出', '列举', '显示', '告诉我', '看看', '看一下', '哪里有', '哪儿有', '有没有', '有无', '是否有', '给我', '能否', '能不能', '可以', '可否', '一下', '请',
].sort((a, b) => b.length - a.length);
const TRAILING = ['往东', '往西', '往南', '往北', '向东', '向西', '向南', '向北', '的', '那边', '这边', '那里', '这里', '那儿', '这儿', '一带', '地区', '区域', '片区', '方圆', '距离', '不到', '不超过', '大约', '大概', '约'].sort((a, b) => b.length - a.length);
/** "this/that (one) patch of" after a place: a demonstrative or 一, then a classifier of land (块, 片). */
const AREA_DEICTIC = /(?:[这那]一?|一)[块片]$/u;
/** A district suffix after a Latin name ("SoHo区"): the name is the Latin part. */
const LATIN_DISTRICT_SUFFIX = /(?<=[A-Za-z])\s*(?:区|地区|街区)$/u;
const USER_WORDS = new Set(['我', '我们', '这里', '这儿', '这边', '我这里', '我这儿', '我这边', '我这', '当前位置', '我的位置', '本地', '这附近', '我家', '我住的地方', '我所在的位置', '现在的位置', '目前位置', '咱们', '咱']);

export type Cleaned = { kind: 'user'; start: number; end: number } | { kind: 'name'; text: string; start: number; end: number; district?: boolean };

export abstract class ChinesePhrases {
  protected readonly claimed: Span[] = [];
  protected readonly dists: DistanceMention[];
  protected readonly out: SpatialParse = emptyParse();

  constructor(
    protected readonly s: string,
    protected readonly hint?: GazetteerHint,
  ) {
    this.dists = findZhDistances(s);
  }

  protected claim(...spans: Span[]): void {
    this.claimed.push(...spans);
  }

  protected *scan(re: RegExp, checkAt: (m: RegExpExecArray) => number = (m) => m.index): Generator<RegExpExecArray> {
    for (const m of this.s.matchAll(re)) if (!insideAny(checkAt(m), this.claimed)) yield m;
  }

  /** Turns a raw captured phrase at `start` into a place name (or the asker), or nothing. */
  protected clean(raw: string, start: number, anchored = false): Cleaned | undefined {
    let from = 0;
    let to = raw.length;
    // Never reuse text another construction has taken.
    for (const c of this.claimed) {
      if (c.end <= start || c.start >= start + to) continue;
      if (c.end >= start + to) return undefined;
      from = Math.max(from, c.end - start);
    }
    let cut = -1;
    for (const a of ANCHORS) {
      const i = raw.lastIndexOf(a, to - 1);
      if (i >= from && i + a.length < to && i + a.length > cut) cut = i + a.length;
    }
    if (cut > from) from = cut;
    let changed = true;
    while (changed && from < to) {
      changed = false;
      while (raw[from] === ' ') from++;
      for (const f of LEADING_FILLERS) {
        if (raw.startsWith(f, from) && from + f.length < to) {
          from += f.length;
          changed = true;
          break;
        }
      }
    }
    changed = true;
    while (changed && to > from) {
      changed = false;
      while (to > from && raw[to - 1] === ' ') to--;
      for (const t of TRAILING) {
        if (raw.endsWith(t, to) && to - t.length >= from && !endsWord(raw.slice(from, to), t)) {
          to -= t.length;
          changed = true;
          break;
        }
      }
      const deictic = AREA_DEICTIC.exec(raw.slice(from, to));
      if (deictic && deictic.index > 0) {
        to -= deictic[0].length;
        changed = true;
      }
    }
    while (from < to && raw[from] === ' ') from++;
    const suffix = LATIN_DISTRICT_SUFFIX.exec(raw.slice(from, to));
    if (suffix) to -= suffix[0].length;
    const text = raw.slice(from, to).trim();
    if (!text || USER_WORDS.has(text)) return { kind: 'user', start: start + from, end: start + to };
    if (text.length > 30 || /^\d+$/.test(text) || /^(?:哪|什么|何处|何地|多远|多少)/.test(text)) return undefined;
    // "附近的药店" has no place; but after a preposition, "离大剧院最近" names one even if it is a common noun.
    if (!anchored && cut < 0 && isTargetPhrase(text) && !safeHint(this.hint, text)) return undefined;
    return { kind: 'name', text, start: start + from, end: start + from + text.length, ...(suffix ? { district: true } : {}) };
  }

  protected ref(c: Cleaned): RefMention {
    if (c.kind === 'user') return { text: this.s.slice(c.start, c.end) || '附近', start: c.start, end: c.end, kind: 'coordinates', user: 'explicit' };
    const kind = safeHint(this.hint, c.text) ?? (c.district ? 'area' : classifyKindZh(c.text));
    return { text: c.text, start: c.start, end: c.end, ...(kind ? { kind } : {}) };
  }

  protected named(raw: string | undefined, start: number, anchored = false): RefMention | undefined {
    if (raw === undefined) return undefined;
    const c = this.clean(raw, start, anchored);
    return c && c.kind === 'name' ? this.ref(c) : undefined;
  }

  protected add(r: Relation): void {
    this.out.relations.push(r);
    this.claim(...r.spans);
  }
}

/** Start of the preposition right before a place ("离X" -> index of 离), for the spatial span. */
export function anchorPrefix(s: string, placeStart: number): number {
  for (const a of ['距离', '离', '距', '在', '从', '靠近', '临近', '位于']) {
    if (s.slice(Math.max(0, placeStart - a.length), placeStart) === a) return placeStart - a.length;
  }
  return placeStart;
}

/**
 * The trailing word is the end of a longer dictionary word of the phrase, not a word of its own: 约 ("about")
 * ends 纽约 ("New York"), and stripping it would cut the name.
 */
function endsWord(phrase: string, trailing: string): boolean {
  const senses = loadGlossary().senses;
  for (let n = trailing.length + 1; n <= Math.min(phrase.length, trailing.length + 3); n++) {
    if (senses.has(phrase.slice(-n))) return true;
  }
  return false;
}

/**
 * The phrase reads as a proper name: each word of it is a dictionary word whose senses are proper nouns
 * (巴黎 "Paris"), or a run of characters the dictionary cannot gloss (a transliteration). A describing word
 * (便宜 "cheap", 有名 "famous") has ordinary senses; a single character (中 "China", "within") says too little.
 */
export function namesSomething(text: string): boolean {
  if (!/\p{Script=Han}/u.test(text)) return false;
  const segs = glossChinese(text);
  // A proper noun has only capitalised senses (网红 "Internet celebrity" also reads "influencer").
  const properNoun = (senses: readonly string[]) => senses.length > 0 && senses.every((sense) => /^\p{Lu}/u.test(sense));
  return segs.length > 0 && segs.every((seg) => [...seg.text].length >= 2 && (properNoun(seg.senses) || (seg.name && seg.senses.length === 0)));
}

/** A kind of place opens the clause at `pos` ("书店有哪些" opens with 书店). Longest first. */
export function kindFollows(s: string, pos: number): boolean {
  const clause = new RegExp(`^${N}{1,12}`, 'u').exec(s.slice(pos))?.[0] ?? '';
  for (let n = clause.length; n >= 1; n--) if (isTargetPhrase(clause.slice(0, n))) return true;
  return false;
}
