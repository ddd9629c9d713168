import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineEmbedderWithLexicons } from '../../src/embedding/configured.ts';
import { loadBuiltinTools } from '../../src/tools/registry.ts';
import { testMode } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

interface Hit { id: string; score: number; why: string }
interface SearchBody {
  tools: Hit[];
  workflow?: { steps: { toolId: string }[] };
  memory?: { workflows: number[] };
}

/** A SAR flood chain, accepted five times for requests that say "flood". */
const CHAIN = ['sar_calibration', 'sar_speckle_filter', 'sar_terrain_correction', 'flood_mapping'];
const RUNS = [
  'map the flood extent from the Sentinel-1 scenes',
  'flood mapping with radar after the heavy rain',
  'where did the river flood, from SAR images',
  'delineate the flooded area in the radar acquisition',
  'flood extent of the delta from Sentinel-1',
].map((request, i) => ({ request, steps: CHAIN.map((toolId) => ({ toolId, outcome: 'success' })), outcome: 'success', answer: 'flood extent map', client: `client-${i}` }));

/** The same need in other words: no "flood", and everyday words for it that no lexicon lists. */
const REWORDED = 'which lowland hamlets were swamped when the levee burst? I have the radar scenes';
/** A request the runs say nothing about. */
const UNRELATED = 'estimate slope and aspect from the elevation model';

describe(`workflow memory for a request in other words (${testMode} mode)`, () => {
  let service: TestService;
  const post = async <T>(path: string, body: unknown): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as T };
  };
  const search = async (query: string) => (await post<SearchBody>('/v1/tools/search', { query, k: 10 })).body;
  const rankOf = (body: SearchBody, id: string) => {
    const i = body.tools.findIndex((t) => t.id === id);
    return i < 0 ? Infinity : i;
  };

  beforeAll(async () => {
    service = await startTestService();
    await loadBuiltinTools(service.database.db, createOfflineEmbedderWithLexicons());
  });
  afterAll(async () => service?.stop());

  it('lifts the remembered chain for the reworded request, names the memory, and leaves an unrelated request alone', async () => {
    const before = await search(REWORDED);
    const unrelatedBefore = (await search(UNRELATED)).tools.map((t) => `${t.id}:${t.score}`);
    expect(before.memory).toBeUndefined();
    for (const run of RUNS) {
      const res = await post<{ status: string }>('/v1/runs', run);
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('accepted');
    }
    const after = await search(REWORDED);
    expect(after.memory?.workflows.length).toBeGreaterThan(0);
    // The chain's main step ranks higher than before (or first), and its why names the remembered workflow.
    const main = 'flood_mapping';
    expect(rankOf(after, main)).toBeLessThanOrEqual(rankOf(before, main));
    expect(after.tools.find((t) => t.score > (before.tools.find((b) => b.id === t.id)?.score ?? Infinity))).toBeDefined();
    const hit = after.tools.find((t) => t.id === main)!;
    expect(hit.why).toMatch(/memory workflow \d+/);
    const sequence = after.workflow?.steps.map((s) => s.toolId) ?? [];
    const chainRanks = CHAIN.map((id) => rankOf(after, id));
    expect(sequence.join() === CHAIN.join() || chainRanks.every((r) => r < 10)).toBe(true);

    expect((await search(UNRELATED)).tools.map((t) => `${t.id}:${t.score}`)).toEqual(unrelatedBefore);
    expect((await search(UNRELATED)).memory).toBeUndefined();
  });
});
