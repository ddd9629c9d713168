import { sql } from 'kysely';
import { ask, type AskDeps } from '../ask/ask.ts';
import type { Db } from '../db/database.ts';
import { poiConcepts } from '../lexicon/poi-concepts.ts';
import type { PoiConcept } from '../lexicon/types.ts';

export interface ExampleQuestion {
  lang: 'en' | 'zh';
  question: string;
}

/** Chips shown at most (the explorer's list of examples). */
const MAX_EXAMPLES = 8;
/** Landmarks considered for the local examples: the largest outlines with a Wikidata link. */
const LANDMARK_POOL = 12;
const LOCAL_RADIUS_M = 300;
/** Areas that are parts of a map rather than landmarks (questions around them are about the area itself). */
const AREA_KINDS = ['country', 'city', 'town', 'neighbourhood', 'suburb', 'quarter', 'borough', 'district', 'administrative_area', 'place'];
/** Candidate questions asked at most, so that a database where few answer does not make the page wait long. */
const MAX_TRIES = 12;

/**
 * The explorer's example questions, made from what this database holds and kept only if they answer: local
 * questions around its most notable landmarks (the kinds of place most common around each, in English and,
 * where the landmark has a Chinese name, in Chinese), and city questions around its most populous cities
 * and countries. Each is asked through the real pipeline; one without a candidate that satisfies every
 * constraint is dropped. Computed once per data version (see places_version).
 */
export async function exampleQuestions(deps: AskDeps): Promise<ExampleQuestion[]> {
  const version = await dataVersion(deps.db);
  if (cached?.db === deps.db && cached.version === version) return cached.examples;
  const examples: ExampleQuestion[] = [];
  const local = await localExamples(deps.db);
  const world = await worldExamples(deps.db);
  // Both kinds when the data has both: the local ones first, room kept for the world ones.
  const candidates = [...local.slice(0, world.length ? MAX_EXAMPLES - world.length : MAX_EXAMPLES), ...world].slice(0, MAX_TRIES);
  for (const candidate of candidates) {
    if (examples.length >= MAX_EXAMPLES) break;
    if (await answers(deps, candidate.question)) examples.push(candidate);
  }
  cached = { db: deps.db, version, examples };
  return examples;
}

let cached: { db: Db; version: string; examples: ExampleQuestion[] } | undefined;

async function dataVersion(db: Db): Promise<string> {
  const row = await db.selectFrom('places_version').select('version').executeTakeFirst();
  return String(row?.version ?? '');
}

async function answers(deps: AskDeps, question: string): Promise<boolean> {
  const result = await ask(deps, { question, k: 5, planner: 'offline' });
  return result.candidates.some((c) => c.scores.sparse >= 1);
}

/** The concept whose category a place kind is, with an English and a Chinese name. */
function conceptOfCategory(category: string): PoiConcept | undefined {
  return poiConcepts.find((c) => c.categories.includes(category) && c.en.length > 0 && c.zh.length > 0);
}

interface Landmark {
  name: string;
  zh: string | null;
  kinds: string[];
}

async function localExamples(db: Db): Promise<ExampleQuestion[]> {
  const { rows } = await sql<{ name: string; zh: string | null; kinds: string[] | null }>`
    WITH landmarks AS (
      SELECT id, name, tags->>'name:zh' AS zh, geog FROM places
      WHERE name IS NOT NULL AND tags ? 'wikidata' AND GeometryType(geom) IN ('POLYGON', 'MULTIPOLYGON')
        AND NOT (coalesce(category, '') = ANY(${AREA_KINDS}::text[]))
      ORDER BY (tags ? 'name:zh') DESC, ST_Area(geog) DESC LIMIT ${LANDMARK_POOL}
    )
    SELECT l.name, l.zh,
           (SELECT array_agg(category ORDER BY n DESC) FROM (
              SELECT p.category, count(*) AS n FROM places p
              WHERE ST_DWithin(p.geog, l.geog, ${LOCAL_RADIUS_M}) AND p.category IS NOT NULL AND p.name IS NOT NULL AND p.id <> l.id
              GROUP BY p.category HAVING count(*) >= 3) AS k) AS kinds
    FROM landmarks l`.execute(db);
  const landmarks: Landmark[] = rows.map((r) => ({ name: r.name, zh: r.zh, kinds: r.kinds ?? [] }));
  const out: ExampleQuestion[] = [];
  const used = new Set<string>();
  for (const [i, landmark] of landmarks.entries()) {
    const concept = landmark.kinds.map(conceptOfCategory).find((c): c is PoiConcept => c !== undefined && !used.has(c.id));
    if (!concept) continue;
    used.add(concept.id);
    const what = concept.en[0]!;
    // Two shapes of question, alternating: a radius, and the nearest one.
    out.push({ lang: 'en', question: i % 2 === 0 ? `${what} within ${LOCAL_RADIUS_M} m of ${landmark.name}` : `the nearest ${what} to ${landmark.name}` });
    if (landmark.zh) out.push({ lang: 'zh', question: `${landmark.zh}${LOCAL_RADIUS_M}米以内的${concept.zh[0]}` });
  }
  return out;
}

async function worldExamples(db: Db): Promise<ExampleQuestion[]> {
  const { rows: cities } = await sql<{ name: string }>`
    SELECT name FROM places WHERE category = 'city' AND tags ? 'population' AND tags->>'capital' = 'yes'
    ORDER BY (tags->>'population')::bigint DESC LIMIT 3`.execute(db);
  const { rows: countries } = await sql<{ zh: string }>`
    WITH most AS (
      SELECT tags->>'country_code' AS code, count(*) AS n FROM places WHERE category = 'city' AND tags ? 'country_code'
      GROUP BY 1 ORDER BY 2 DESC LIMIT 3
    )
    SELECT c.tags->>'name:zh' AS zh FROM places c JOIN most ON c.tags->>'country_code' = most.code
    WHERE c.category = 'country' AND c.tags ? 'name:zh'
    ORDER BY most.n DESC LIMIT 1`.execute(db);
  const out: ExampleQuestion[] = [];
  if (cities[0]) out.push({ lang: 'en', question: `cities within 100 km of ${cities[0].name}` });
  if (cities[1]) out.push({ lang: 'en', question: `the 3 cities nearest to ${cities[1].name}` });
  if (countries[0]) out.push({ lang: 'zh', question: `${countries[0].zh}境内的城市` });
  return out;
}
