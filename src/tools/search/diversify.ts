/**
 * The top of the list covers the request, not one reading of it. A long request asks for several things
 * ("derive the index for every scene, sum it by district and chart the totals"); ranked by relevance alone,
 * the five best places go to near-equivalent tools for its most evident part (five vegetation indices) and
 * the other steps fall out. Below the best tool, each place goes to the candidate whose relevance, weighed
 * by how much of what it matches is still unanswered by the tools above it, is highest (coverage-based
 * diversification in the manner of xQuAD, with the request's words as its aspects).
 */
import { ASPECT_POOL } from './rank.ts';
import type { Scored } from './types.ts';

/**
 * How much relevance depends on novelty in a request of several clauses. Measured on the tuning halves of
 * the foreign catalogs (eval/sets/README.md): 0.3 to 0.5 give the same figures, 0.7 starts to push second
 * readings of the main step below weaker tools.
 */
export const DIVERSITY = 0.4;

/**
 * Reorders `items` (best first) for their first `k` places. `strength` (0..1) is how much a candidate's
 * relevance depends on the novelty of what it matches: 0 keeps the order. A candidate that matches no
 * request word (found by meaning or by the knowledge graph) counts as half new.
 */
export function diversify<T>(items: readonly T[], scoredOf: (item: T) => Scored, k: number, strength: number, relevanceOf: (item: T) => number = (item) => scoredOf(item).score): T[] {
  if (strength <= 0 || items.length < 3) return [...items];
  const pool = items.slice(0, ASPECT_POOL);
  const best = new Map<string, number>();
  for (const item of pool) for (const [term, c] of scoredOf(item).aspects ?? []) best.set(term, Math.max(best.get(term) ?? 0, c));
  const residual = new Map([...best.keys()].map((term) => [term, 1]));
  const take = (item: T) => {
    for (const [term, c] of scoredOf(item).aspects ?? []) residual.set(term, residual.get(term)! * (1 - c / best.get(term)!));
  };
  const novelty = (item: T): number => {
    const aspects = scoredOf(item).aspects;
    let total = 0;
    let fresh = 0;
    for (const [term, c] of aspects ?? []) {
      total += c;
      fresh += c * residual.get(term)!;
    }
    return total > 0 ? fresh / total : 0.5;
  };
  const value = (item: T): number => {
    const score = relevanceOf(item);
    return score <= 0 ? score : score * (1 - strength + strength * novelty(item));
  };

  const out: T[] = [pool[0]!];
  take(pool[0]!);
  const rest = pool.slice(1);
  while (out.length < k && rest.length > 0) {
    let at = 0;
    for (let i = 1; i < rest.length; i++) if (value(rest[i]!) > value(rest[at]!)) at = i;
    const [chosen] = rest.splice(at, 1);
    out.push(chosen!);
    take(chosen!);
  }
  const placed = new Set(out);
  return [...out, ...items.filter((item) => !placed.has(item))];
}
