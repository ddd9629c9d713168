import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINE, runSpatialEval } from '../../eval/harness.ts';
import { ORACLE, oraclePlan } from '../../eval/oracle-plan.ts';
import { namesMatch, scoreQuestion, summarize, summaryLine, type SpatialQaItem } from '../../eval/spatial.ts';
import { createOfflineEmbedderWithLexicons } from '../../src/embedding/configured.ts';
import { openTestDatabase, testMode, type TestDatabase } from '../helpers/database.ts';
import { hasNycData, NO_NYC_DATA } from '../helpers/data.ts';

// 1 degree of longitude at 40.75°N is about 84,330 m; of latitude about 111,000 m.
const R: [number, number] = [-73.98, 40.75];
const east = (m: number): [number, number] => [R[0] + m / 84_330, R[1]];
const north = (m: number): [number, number] => [R[0], R[1] + m / 111_000];
const item = (over: Partial<SpatialQaItem> = {}): SpatialQaItem => ({
  id: 'case',
  question: 'cafes within 100 m',
  lang: 'en',
  type: 'within',
  reference: { names: ['R'], geometry: { type: 'Point', coordinates: R } },
  spatial: { relation: 'within_distance', distance_m: 100, k: null },
  gold: [
    { name: 'Cafe A', lon: east(50)[0], lat: east(50)[1], osm_id: 'node/1' },
    { name: 'Cafe B', lon: north(90)[0], lat: north(90)[1], osm_id: 'node/2' },
  ],
  semantic_ok: [{ name: 'Cafe C', lon: east(300)[0], lat: east(300)[1], osm_id: 'node/3' }],
  ...over,
});
const point = (name: string, at: [number, number]) => ({ name, geometry: { type: 'Point', coordinates: at } });

describe('spatial QA metric arithmetic (hand-computed)', () => {
  it('scores a semantic-only top-1 with one gold hit in three', () => {
    const outcome = scoreQuestion(item(), 200, [point('Cafe C', east(300)), point('Café A', east(55)), point('Other', east(10))], 12);
    // top-1 is 300 m away > 100 × 1.1 + 15 = 125 m; it is in semantic_ok; gold hits: A only.
    expect(outcome).toMatchObject({ delivered: true, spatial: false, semantic: true, precisionAt5: 1 / 3, recallAt5: 1 / 2 });
  });

  it('counts a gold item once even when two candidates match it, and respects the 60 m match radius', () => {
    const outcome = scoreQuestion(item(), 200, [point('Cafe A', east(50)), point('Cafe A', east(52)), point('Cafe B', north(200))], 5);
    // top-1 within 125 m and in gold; second "Cafe A" matches the same gold item; "Cafe B" 110 m from its gold point.
    expect(outcome).toMatchObject({ spatial: true, semantic: true, precisionAt5: 1 / 3, recallAt5: 1 / 2 });
  });

  it('scores nothing for a failed or empty answer, and averages over questions', () => {
    const failed = scoreQuestion(item(), 500, [], 7);
    expect(failed).toMatchObject({ delivered: false, spatial: false, semantic: false, precisionAt5: 0 });
    const good = scoreQuestion(item(), 200, [point('Cafe A', east(50)), point('Cafe B', north(90))], 9);
    const summary = summarize([failed, good]);
    expect(summary).toMatchObject({ n: 2, delivery: 0.5, spatial: 0.5, semantic: 0.5, both: 0.5, precisionAt5: 0.5, recallAt5: 0.5, latencyMs: 8 });
    expect(summaryLine(summary)).toBe('spatial-qa: delivery=50.0% spatial=50.0% semantic=50.0% both=50.0% p@5=0.500 n=2');
  });

  it('matches names as the README says (normalised, containment of 3+ characters)', () => {
    expect(namesMatch('Café Grumpy', 'cafe grumpy')).toBe(true);
    expect(namesMatch('Duane Reade', 'Duane Reade express')).toBe(true);
    expect(namesMatch('AB', 'ABC Kitchen')).toBe(false);
    expect(namesMatch('Barnes & Noble', 'Barnes and Noble')).toBe(true);
  });
});

const DEV_SET = '../shared/eval/spatial-qa.dev.jsonl';
describe('oracle plans from gold fields', () => {
  it('takes a point reference as coordinates, with the gold function, distance and tags', () => {
    const plan = oraclePlan({ ...item(), semantic: { description: 'coffee', tags: [['amenity', ['cafe']]] } });
    expect(plan.references).toEqual([{ id: 'r1', text: 'R', kind: 'coordinates', point: { lon: R[0], lat: R[1] } }]);
    expect(plan.constraints).toEqual([{ fn: 'within_distance', ref: 'r1', distanceM: 100 }]);
    expect(plan.targets.tags).toEqual([['amenity', ['cafe']]]);
    expect(plan.semantic.text).toBe('coffee');
  });

  it('takes a line between two named places as a route between its ends, and areas and streets by name and kind', () => {
    const line = { type: 'LineString', coordinates: [R, east(400), north(300)] };
    const route = oraclePlan(item({ reference: { names: ['Start', 'End'], geometry: line }, spatial: { relation: 'along', distance_m: 150, k: null } }));
    expect(route.route).toEqual({ from: 'r1', to: 'r2' });
    expect(route.references.map((r) => r.point)).toEqual([{ lon: R[0], lat: R[1] }, { lon: north(300)[0], lat: north(300)[1] }]);
    expect(route.constraints).toEqual([{ fn: 'along', ref: 'route', bufferM: 150 }]);
    const area = oraclePlan(item({ reference: { names: ['Some Park'], geometry: { type: 'MultiPolygon', coordinates: [] } }, spatial: { relation: 'inside', distance_m: null, k: null } }));
    expect(area.references[0]).toEqual({ id: 'r1', text: 'Some Park', kind: 'area' });
    expect(area.constraints).toEqual([{ fn: 'inside', ref: 'r1' }]);
    const nearest = oraclePlan(item({ spatial: { relation: 'nearest', distance_m: null, k: 2 } }));
    expect(nearest.constraints).toEqual([{ fn: 'nearest', ref: 'r1', k: 2 }]);
    expect(nearest.preference).toBe('nearest');
  });
});

describe.skipIf(!hasNycData || !existsSync(DEV_SET))(`the harness on a 5-question subset (${testMode} mode)`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('nyc');
  });
  afterAll(async () => database?.dispose());

  it('scores the pipeline, its ablations and the baselines on the same questions', async () => {
    const items = readFileSync(DEV_SET, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SpatialQaItem);
    const subset = [0, 8, 16, 24, 32].map((i) => items[i]!); // one of each question type
    const byMethod = await runSpatialEval(database.db, createOfflineEmbedderWithLexicons(), database.mode, subset);
    expect(Object.keys(byMethod)).toEqual(expect.arrayContaining([PIPELINE, 'spatial-rag', 'without semantic', 'naive RAG (vector search, no spatial SQL)']));
    for (const outcomes of Object.values(byMethod)) {
      expect(outcomes.map((o) => o.id)).toEqual(subset.map((s) => s.id));
      const s = summarize(outcomes);
      for (const v of [s.delivery, s.spatial, s.semantic, s.both, s.precisionAt5]) expect(v).toBeGreaterThanOrEqual(0);
      expect(s.both).toBeLessThanOrEqual(Math.min(s.spatial, s.semantic));
    }
    expect(summarize(byMethod[PIPELINE]!).delivery).toBe(1);
    // The oracle-plan row: the same pipeline given each question's plan from its gold fields.
    expect(summarize(byMethod[ORACLE]!).delivery).toBe(1);
    expect(summarize(byMethod[ORACLE]!).spatial).toBe(1);
  });
});

if (!hasNycData) console.warn(NO_NYC_DATA);
