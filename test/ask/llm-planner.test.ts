import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planOffline } from '../../src/planning/offline-planner.ts';
import { testMode } from '../helpers/database.ts';
import { hasNycData, NO_NYC_DATA } from '../helpers/data.ts';
import { startLlmStub } from '../helpers/llm-stub.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

const QUESTION = 'Show me cafés within 200 m of Herald Square';

// The LLM path against a local OpenAI-compatible stub: the real LangChain client, parsing and timeouts.
describe.skipIf(!hasNycData)(`LLM planner through /v1/ask (${testMode} mode)`, () => {
  let stub: Awaited<ReturnType<typeof startLlmStub>>;
  let service: TestService;
  beforeAll(async () => {
    stub = await startLlmStub([]);
    service = await startTestService(
      { LLM_BASE_URL: stub.baseURL, LLM_MODEL: 'stub-model', LLM_TIMEOUT_MS: '1500' },
      { fixture: 'nyc' },
    );
  });
  afterAll(async () => {
    await service?.stop();
    await stub?.close();
  });

  async function ask(question = QUESTION) {
    const res = await fetch(`${service.url}/v1/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // The rule trade-off: this file is about the planner's call (test/ask/llm-rerank.test.ts covers the reranker's).
      body: JSON.stringify({ question, k: 3, rerank: 'rules' }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as {
      planner: string;
      plannerFallback?: string;
      llmCalls: number;
      plan: { constraints: { fn: string; distanceM?: number }[] };
      candidates: { name: string }[];
    };
  }

  it('uses a valid plan from the model, in one call', async () => {
    const plan = planOffline(QUESTION);
    plan.constraints = [{ fn: 'within_distance', ref: 'r1', distanceM: 150 }];
    stub.script.push({ kind: 'content', content: JSON.stringify(plan) });
    const before = stub.requests.length;
    const body = await ask();
    expect(body.planner).toBe('llm');
    expect(body.plannerFallback).toBeUndefined();
    expect(body.plan.constraints[0]!.distanceM).toBe(150); // the model's plan, not the offline one
    expect(body.llmCalls).toBe(1);
    expect(stub.requests.length - before).toBe(1);
    expect(body.candidates.length).toBeGreaterThan(0);
  });

  it.each([
    ['invalid JSON', { kind: 'content' as const, content: 'Sure! Here is your plan: {not json' }, /JSON/],
    [
      'a schema-violating plan',
      { kind: 'content' as const, content: JSON.stringify({ ...planOffline(QUESTION), constraints: [{ fn: 'drop_table', ref: 'r1' }] }) },
      /invalid at constraints/,
    ],
    ['an HTTP 500', { kind: 'status' as const, status: 500 }, /failed/],
    ['a hanging server (timeout)', { kind: 'hang' as const }, /failed/],
  ])('falls back to the offline planner on %s and says so', async (_label, reply, reason) => {
    // One retry is allowed for transport failures: script the failure twice.
    stub.script.push(reply, reply);
    const started = performance.now();
    const body = await ask();
    expect(performance.now() - started).toBeLessThan(8_000); // bounded by LLM_TIMEOUT_MS and one retry
    expect(body.planner).toBe('offline');
    expect(body.plannerFallback).toMatch(reason);
    expect(body.llmCalls).toBeLessThanOrEqual(2);
    expect(body.candidates.length).toBeGreaterThan(0); // still a correct answer
    stub.script.length = 0;
  });
});

if (!hasNycData) console.warn(NO_NYC_DATA);
