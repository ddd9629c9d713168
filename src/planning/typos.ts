/**
 * Spelling distance for correcting a misspelt kind of place: how far two words are, how many typos a word may
 * carry, and the ordinary words that are never taken for typos.
 */

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions, "restuarant"), stopping early
 * once it exceeds `max`.
 */
export function typoDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, rows[i - 2]![j - 2]! + 1);
      row.push(v);
      best = Math.min(best, v);
    }
    if (best > max) return max + 1;
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/** How many typos a word of this length may carry: short words are too easily another real word. */
export function typoBudget(length: number): number {
  return length >= 8 ? 2 : length >= 5 ? 1 : 0;
}

/** Ordinary words that are one letter away from a kind of place ("model" / "motel"): never corrected. */
export const NOT_TYPOS = new Set([
  'model', 'where', 'there', 'their', 'these', 'those', 'which', 'while', 'would', 'could', 'should', 'about', 'above',
  'after', 'again', 'place', 'places', 'plays', 'great', 'good', 'nearby', 'around', 'close', 'closest', 'nearest',
  'walking', 'minute', 'minutes', 'meters', 'metres', 'blocks', 'street', 'avenue', 'square', 'please', 'thanks',
  'anything', 'something', 'somewhere', 'anywhere', 'within', 'between', 'inside', 'along', 'near', 'maybe', 'really',
  'fixed', 'store', 'stores', 'shops', 'shop', 'spots', 'options', 'recommend', 'suggest', 'looking', 'want', 'need',
]);

