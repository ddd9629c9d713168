/**
 * The brand names of the loaded data (`brand` tags held by at least two places, with the names those places
 * carry and their Chinese `brand:zh` / `name:zh`), as the planner's brand index. Built once per data version.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { englishVocabulary } from '../lexicon/zh-gloss.ts';
import { buildBrandIndex, type BrandIndex } from '../planning/brands.ts';

let cache: { db: Db; version: string; index: BrandIndex; checkedAt: number } | undefined;

/**
 * The data version is checked at most this often: brands change with a data load, not between two questions,
 * and a version query per question would cost a round trip on every question's planning.
 */
const RECHECK_MS = 10_000;

export async function brandIndex(db: Db, now: number = Date.now()): Promise<BrandIndex> {
  if (cache?.db === db && now - cache.checkedAt < RECHECK_MS) return cache.index;
  const row = await db.selectFrom('places_version').select('version').executeTakeFirst();
  const version = String(row?.version ?? '');
  if (cache?.db === db && cache.version === version) {
    cache.checkedAt = now;
    return cache.index;
  }
  const { rows } = await sql<{ brand: string; name: string | null; zh: string | null; n: number }>`
    SELECT tags->>'brand' AS brand, name, coalesce(tags->>'brand:zh', tags->>'name:zh') AS zh, count(*)::int AS n
    FROM places WHERE tags ? 'brand' AND source = 'osm'
    GROUP BY 1, 2, 3`.execute(db);
  const byBrand = new Map<string, { names: Map<string, number>; zh: Set<string>; n: number }>();
  for (const r of rows) {
    const b = byBrand.get(r.brand) ?? { names: new Map(), zh: new Set(), n: 0 };
    b.n += r.n;
    if (r.name) b.names.set(r.name, (b.names.get(r.name) ?? 0) + r.n);
    if (r.zh) b.zh.add(r.zh);
    byBrand.set(r.brand, b);
  }
  // A chain is a brand seen at least twice; a name counts as the brand's when two of its places carry it.
  const entries = [...byBrand]
    .filter(([, b]) => b.n >= 2)
    .map(([brand, b]) => ({ brand, names: [...b.names].filter(([, n]) => n >= 2).map(([name]) => name), zh: [...b.zh] }));
  const vocabulary = englishVocabulary();
  const index = buildBrandIndex(entries, (w) => vocabulary.has(w));
  cache = { db, version, index, checkedAt: now };
  return index;
}
