import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineEmbedderWithLexicons } from '../../src/embedding/configured.ts';
import { queryEmbedderFor } from '../../src/embedding/query-embedding.ts';
import { planOffline } from '../../src/planning/offline-planner.ts';
import { dropDuplicates } from '../../src/ask/ask.ts';
import { chooseTradeOff, rankCandidates, topAnswers } from '../../src/ranking/rank.ts';
import { resolveReferences, type ResolvedReference } from '../../src/spatial/resolve.ts';
import { buildRetrievalQuery, retrievalQuery, retrieveCandidates, TAGGED_ENOUGH, tagTokens, type Candidate } from '../../src/spatial/retrieve.ts';
import { estimatedMatches, targetStatistics } from '../../src/spatial/tag-statistics.ts';
import { openTestDatabase, testMode, type TestDatabase } from '../helpers/database.ts';
import { hasNycData, NO_NYC_DATA } from '../helpers/data.ts';

const embedder = createOfflineEmbedderWithLexicons();

async function retrievalInput(db: TestDatabase['db'], question: string) {
  const plan = planOffline(question);
  const resolution = await resolveReferences(db, plan);
  if (!resolution.ok) throw new Error(`"${question}" asked for a clarification`);
  const embedded = await queryEmbedderFor(embedder).embed([plan.semantic.text || question, plan.spatialText || question]);
  if (!embedded.ok) throw new Error('offline embedder failed');
  return {
    plan,
    references: resolution.references,
    semanticVector: embedded.vectors[0]!,
    spatialVector: embedded.vectors[1]!,
    embeddingModel: embedder.model,
  };
}

/** The candidates of every pool (allPools), for checks that want many of them. */
async function retrieve(db: TestDatabase['db'], question: string): Promise<{ candidates: Candidate[]; references: ResolvedReference[] }> {
  const input = await retrievalInput(db, question);
  const { candidates } = await retrieveCandidates(db, { ...input, allPools: true });
  return { candidates, references: input.references };
}

/** How many places the exact vector sort of the semantic pool returned (EXPLAIN ANALYZE). */
async function semanticPoolRows(db: TestDatabase['db'], question: string): Promise<number> {
  const compiled = (await retrievalQuery(db, await retrievalInput(db, question))).compile(db);
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': unknown }>({ ...compiled, sql: `EXPLAIN (ANALYZE, FORMAT JSON) ${compiled.sql}` });
  const raw = rows[0]!['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
  let sorted = -1;
  const visit = (node: PlanNode) => {
    if (node['Node Type'] === 'Sort' && node['Sort Key']?.some((k) => /^\(*(p(_\d+)?|s)\.embedding <=>/.test(k))) sorted = node['Actual Rows'];
    node.Plans?.forEach(visit);
  };
  visit(plan[0]!.Plan);
  return sorted;
}
type PlanNode = { 'Node Type': string; 'Sort Key'?: string[]; 'Actual Rows': number; Plans?: PlanNode[] };

/** PostGIS's own distances on the sphere from the places to a reference geometry. */
async function sphereDistances(db: TestDatabase['db'], ids: number[], reference: ResolvedReference): Promise<Map<number, number>> {
  const { rows } = await sql<{ id: number; d: number }>`
    SELECT id, ST_Distance(geog, ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify(reference.geometry)}), 4326)::geography, false) AS d
    FROM places WHERE id = ANY(${ids}::bigint[])`.execute(db);
  return new Map(rows.map((r) => [Number(r.id), Number(r.d)]));
}

// Distances inside a city are measured in a local planar frame, and a street's window is its corridor:
// both must give what PostGIS's sphere distances and a plain bounding-box window would.
describe.skipIf(!hasNycData)(`candidate retrieval geometry on the Midtown data (${testMode} mode)`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('nyc');
  });
  afterAll(async () => database?.dispose());

  it.each([
    ['a street', 'Show me the banks along Third Avenue'],
    ['a park polygon', 'Which florist is closest to Madison Square Park?'],
    ['a neighbourhood polygon', 'Which art galleries are in Chelsea?'],
    ['a point', 'Show me the banks within 400 metres of Madison Square Garden'],
  ])('distances to %s agree with the sphere (0.3 percent + 0.5 m)', async (_, question) => {
    const { candidates, references } = await retrieve(database.db, question);
    expect(candidates.length).toBeGreaterThan(20);
    const sphere = await sphereDistances(database.db, candidates.map((c) => c.id), references[0]!);
    for (const c of candidates) {
      const exact = sphere.get(c.id)!;
      expect(Math.abs(c.distances[0]! - exact), `${c.name}: ${c.distances[0]} vs ${exact}`).toBeLessThanOrEqual(0.003 * exact + 0.5);
    }
  });

  it(`draws the semantic pool only when fewer than ${TAGGED_ENOUGH} places match the tag targets`, async () => {
    // Dozens of hotels around the Empire State Building; hardly any dog run near the Chrysler Building.
    expect(await semanticPoolRows(database.db, 'Which hotel is nearest to the Empire State Building?')).toBe(0);
    expect(await semanticPoolRows(database.db, 'Which dog run is nearest to the Chrysler Building?')).toBeGreaterThan(50);
  });

  it('asks for the tagged places alone first, and draws the other pools only when none is found', async () => {
    const drawn = async (question: string) => {
      const { candidates, query } = await retrieveCandidates(database.db, await retrievalInput(database.db, question));
      return { candidates: candidates.length, tagged: candidates.filter((c) => c.tagMatch).length, union: /\bUNION\b/.test(query.sql) };
    };
    // Banks: tagged ones near the Garden. A zoo: a target no place of the window has. Quiet reading: no target.
    const banks = await drawn('Show me the banks within 400 metres of Madison Square Garden');
    expect(banks.union).toBe(false);
    expect(banks.tagged).toBe(banks.candidates);
    for (const question of ['Is there a zoo within 300 m of Grand Central Terminal?', 'Somewhere quiet to read near Bryant Park']) {
      const other = await drawn(question);
      expect(other.union).toBe(true);
      expect(other.tagged).toBe(0);
      expect(other.candidates).toBeGreaterThan(50);
    }
  });

  it.each([
    'Which dog run is nearest to the Chrysler Building?',
    'Show me the banks within 400 metres of Madison Square Garden',
    'Any bookshops on the way from Madison Square Park to Bryant Park?',
    'Which banks are on Madison Avenue?',
    'Somewhere quiet to read near Bryant Park',
    'Is there a zoo within 300 m of Grand Central Terminal?',
  ])('answers as it would with every pool drawn: %s', async (question) => {
    const input = await retrievalInput(database.db, question);
    const answers = async (allPools: boolean) => {
      const { candidates } = await retrieveCandidates(database.db, { ...input, allPools });
      const ranked = rankCandidates(input.plan, candidates, chooseTradeOff(input.plan));
      return topAnswers(dropDuplicates(ranked), 5).map((c) => ({ id: c.id, scores: c.scores, pareto: c.pareto }));
    };
    const fewer = await answers(false);
    expect(fewer.length).toBeGreaterThan(0);
    expect(fewer).toEqual(await answers(true));
  });

  it('estimates from the statistics how many places a target matches', async () => {
    await sql`ANALYZE places`.execute(database.db);
    const statistics = (await targetStatistics(database.db, Date.now() + 3_600_000))!;
    expect(statistics.places).toBeGreaterThan(40_000);
    const estimate = (q: string) => {
      const plan = planOffline(q);
      return estimatedMatches(statistics, tagTokens(plan), plan.targets.categories);
    };
    const [dogRuns, restaurants] = [estimate('the nearest dog run to Bryant Park'), estimate('restaurants near Bryant Park')];
    expect(dogRuns).toBeLessThan(200);
    expect(restaurants).toBeGreaterThan(200);
    expect(restaurants).toBeGreaterThan(dogRuns * 5);
  });

  it.each([
    'Which dog run is nearest to the Chrysler Building?',
    'Which hotel is nearest to the Empire State Building?',
    'Show me the banks along Third Avenue',
    'Which art galleries are in Chelsea?',
  ])('finds the same tagged places by the index of rare targets as by the window: %s', async (question) => {
    const input = await retrievalInput(database.db, question);
    const tagged = async (targetMatches: number) => {
      const { rows } = await buildRetrievalQuery({ ...input, targetMatches }).execute(database.db);
      return rows.filter((r) => r.tag_match).map((r) => Number(r.id)).sort((a, b) => a - b);
    };
    const byIndex = await tagged(0);
    expect(byIndex.length).toBeGreaterThan(0);
    expect(byIndex).toEqual(await tagged(Number.POSITIVE_INFINITY));
  });

  it('finds along a street every tagged place within its buffer, as a plain distance query does', async () => {
    const question = 'Show me the restaurants along Lexington Avenue';
    const along = planOffline(question).constraints[0]!;
    expect(along.fn).toBe('along');
    const buffer = along.fn === 'along' ? along.bufferM : 0;
    const { candidates, references } = await retrieve(database.db, question);
    const street = JSON.stringify(references[0]!.geometry);
    // A margin of 1 m either way: the service measures in a planar frame, this query on the sphere.
    const { rows } = await sql<{ id: number }>`
      SELECT id FROM places
      WHERE name IS NOT NULL AND tags->>'amenity' = 'restaurant'
        AND ST_DWithin(geog, ST_SetSRID(ST_GeomFromGeoJSON(${street}), 4326)::geography, ${buffer - 1}, false)`.execute(database.db);
    expect(rows.length).toBeGreaterThan(10);
    const found = new Set(candidates.filter((c) => c.satisfied[0] && c.tagMatch).map((c) => c.id));
    for (const r of rows) expect(found.has(Number(r.id)), `restaurant ${r.id} within ${buffer} m of the street`).toBe(true);
  });
});
if (!hasNycData) console.warn(NO_NYC_DATA);
