import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/**
 * How many places a plan's targets match in the whole table, estimated from PostgreSQL's own statistics
 * (ANALYZE): the most common tag tokens and categories with their frequencies. The candidate query uses it
 * to choose how to find the tagged places of a window (src/spatial/retrieve.ts): these statistics stay
 * reliable where PostGIS's estimate of a window does not (with places spread over the world, it estimated
 * 7 of the 60,000 places of a 3 km window of Manhattan).
 */
export interface TargetStatistics {
  places: number;
  /** Places with tag tokens: the candidates (migration 0010); token shares are of these. */
  tokenPlaces: number;
  tokenShares: Map<string, number>;
  /** Share below which a token is not listed (the least common listed one). */
  tokenFloor: number;
  categoryShares: Map<string, number>;
  categoryFloor: number;
}

/** Statistics change with ANALYZE only (after a load, or autovacuum): read again at most this often. */
const REFRESH_MS = 60_000;
const cache = new WeakMap<Db, { at: number; statistics: Promise<TargetStatistics | null> }>();

export function targetStatistics(db: Db, now = Date.now()): Promise<TargetStatistics | null> {
  const cached = cache.get(db);
  if (cached && now - cached.at < REFRESH_MS) return cached.statistics;
  const statistics = readStatistics(db).catch(() => null);
  cache.set(db, { at: now, statistics });
  return statistics;
}

async function readStatistics(db: Db): Promise<TargetStatistics | null> {
  const { rows } = await sql<{ attname: string; vals: string[] | null; freqs: number[] | null; places: number; nullShare: number }>`
    SELECT s.attname, s.null_frac::float8 AS "nullShare",
           CASE s.attname WHEN 'tag_tokens' THEN s.most_common_elems::text::text[] ELSE s.most_common_vals::text::text[] END AS vals,
           CASE s.attname WHEN 'tag_tokens' THEN s.most_common_elem_freqs ELSE s.most_common_freqs END AS freqs,
           c.reltuples::float8 AS places
    FROM pg_stats s JOIN pg_class c ON c.relname = s.tablename AND c.relnamespace = to_regnamespace(s.schemaname)
    WHERE s.schemaname = current_schema() AND s.tablename = 'places' AND s.attname IN ('tag_tokens', 'category')`.execute(db);
  const tokens = rows.find((r) => r.attname === 'tag_tokens');
  if (!tokens?.vals || !tokens.freqs || !(tokens.places > 0)) return null;
  const categories = rows.find((r) => r.attname === 'category');
  // most_common_elem_freqs ends with the minimum and maximum of the listed frequencies and the frequency of
  // nulls, after one entry per listed token.
  const shares = (vals: string[] | null | undefined, freqs: number[] | null | undefined) =>
    new Map((vals ?? []).map((v, i) => [v, Number(freqs![i])]));
  const categoryFreqs = (categories?.freqs ?? []).map(Number);
  return {
    places: tokens.places,
    tokenPlaces: tokens.places * (1 - tokens.nullShare),
    tokenShares: shares(tokens.vals, tokens.freqs),
    tokenFloor: Number(tokens.freqs[tokens.vals.length]),
    categoryShares: shares(categories?.vals, categories?.freqs),
    categoryFloor: categoryFreqs.length ? Math.min(...categoryFreqs) : 0,
  };
}

/**
 * Places of the whole table matching any of the tokens or categories: a listed one by its frequency, one
 * not listed by half the least common listed frequency (as PostgreSQL's own array estimate does). Token
 * frequencies are of the rows with tokens (PostgreSQL leaves the NULLs out), category ones of all rows.
 */
export function estimatedMatches(statistics: TargetStatistics, tokens: string[], categories: string[]): number {
  const tokenShare = tokens.reduce((sum, t) => sum + (statistics.tokenShares.get(t) ?? statistics.tokenFloor / 2), 0);
  const categoryShare = categories.reduce((sum, c) => sum + (statistics.categoryShares.get(c) ?? statistics.categoryFloor / 2), 0);
  return Math.min(statistics.places, Math.min(1, tokenShare) * statistics.tokenPlaces + Math.min(1, categoryShare) * statistics.places);
}
