/** Name normalisation for matching references against the gazetteer ("The Morgan Library & Museum" = "morgan library and museum"). */
export function normalizeName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[’']/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .replace(/^the /, '')
    .trim();
}

const STREET_ABBREVIATIONS: [RegExp, string][] = [
  [/\bst\b\.?/gi, 'Street'],
  [/\bave?\b\.?/gi, 'Avenue'],
  [/\bblvd\b\.?/gi, 'Boulevard'],
  [/\brd\b\.?/gi, 'Road'],
  [/\bpl\b\.?/gi, 'Place'],
  [/\bsq\b\.?/gi, 'Square'],
  [/^w\.? /i, 'West '],
  [/^e\.? /i, 'East '],
];

/** "W 34th St" -> "West 34th Street", so street references match OSM's unabbreviated names. */
export function expandStreetName(text: string): string {
  return STREET_ABBREVIATIONS.reduce((s, [re, full]) => s.replace(re, full), text.trim());
}
