/**
 * Text helpers shared by the English and Chinese grammars: input normalisation, a case/accent fold that keeps
 * character offsets (so spans found in the folded text can be cut from the original), number words and
 * distance expressions.
 */

/** Questions are short; anything longer is cut so that every scan stays cheap whatever the input. */
export const MAX_QUESTION_CHARS = 2000;

/** Walking speed of the evaluation conventions (and of most geo-QA literature): 80 m per minute. */
export const WALK_M_PER_MIN = 80;
/** A city block, by the same conventions. */
export const BLOCK_M = 80;
const CYCLE_M_PER_MIN = 250; // ~15 km/h
const DRIVE_M_PER_MIN = 500; // ~30 km/h, urban driving
const RUN_M_PER_MIN = 160;

export interface Span {
  start: number;
  end: number;
}

export function overlaps(a: Span, b: Span): boolean {
  return a.start < b.end && b.start < a.end;
}

export function insideAny(pos: number, spans: readonly Span[]): boolean {
  return spans.some((s) => pos >= s.start && pos < s.end);
}

export function overlapsAny(span: Span, spans: readonly Span[]): boolean {
  return spans.some((s) => overlaps(span, s));
}

/** Normalises user input: NFKC (full-width digits and punctuation to ASCII), straight quotes, one space. */
export function normalizeQuestion(input: unknown): { text: string; truncated: boolean } {
  let s = typeof input === 'string' ? input : '';
  try {
    s = s.normalize('NFKC');
  } catch {
    // Lone surrogates cannot break normalize in V8, but be defensive: keep the raw text.
  }
  s = s
    .replace(/[\u2018\u2019\u201A\u201B\u2032\u00B4`]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g, '"')
    .replace(/[\u2010-\u2014\u2212]/g, '-')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001F\u007F-\u009F\u200B-\u200F\u2028-\u202F\u2060-\u206F\uFEFF]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  let truncated = false;
  if (s.length > MAX_QUESTION_CHARS) {
    s = s.slice(0, MAX_QUESTION_CHARS);
    // Do not leave half of a surrogate pair at the end.
    if (/[\uD800-\uDBFF]$/.test(s)) s = s.slice(0, -1);
    truncated = true;
  }
  return { text: s, truncated };
}

/**
 * Lower case, accents dropped, hyphens/underscores/slashes as spaces, one output unit per input unit:
 * offsets in the folded text are offsets in the original.
 */
export function foldAligned(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const code = c.charCodeAt(0);
    if (code < 128) {
      out += c === '-' || c === '_' || c === '/' ? ' ' : c.toLowerCase();
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      out += c;
      continue;
    }
    const base = c.normalize('NFD')[0] ?? c;
    const lower = base.toLowerCase();
    out += lower.length === 1 ? lower : base.length === 1 ? base : c;
  }
  return out;
}

/** Folds a lexicon form or phrase the same way, then keeps single spaces (for dictionary keys). */
export function foldKey(s: string): string {
  return foldAligned(s.normalize('NFKC')).replace(/\s+/g, ' ').trim();
}

const HAN = /\p{Script=Han}/u;
export function isHan(ch: string): boolean {
  return HAN.test(ch);
}

/** 'zh' when Han characters carry the question (names in Latin letters inside Chinese text are common). */
export function detectLang(s: string): 'en' | 'zh' {
  let han = 0;
  let latin = 0;
  for (const ch of s) {
    if (HAN.test(ch)) han++;
    else if (/[A-Za-z]/.test(ch)) latin++;
  }
  return han > 0 && han * 2 >= latin ? 'zh' : 'en';
}

export function clamp(n: number, lo: number, hi: number): number {
  if (!Number.isFinite(n)) return lo;
  return Math.min(hi, Math.max(lo, n));
}

// ---------------------------------------------------------------------------------------------------------
// English numbers

const SMALL: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
export const EN_NUMBER_WORDS = [...Object.keys(SMALL), ...Object.keys(TENS), 'hundred', 'thousand'];

/** Parses "two hundred fifty", "twenty-five", "a dozen", "half", "a couple", "1,500", "1.5", "2½"... */
export function parseEnNumber(raw: string): number | undefined {
  const s = raw.trim().toLowerCase().replace(/-/g, ' ').replace(/\s+/g, ' ');
  if (!s) return undefined;
  let extra = 0;
  let body = s;
  const half = /\s+and\s+a\s+half$/.exec(body);
  if (half) {
    extra = 0.5;
    body = body.slice(0, half.index);
  }
  if (/^\d/.test(body) || /^\.\d/.test(body)) {
    let digits = body;
    // "1,500" is a thousands separator; "1,5" (European) a decimal comma.
    if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(digits)) digits = digits.replace(/,/g, '');
    else digits = digits.replace(',', '.');
    const n = Number(digits);
    return Number.isFinite(n) ? n + extra : undefined;
  }
  const fixed: Record<string, number> = {
    a: 1, an: 1, half: 0.5, 'half a': 0.5, 'half an': 0.5, 'a half': 0.5, quarter: 0.25, 'a quarter': 0.25,
    'a quarter of a': 0.25, 'a quarter of an': 0.25, 'quarter of a': 0.25, couple: 2, 'a couple': 2,
    'a couple of': 2, 'couple of': 2, few: 3, 'a few': 3, several: 4, dozen: 12, 'a dozen': 12,
  };
  if (body in fixed) return fixed[body]! + extra;
  let total = 0;
  let current = 0;
  let any = false;
  for (const w of body.split(' ')) {
    if (w === 'and' || w === 'a') continue;
    if (w in SMALL) current += SMALL[w]!;
    else if (w in TENS) current += TENS[w]!;
    else if (w === 'hundred') current = (current || 1) * 100;
    else if (w === 'thousand') {
      total += (current || 1) * 1000;
      current = 0;
    } else return undefined;
    any = true;
  }
  return any ? total + current + extra : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// English distances

export interface DistanceMention extends Span {
  /** Metres, not yet clamped. */
  valueM: number;
  /** Human-readable derivation for plan notes ('5-minute walk -> 400 m'). */
  note?: string;
  /** "more than 1 km": a lower bound, which the plan cannot express. */
  lowerBound?: boolean;
}

const NUM_WORD_RE = `(?:${EN_NUMBER_WORDS.join('|')})`;
const WORD_NUM_RE =
  `(?:half\\s+an?|a\\s+half|an?\\s+quarter(?:\\s+of\\s+an?)?|quarter(?:\\s+of\\s+an?)?|an?\\s+couple(?:\\s+of)?|couple(?:\\s+of)?|an?\\s+few|few|several|an?\\s+dozen|dozen|` +
  `${NUM_WORD_RE}(?:[\\s-]+(?:and[\\s-]+)?${NUM_WORD_RE})*|an?)(?:\\s+and\\s+a\\s+half)?`;
const DIGIT_NUM_RE = `(?:\\d{1,6}(?:[.,]\\d+)*|\\.\\d+)(?:\\s+and\\s+a\\s+half)?`;
const UNIT_RE =
  '(?<unit>kilometers?|kilometres?|kms?|meters?|metres?|m|miles?|mi|feet|foot|ft|yards?|yds?|yd|blocks?|minutes?|mins?|hours?|hrs?|hr)';
const MODE_RE =
  "(?:\\s*'?s?\\s*(?<mode>walk(?:ing)?|stroll|on\\s+foot|by\\s+foot|drive|driving|by\\s+car|car\\s+ride|cab\\s+ride|taxi\\s+ride|ride|cycle|cycling|bike\\s+ride|biking|by\\s+bike|by\\s+bicycle|run|running|jog))?";
const EN_DISTANCE_RE = new RegExp(
  `(?<![a-z0-9.])(?:(?<dnum>${DIGIT_NUM_RE})\\s*-?\\s*|(?<wnum>${WORD_NUM_RE})[\\s-]+)${UNIT_RE}(?![a-z])'?${MODE_RE}(?![a-z])`,
  'g',
);
const BEFORE_BOUND_RE =
  /(?<![a-z])(?:within|inside(?:\s+of)?|in|under|less\s+than|no\s+more\s+than|not\s+more\s+than|no\s+further\s+than|no\s+farther\s+than|at\s+most|up\s+to|max(?:imum)?|about|around|approximately|approx\.?|roughly|only|just|some)\s+(?:(?:a|an)\s+)?(?:radius\s+of\s+)?$/;
const LOWER_BOUND_RE =
  /(?<![a-z])(?<!\b(?:no|not)\s+)(?:more\s+than|over|at\s+least|beyond|further\s+than|farther\s+than|outside(?:\s+of)?|greater\s+than|not\s+within)\s+(?:(?:a|an)\s+)?$/;
const AFTER_LINK_RE = /^\s*(?:radius\s+)?(?:away\s+)?(?:from|of|around|to|near|off)\b/;

function unitFactor(unit: string, mode: string | undefined): { factor: number; note?: string } | undefined {
  const u = unit.toLowerCase();
  if (/^(kilomet|kms?$)/.test(u)) return { factor: 1000 };
  if (/^(met|m$)/.test(u)) return { factor: 1 };
  if (/^(mile|mi$)/.test(u)) return { factor: 1609.344 };
  if (/^(feet|foot|ft)/.test(u)) return { factor: 0.3048 };
  if (/^(yard|yd)/.test(u)) return { factor: 0.9144 };
  if (/^block/.test(u)) return { factor: BLOCK_M, note: `${BLOCK_M} m per block` };
  const perHour = /^(hour|hr)/.test(u) ? 60 : 1;
  if (/^(min|hour|hr)/.test(u)) {
    const m = (mode ?? 'walk').replace(/\s+/g, ' ');
    if (/drive|car|cab|taxi|^ride/.test(m)) return { factor: DRIVE_M_PER_MIN * perHour, note: `${DRIVE_M_PER_MIN} m per minute by car` };
    if (/cycl|bik|bicycle/.test(m)) return { factor: CYCLE_M_PER_MIN * perHour, note: `${CYCLE_M_PER_MIN} m per minute by bike` };
    if (/run|jog/.test(m)) return { factor: RUN_M_PER_MIN * perHour, note: `${RUN_M_PER_MIN} m per minute running` };
    return { factor: WALK_M_PER_MIN * perHour, note: `${WALK_M_PER_MIN} m per minute walking` };
  }
  return undefined;
}

/**
 * Finds distance expressions in folded English text: "200 m", "1.5 km", "half a mile", "a 5-minute walk",
 * "3 blocks", "ten minutes on foot". The span includes a leading bound word ("within", "under") when present.
 */
export function findEnDistances(folded: string): DistanceMention[] {
  const out: DistanceMention[] = [];
  EN_DISTANCE_RE.lastIndex = 0;
  for (const m of folded.matchAll(EN_DISTANCE_RE)) {
    const g = m.groups ?? {};
    const numText = g.dnum ?? g.wnum;
    const unit = g.unit;
    if (!numText || !unit) continue;
    const n = parseEnNumber(numText);
    if (n === undefined || !(n > 0)) continue;
    const f = unitFactor(unit, g.mode);
    if (!f) continue;
    let start = m.index;
    const end = m.index + m[0].length;
    const before = folded.slice(Math.max(0, start - 40), start);
    const after = folded.slice(end, end + 20);
    const isTime = /^(min|hour|hr)/.test(unit);
    const bound = BEFORE_BOUND_RE.exec(before);
    const lower = LOWER_BOUND_RE.exec(before);
    // A bare duration ("in a minute") is only a distance when something spatial surrounds it.
    // ("in a minute" is time; "within 5 minutes of X", "5 minutes from X" are distances.)
    const spatialBound = bound && !/^in\s/.test(bound[0]);
    if (isTime && !g.mode && !spatialBound && !lower && !AFTER_LINK_RE.test(after)) continue;
    // "a m" / "an m" are never distances; a word number needs a real unit word.
    if (g.wnum && /^(m|mi|ft|yd|km)$/.test(unit)) continue;
    if (bound) start -= bound[0].length;
    else if (lower) start -= lower[0].length;
    const valueM = n * f.factor;
    const phrase = m[0].trim();
    const note = f.note ? `${phrase} -> ${Math.round(valueM)} m (${f.note})` : undefined;
    out.push({ start, end, valueM, ...(note ? { note } : {}), ...(lower ? { lowerBound: true } : {}) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Chinese numbers and distances

const ZH_DIGITS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 俩: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const ZH_UNITS: Record<string, number> = { 十: 10, 百: 100, 千: 1000, 万: 10000 };

/** Parses Arabic or Chinese numerals: "800", "八百", "一千二百", "一点五", "两", "半", "十五", "1.5". */
export function parseZhNumber(raw: string): number | undefined {
  const s = raw.trim();
  if (!s) return undefined;
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s);
  if (s === '半') return 0.5;
  if (s === '几') return 3;
  let body = s;
  let tail = 0;
  if (body.endsWith('半') && body.length > 1) {
    tail = 0.5;
    body = body.slice(0, -1).replace(/个$/, '');
  }
  const [intPart, fracPart] = body.split('点');
  let total = 0;
  let section = 0;
  let digit = -1;
  for (const ch of intPart ?? '') {
    if (ch in ZH_DIGITS) digit = ZH_DIGITS[ch]!;
    else if (ch in ZH_UNITS) {
      const u = ZH_UNITS[ch]!;
      if (u === 10000) {
        total = (total + section + Math.max(digit, 0)) * u;
        section = 0;
      } else section += (digit < 0 ? 1 : digit) * u;
      digit = -1;
    } else if (/\d/.test(ch)) digit = Math.max(digit, 0) * 10 + Number(ch);
    else return undefined;
  }
  let n = total + section + Math.max(digit, 0);
  if (fracPart !== undefined) {
    let frac = '';
    let scale = 1;
    let fracDigits = fracPart;
    // "一点五千" = 1.5 thousand.
    const unit = /[十百千万]$/.exec(fracDigits);
    if (unit) {
      scale = ZH_UNITS[unit[0]]!;
      fracDigits = fracDigits.slice(0, -1);
    }
    for (const ch of fracDigits) {
      if (ch in ZH_DIGITS) frac += String(ZH_DIGITS[ch]);
      else if (/\d/.test(ch)) frac += ch;
      else return undefined;
    }
    if (frac) n += Number(`0.${frac}`);
    n *= scale;
  }
  return n + tail;
}

export const ZH_NUM_RE = '(?:\\d+(?:\\.\\d+)?|[零〇一二两俩三四五六七八九十百千万][零〇一二两俩三四五六七八九十百千万点]*半?|半|几)';
const ZH_DISTANCE_RE = new RegExp(
  [
    // 步行5分钟 / 走路十分钟 / 开车10分钟 / 骑车5分钟
    `(?<mode1>步行|走路|走|开车|驾车|车程|骑车|骑行|跑步)\\s*(?:约|大约|大概|不到|不超过)?\\s*(?<n1>${ZH_NUM_RE})\\s*(?:个)?\\s*(?<u1>分钟|分|小时|钟头)`,
    // 5分钟步行 / 十分钟的路程
    `(?<n2>${ZH_NUM_RE})\\s*(?:个)?\\s*(?<u2>分钟|分|小时|钟头)\\s*(?:的)?\\s*(?<mode2>步行|走路|路程|脚程|步程|车程|骑行|骑车)`,
    // 800米 / 1公里 / 一点五千米 / 3个街区
    `(?<n3>${ZH_NUM_RE})\\s*(?<u3>千米|公里|公尺|米|英里|km|KM|Km|m|M|个街区|街区)(?![a-zA-Z])`,
  ].join('|'),
  'g',
);
const ZH_BOUND_AFTER_RE = /^\s*(?:以内|之内|范围内|范围之内|内|以下|左右|上下)/;
const ZH_BOUND_BEFORE_RE = /(?:方圆|周边|周围|附近|不到|不超过|少于|小于|约|大约|大概|只有)\s*$/;
const ZH_LOWER_BEFORE_RE = /(?:超过|大于|多于|至少|以外)\s*$/;

/** Finds Chinese distance expressions ("800米以内", "1公里", "步行5分钟", "3个街区"). */
export function findZhDistances(text: string): DistanceMention[] {
  const out: DistanceMention[] = [];
  for (const m of text.matchAll(ZH_DISTANCE_RE)) {
    const g = m.groups ?? {};
    const numText = g.n1 ?? g.n2 ?? g.n3;
    const unit = g.u1 ?? g.u2 ?? g.u3;
    const mode = g.mode1 ?? g.mode2;
    if (!numText || !unit) continue;
    const n = parseZhNumber(numText);
    if (n === undefined || !(n > 0)) continue;
    let factor: number;
    let how: string | undefined;
    if (/千米|公里|km/i.test(unit)) factor = 1000;
    else if (unit === '英里') factor = 1609.344;
    else if (/街区/.test(unit)) {
      factor = BLOCK_M;
      how = `${BLOCK_M} m per block`;
    } else if (/米|公尺|^m$/i.test(unit)) factor = 1;
    else {
      const perHour = /小时|钟头/.test(unit) ? 60 : 1;
      if (mode && /开车|驾车|车程/.test(mode)) {
        factor = DRIVE_M_PER_MIN * perHour;
        how = `${DRIVE_M_PER_MIN} m per minute by car`;
      } else if (mode && /骑/.test(mode)) {
        factor = CYCLE_M_PER_MIN * perHour;
        how = `${CYCLE_M_PER_MIN} m per minute by bike`;
      } else if (mode && /跑/.test(mode)) {
        factor = RUN_M_PER_MIN * perHour;
        how = `${RUN_M_PER_MIN} m per minute running`;
      } else {
        factor = WALK_M_PER_MIN * perHour;
        how = `${WALK_M_PER_MIN} m per minute walking`;
      }
    }
    let start = m.index;
    let end = m.index + m[0].length;
    const after = ZH_BOUND_AFTER_RE.exec(text.slice(end));
    if (after) end += after[0].length;
    const before = text.slice(Math.max(0, start - 6), start);
    const lowerBefore = ZH_LOWER_BEFORE_RE.exec(before);
    const lower = lowerBefore !== null || /^\s*(?:以外|之外)/.test(text.slice(end));
    const bound = ZH_BOUND_BEFORE_RE.exec(before);
    // 附近/周边 belong to the place phrase ("外滩附近1公里"), not to the distance.
    if (bound && !/附近|周边|周围/.test(bound[0])) start -= bound[0].length;
    if (lowerBefore) start -= lowerBefore[0].length;
    const valueM = n * factor;
    out.push({
      start,
      end,
      valueM,
      ...(how ? { note: `${m[0]} -> ${Math.round(valueM)} m (${how})` } : {}),
      ...(lower ? { lowerBound: true } : {}),
    });
  }
  return out;
}
