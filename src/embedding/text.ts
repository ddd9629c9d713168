import { memoizeBounded } from '../memo.ts';

/**
 * Text analysis for the offline embedder: normalisation, tokenisation, light English stemming and
 * stop-word removal. Everything here is pure and deterministic, because a stored vector is only
 * comparable with a query vector if both went through exactly the same analysis.
 */

/** Characters that NFKD does not decompose but that people routinely write without (Straße / Strasse). */
const FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};
const FOLD_RE = /[ßæœøđðłþı]/g;

/**
 * Scripts written without spaces between words. They cannot be split into words without a
 * dictionary, so they are embedded as character unigrams and bigrams instead.
 * U+30FC (katakana long vowel mark) is script "Common" but sits inside katakana words.
 */
const UNSPACED_CLASS = '\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Thai}\\p{sc=Lao}\\p{sc=Khmer}\\p{sc=Myanmar}\\u30fc';
const UNSPACED_CHAR_RE = new RegExp(`[${UNSPACED_CLASS}]`, 'u');
const UNSPACED_RUN_RE = new RegExp(`[${UNSPACED_CLASS}]+`, 'gu');
/** Tests the first code point, so that CJK characters outside the BMP (surrogate pairs) count too. */
const UNSPACED_START_RE = new RegExp(`^[${UNSPACED_CLASS}]`, 'u');

/**
 * A token is a run of letters, digits and combining marks (marks stay: they carry vowels in Indic
 * scripts); a clause break is punctuation that ends a phrase, so that bigrams and multi-word concepts
 * do not join words across a comma ("Keens Steakhouse, a steak house"). The full stop is not a break:
 * in place names it mostly ends an abbreviation (St. Patrick's, Tiffany & Co.).
 */
const TOKEN_RE = /([\p{L}\p{N}][\p{L}\p{N}\p{M}]*)|[,;:!?()[\]{}"|\n\u3001\u3002\uff01\uff0c\uff1a\uff1b\uff1f\u2026]/gu;

/** True if the string contains a character of a script written without spaces (Chinese, Japanese, Thai…). */
export function hasUnspacedScript(text: string): boolean {
  return UNSPACED_CHAR_RE.test(text);
}

const ASCII_RE = /^[\x00-\x7f]*$/;

/**
 * Lower case, compatibility-decomposed (full-width forms, ligatures), Latin accents removed, `&` spelled
 * out. Only the combining diacritics block U+0300–U+036F is dropped: it is what accents Latin, Greek and
 * Cyrillic, whereas marks of other scripts (Indic vowel signs, kana voicing) change the letter itself.
 * NFC afterwards recomposes Hangul syllables and voiced kana that NFKD split.
 */
export function normaliseText(text: string): string {
  let s = text.toLowerCase();
  // Plain ASCII (most place descriptions) is unchanged by NFKD, NFC and the folds: skip those passes.
  if (!ASCII_RE.test(s)) {
    s = s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .normalize('NFC')
      .replace(FOLD_RE, (c) => FOLDS[c] ?? c);
  }
  return s
    .replace(/['\u2018\u2019`]/g, '') // McDonald's -> mcdonalds, not "mcdonald" + "s"
    .replace(/&/g, ' and ');
}

/** Common function words and question filler; they say nothing about which place or tool is meant. */
export const EN_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but nor if then else so than too very of at by for with about against between into ' +
    'through during before after above below to from up down in out on off over under again further once ' +
    'here there when where why how all any both each few more most other some such no not only own same ' +
    'can will just should now would could might must shall may i me my mine we us our ours you your yours ' +
    'he him his she her hers it its they them their theirs what which who whom whose this that these those ' +
    'am is are was were be been being have has had having do does did doing im ive id youre whats wheres ' +
    'dont doesnt isnt please want wanted wants like looking look find show get give tell let lets ' +
    'somewhere anywhere something anything someplace place places one ones also via etc'
  ).split(' '),
);

/** Chinese filler phrases ("where is", "nearby", "I want"), removed before character n-grams are formed. */
const ZH_STOP_PHRASES = [
  '有没有', '有什么', '哪里有', '哪儿有', '在哪里', '在哪儿', '附近的', '哪里', '哪儿', '哪个', '什么', '附近',
  '周边', '周围', '一下', '可以', '我们', '你们', '怎么', '如何', '请问', '帮我', '我想', '想要', '需要',
  '寻找', '查找', '找到', '一家', '一个', '地方', '能否', '能不能',
];
/** Single Chinese function characters; they split a run so that bigrams like 的咖 are not formed. */
const ZH_STOP_CHARS = '的了吗呢吧啊呀和与及或是我你他她们这那请把被给个';
const ZH_STOP_RE = new RegExp(
  `${[...ZH_STOP_PHRASES].sort((a, b) => b.length - a.length).join('|')}|[${ZH_STOP_CHARS}]`,
  'g',
);

export function isNumeric(word: string): boolean {
  return /^\d+$/.test(word);
}

const VOWEL_RE = /[aeiouy]/;
const ASCII_WORD_RE = /^[a-z]+$/;

/** Drops one letter of a final double consonant (shopp -> shop) but keeps ll/ss/zz, which are part of the word (fill, dress). */
function undouble(stem: string): string {
  const n = stem.length;
  if (n < 4) return stem;
  const last = stem[n - 1]!;
  if (last === stem[n - 2] && !'aeioulsz'.includes(last)) return stem.slice(0, -1);
  return stem;
}

function stripPlural(w: string): string {
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}i`;
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) return w; // glass, bus, analysis
  if (/(?:ch|sh|x|z)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s')) return w.slice(0, -1);
  return w;
}

/** Nouns in -ing whose stem means something else: parking is not a park, an evening is not "even". */
const ING_NOUNS: ReadonlySet<string> = new Set(['parking', 'evening', 'morning', 'ceiling', 'bowling', 'wedding', 'pudding', 'sibling', 'herring']);

/** -ing / -ed, only if a vowel remains: "thing" and "speed" are not inflections. */
function stripVerbal(w: string): string {
  if (ING_NOUNS.has(w)) return w;
  if (w.endsWith('ing')) {
    const stem = w.slice(0, -3);
    if (stem.length >= 3 && VOWEL_RE.test(stem)) return undouble(stem);
  } else if (w.endsWith('ed') && !w.endsWith('eed')) {
    const stem = w.slice(0, -2);
    if (stem.length >= 3 && VOWEL_RE.test(stem)) return undouble(stem);
  }
  return w;
}

/**
 * The few derivations that matter for tool descriptions: detection/detect, calibration/calibrate,
 * segmentation/segment. Minimum stem lengths keep short words (station, format) intact.
 */
function stripDerivational(w: string): string {
  let s = w;
  if (s.endsWith('ion') && s.length - 3 >= 5 && (s[s.length - 4] === 't' || s[s.length - 4] === 's')) s = s.slice(0, -3);
  if (s.endsWith('at') && s.length - 2 >= 5) s = s.slice(0, -2);
  return s;
}

/**
 * British to American spelling for the two regular patterns common in place names (theatre/theater,
 * centre/center, colour/color, harbour/harbor). Irregular variants are left to character n-grams.
 */
function americanise(w: string): string {
  if (w.length >= 5 && (w.endsWith('tre') || w.endsWith('bre'))) return `${w.slice(0, -2)}er`;
  if (w.length >= 6 && w.endsWith('our')) return `${w.slice(0, -2)}r`;
  return w;
}

/**
 * Light, deterministic English stemmer (a small subset of Porter's ideas). A final "e" is always removed
 * and a final consonant+"y" becomes "i", so that base form and inflections meet without Porter's
 * add-an-e rules: dine/dining -> din, image/images -> imag, pharmacy/pharmacies -> pharmaci.
 * Only plain ASCII words of 4+ letters are stemmed; other scripts and codes (b04, 36th) stay as they are.
 */
export function stem(word: string): string {
  return word.length < 4 ? word : stemOnce(word);
}

// The same words come back in text after text (a bulk import embeds thousands): stem each once.
const stemOnce = memoizeBounded(stemUncached, 50_000);

function stemUncached(word: string): string {
  if (!ASCII_WORD_RE.test(word)) return word;
  let w = americanise(stripVerbal(stripPlural(word)));
  if (w.length > 3 && w.endsWith('y') && !'aeiou'.includes(w[w.length - 2]!)) w = `${w.slice(0, -1)}i`;
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return stripDerivational(w);
}

export interface WordToken {
  /** Normalised word as written; character n-grams are taken from it. */
  surface: string;
  stem: string;
  numeric: boolean;
  /** Joined to the previous word of its clause by a hyphen (wi-fi, e-bike, steak-house). */
  hyphenated: boolean;
  /**
   * A function word: not a feature of its own, but kept in the token stream so that concept forms match
   * exactly as written ("place to park" must not shrink to "park").
   */
  stop: boolean;
}

export interface Analysis {
  /** The normalised text; concept forms of unspaced scripts are searched in it. */
  normalised: string;
  /** Words, grouped by clause, in reading order; stop words are flagged, not removed. */
  clauses: WordToken[][];
  /** Runs of unspaced-script text, with filler removed and split at function characters. */
  unspaced: string[];
  /** Whether anything but stop words is left. */
  hasContent: boolean;
}

function splitUnspaced(run: string, dropStopWords: boolean): string[] {
  if (!dropStopWords) return [run];
  return run.split(ZH_STOP_RE).filter((part) => part.length > 0);
}

function analyseNormalised(normalised: string, dropStopWords: boolean): Analysis {
  const spaced = UNSPACED_CHAR_RE.test(normalised) ? normalised.replace(UNSPACED_RUN_RE, ' $& ') : normalised;
  const clauses: WordToken[][] = [];
  const unspaced: string[] = [];
  let clause: WordToken[] = [];
  let previousEnd = -1;
  let hasContent = false;
  for (const match of spaced.matchAll(TOKEN_RE)) {
    const token = match[1];
    if (token === undefined) {
      if (clause.length > 0) clauses.push(clause);
      clause = [];
    } else if (UNSPACED_START_RE.test(token)) {
      unspaced.push(...splitUnspaced(token, dropStopWords));
      // A run of Chinese between two English words separates them, as punctuation would.
      if (clause.length > 0) clauses.push(clause);
      clause = [];
    } else {
      const numeric = isNumeric(token);
      const hyphenated = clause.length > 0 && previousEnd === match.index - 1 && spaced[previousEnd] === '-';
      const stop = dropStopWords && EN_STOP_WORDS.has(token);
      hasContent ||= !stop;
      clause.push({ surface: token, stem: numeric ? token : stem(token), numeric, hyphenated, stop });
      previousEnd = match.index + token.length;
    }
  }
  if (clause.length > 0) clauses.push(clause);
  return { normalised, clauses, unspaced, hasContent: hasContent || unspaced.length > 0 };
}

/**
 * Normalises and tokenises a text. If removing stop words would leave nothing ("where is it?"), the stop
 * words are kept: a weak signal is better than the placeholder vector of an empty text.
 */
export function analyse(text: string): Analysis {
  const normalised = normaliseText(text);
  const content = analyseNormalised(normalised, true);
  return content.hasContent ? content : analyseNormalised(normalised, false);
}
