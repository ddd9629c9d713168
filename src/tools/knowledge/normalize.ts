/** Text normalisation shared by the graph's forms and the texts matched against them. */

/** Lower case, accents and apostrophes removed, dashes unified, spaces collapsed: both forms and texts. */
export function normalizeForMatch(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['\u2018\u2019`]/g, '')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, ' ');
}
