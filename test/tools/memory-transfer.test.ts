import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineEmbedderWithLexicons } from '../../src/embedding/configured.ts';
import { lexicalTerms } from '../../src/tools/lexical.ts';
import { loadBuiltinTools } from '../../src/tools/registry.ts';
import { testMode } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

interface Hit { id: string; score: number; why: string }
interface SearchBody {
  tools: Hit[];
  workflow?: { steps: { toolId: string }[] };
  memory?: { workflows: number[] };
  parsed: { taskType?: string };
}

/** A SAR flood chain, accepted five times for requests that say "flood". */
const CHAIN = ['sar_calibration', 'sar_speckle_filter', 'sar_terrain_correction', 'flood_mapping'];
/** The runs' task type: the function of the chain's main step. */
const CORE_TYPE = 'hazard_mapping';
const RUNS = [
  'map the flood extent from the Sentinel-1 scenes',
  'flood mapping with radar after the heavy rain',
  'where did the river flood, from SAR images',
  'delineate the flooded area in the radar acquisition',
  'flood extent of the delta from Sentinel-1',
].map((request, i) => ({ request, steps: CHAIN.map((toolId) => ({ toolId, outcome: 'success' })), outcome: 'success', answer: 'flood extent map', client: `client-${i}` }));

/**
 * The same need in other words: no word of the runs' requests (checked below), and everyday words for it
 * that no lexicon lists, so the request is not read as the runs' task type. The data source comes from the
 * context, as a client would send it.
 */
const REWORDED = 'which lowland hamlets were swamped when the levee burst?';
const REWORDED_CONTEXT = { dataSource: 'Sentinel-1', processingLevel: 'GRD' };
/** A request the runs say nothing about. */
const UNRELATED = 'estimate slope and aspect from the elevation model';

describe(`workflow memory for a request in other words (${testMode} mode)`, () => {
  let service: TestService;
  const post = async <T>(path: string, body: unknown): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as T };
  };
  const search = async (query: string, context?: object) => (await post<SearchBody>('/v1/tools/search', { query, k: 10, ...(context ? { context } : {}) })).body;
  const rankOf = (body: SearchBody, id: string) => {
    const i = body.tools.findIndex((t) => t.id === id);
    return i < 0 ? Infinity : i;
  };
  const sequenceOf = (body: SearchBody) => body.workflow?.steps.map((s) => s.toolId).join() ?? '';

  beforeAll(async () => {
    service = await startTestService();
    await loadBuiltinTools(service.database.db, createOfflineEmbedderWithLexicons());
  });
  afterAll(async () => service?.stop());

  it('shares no word with the runs and is not read as their task type', async () => {
    const runWords = new Set(RUNS.flatMap((r) => [...lexicalTerms(r.request).keys()]));
    expect([...lexicalTerms(REWORDED).keys()].filter((t) => runWords.has(t))).toEqual([]);
    const before = await search(REWORDED, REWORDED_CONTEXT);
    expect(before.parsed.taskType).not.toBe(CORE_TYPE);
  });

  it('lifts the remembered chain for the reworded request, names the memory, and leaves an unrelated request alone', async () => {
    const before = await search(REWORDED, REWORDED_CONTEXT);
    const unrelatedBefore = (await search(UNRELATED)).tools.map((t) => `${t.id}:${t.score}`);
    expect(before.memory).toBeUndefined();
    // Without the memory the chain is not what the service proposes: there is something to improve.
    const main = CHAIN[CHAIN.length - 1]!;
    expect(rankOf(before, main) > 0 || sequenceOf(before) !== CHAIN.join()).toBe(true);
    for (const run of RUNS) {
      const res = await post<{ status: string }>('/v1/runs', run);
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('accepted');
    }
    const after = await search(REWORDED, REWORDED_CONTEXT);
    const remembered = after.memory?.workflows ?? [];
    expect(remembered.length).toBeGreaterThan(0);
    // The chain's tools rank higher (its main step moves up) or form the workflow, where they did not before.
    const ranksBefore = CHAIN.map((id) => rankOf(before, id));
    const ranksAfter = CHAIN.map((id) => rankOf(after, id));
    const liftedMain = rankOf(after, main) < rankOf(before, main);
    const formsWorkflow = sequenceOf(after) === CHAIN.join() && sequenceOf(before) !== CHAIN.join();
    expect(liftedMain || formsWorkflow).toBe(true);
    expect(ranksAfter.every((r, i) => r <= ranksBefore[i]!)).toBe(true);
    // The why of the main step names the remembered workflow it comes from.
    const hit = after.tools.find((t) => t.id === main)!;
    const named = /memory workflow (\d+)/.exec(hit.why);
    expect(named).not.toBeNull();
    expect(remembered).toContain(Number(named![1]));

    expect((await search(UNRELATED)).tools.map((t) => `${t.id}:${t.score}`)).toEqual(unrelatedBefore);
    expect((await search(UNRELATED)).memory).toBeUndefined();
  });
});
