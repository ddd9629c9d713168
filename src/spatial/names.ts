/**
 * Name normalisation, in one place for the question, the gazetteer and the answers: case, accents, "&",
 * apostrophes, ordinals ("Fifth" = "5th" = "5"-th) and the usual abbreviations of street and building names
 * ("W 57th St" = "West 57th Street", "Bldg" = "Building"). Two spellings of one name normalise the same.
 */

const UNITS = ['', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth'];
const TEENS = ['tenth', 'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth', 'eighteenth', 'nineteenth'];
const TENS_CARDINAL = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const TENS_ORDINAL = ['', '', 'twentieth', 'thirtieth', 'fortieth', 'fiftieth', 'sixtieth', 'seventieth', 'eightieth', 'ninetieth'];

/** Spelled-out ordinals up to 99 ("fifth", "twenty third", "fortieth") and their numbers. */
const ORDINAL_WORDS: ReadonlyMap<string, number> = (() => {
  const m = new Map<string, number>();
  UNITS.forEach((w, i) => i > 0 && m.set(w, i));
  TEENS.forEach((w, i) => m.set(w, 10 + i));
  for (let t = 2; t <= 9; t++) {
    m.set(TENS_ORDINAL[t]!, t * 10);
    for (let u = 1; u <= 9; u++) m.set(`${TENS_CARDINAL[t]} ${UNITS[u]}`, t * 10 + u);
  }
  return m;
})();

/** 5 -> "5th", 22 -> "22nd", 13 -> "13th". */
export function ordinalOf(n: number): string {
  const t = n % 100;
  const d = n % 10;
  return `${n}${t >= 11 && t <= 13 ? 'th' : d === 1 ? 'st' : d === 2 ? 'nd' : d === 3 ? 'rd' : 'th'}`;
}

/** Replaces spelled-out ordinals by numeric ones in lower-case, space-separated text ("fifth avenue" -> "5th avenue"). */
export function numericOrdinals(lower: string): string {
  return lower.replace(/\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[ -](first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)\b|\b[a-z]+(?:th|st|nd|rd)\b/g, (m, tens?: string, unit?: string) => {
    const key = tens && unit ? `${tens} ${unit}` : m;
    const n = ORDINAL_WORDS.get(key);
    return n === undefined ? m : ordinalOf(n);
  });
}

/**
 * Word abbreviations of names, expanded on normalised (lower-case, space-separated) text. "st" is Street after
 * a number or at the end of a name, and Saint before one ("St Marks Place", "W 4th St").
 */
const ABBREVIATIONS: Array<[RegExp, string]> = [
  [/\b(\d+(?:st|nd|rd|th)?) st\b/g, '$1 street'],
  [/ st$/g, ' street'],
  [/^st /g, 'saint '],
  [/ st (?=[a-z])/g, ' saint '],
  [/\b(?:ave|av)\b/g, 'avenue'],
  [/\bblvd\b/g, 'boulevard'],
  [/\bpkwy\b/g, 'parkway'],
  [/\bsq\b/g, 'square'],
  [/\bbldg\b/g, 'building'],
  [/\bctr\b/g, 'center'],
  [/\bhwy\b/g, 'highway'],
  [/\bpl$/g, 'place'],
  [/\brd$/g, 'road'],
  [/\bmt\b/g, 'mount'],
  [/^w (?=\d)/g, 'west '],
  [/^e (?=\d)/g, 'east '],
  [/^n (?=\d)/g, 'north '],
  [/^s (?=\d)/g, 'south '],
  [/\b(\d+) (street|avenue)\b/g, '$1th $2'],
];

/** Expands abbreviations and ordinals in normalised text; numbers before street/avenue get their suffix. */
function expandNormalized(s: string): string {
  let out = numericOrdinals(s);
  for (const [re, to] of ABBREVIATIONS) out = out.replace(re, to);
  // "42th street" from a bare "42 street": give the number its proper suffix.
  return out.replace(/\b(\d+)th\b/g, (_m, n: string) => ordinalOf(Number(n)));
}

/**
 * Normalised names by their text: the same names (candidates, references, gazetteer rows) come back question
 * after question, and the normalisation is a dozen regular-expression passes. Emptied when full.
 */
const NORMALIZED_CACHE_SIZE = 20_000;
const normalizedNames = new Map<string, string>();

/** Name normalisation for matching references against the gazetteer ("The Frick Art & Library" = "frick art and library"). */
export function normalizeName(text: string): string {
  const known = normalizedNames.get(text);
  if (known !== undefined) return known;
  const normalized = normalizeUncached(text);
  if (normalizedNames.size >= NORMALIZED_CACHE_SIZE) normalizedNames.clear();
  normalizedNames.set(text, normalized);
  return normalized;
}

function normalizeUncached(text: string): string {
  const basic = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[’']/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .replace(/^the /, '')
    .trim();
  return expandNormalized(basic);
}

const STREET_ABBREVIATIONS: [RegExp, string][] = [
  [/\bst\b\.?(?=\s*$)/gi, 'Street'],
  [/(\d(?:st|nd|rd|th)?)\s+st\b\.?/gi, '$1 Street'],
  [/\bave?\b\.?/gi, 'Avenue'],
  [/\bblvd\b\.?/gi, 'Boulevard'],
  [/\brd\b\.?/gi, 'Road'],
  [/\bpl\b\.?/gi, 'Place'],
  [/\bsq\b\.?/gi, 'Square'],
  [/^w\.? /i, 'West '],
  [/^e\.? /i, 'East '],
];

/**
 * "W 57th St" -> "West 57th Street", "Fifth Avenue" -> "5th Avenue", "W 42 St" -> "West 42nd Street": street
 * references are searched with the spelling OSM uses (numbers with their suffix, words in full).
 */
export function expandStreetName(text: string): string {
  let s = STREET_ABBREVIATIONS.reduce((acc, [re, full]) => acc.replace(re, full), text.trim());
  s = s.replace(/\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[ -](first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)\b|\b[A-Za-z]+(?:th|st|nd|rd)\b/gi, (m, tens?: string, unit?: string) => {
    const key = (tens && unit ? `${tens} ${unit}` : m).toLowerCase();
    const n = ORDINAL_WORDS.get(key);
    return n === undefined ? m : ordinalOf(n);
  });
  return s.replace(/\b(\d+)(?=\s+(?:Street|Avenue)\b)/g, (_m, n: string) => ordinalOf(Number(n)));
}
