import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CallBudget, createLlm, LlmCallError } from '../../../src/llm/model.ts';
import { startLlmStub } from '../../helpers/llm-stub.ts';

const Reply = z.object({ answer: z.number() });
const SECRET = 'the user typed: my flat is at 12 Example Street';

describe('the LangChain layer against the local stub', () => {
  let stub: Awaited<ReturnType<typeof startLlmStub>>;
  const lines: Record<string, unknown>[] = [];
  let call: ReturnType<ReturnType<typeof createLlm>['structured']>;
  beforeAll(async () => {
    stub = await startLlmStub([]);
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), done()) });
    const llm = createLlm({ baseURL: stub.baseURL, model: 'stub-model', timeoutMs: 800, log: pino({ level: 'info' }, sink) });
    call = llm.structured('rerank', Reply, 'Reply with {"answer": <number>}.');
  });
  afterAll(async () => stub?.close());

  const failure = async (promise: Promise<unknown>) => {
    const error = await promise.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(LlmCallError);
    return error as LlmCallError;
  };

  it('returns the zod-parsed reply and sends the token limit, JSON mode and the user text only as the user message', async () => {
    stub.script.push({ kind: 'content', content: '```json\n{"answer": 42}\n```' });
    expect(await call(SECRET)).toEqual({ answer: 42 });
    const sent = stub.requests.at(-1)!;
    expect(sent).toMatchObject({ model: 'stub-model', max_tokens: 1200, response_format: { type: 'json_object' } });
    expect(sent.messages).toEqual([
      { role: 'system', content: 'Reply with {"answer": <number>}.' },
      { role: 'user', content: SECRET },
    ]);
  });

  it('says whether a bad reply was not JSON or where it broke the schema, without retrying it', async () => {
    const before = stub.requests.length;
    stub.script.push({ kind: 'content', content: 'forty-two' });
    expect((await failure(call('q', { retries: 1 }))).failure).toBe('not-json');
    stub.script.push({ kind: 'content', content: '{"answer": "many"}' });
    expect((await failure(call('q', { retries: 1 }))).message).toMatch(/invalid at answer/);
    expect(stub.requests.length - before).toBe(2);
  });

  it('retries a 500 or a timeout as allowed, every attempt taken from the budget', async () => {
    stub.script.push({ kind: 'status', status: 500 }, { kind: 'content', content: '{"answer": 1}' });
    const budget = new CallBudget(2);
    expect(await call('q', { retries: 1, budget })).toEqual({ answer: 1 });
    expect(budget.used).toBe(2);

    stub.script.push({ kind: 'hang' }, { kind: 'hang' });
    const spent = new CallBudget(2);
    const error = await failure(call('q', { retries: 5, budget: spent }));
    expect(error.failure).toBe('timeout');
    expect(spent.used).toBe(2); // the budget, not the retries, stopped it
    expect((await failure(call('q', { budget: spent }))).failure).toBe('budget');
  });

  it('logs each attempt at info with purpose, model, outcome and time, never the user text', () => {
    const calls = lines.filter((l) => l.msg === 'llm call');
    expect(calls.length).toBeGreaterThanOrEqual(6);
    expect(new Set(calls.map((l) => l.outcome))).toEqual(new Set(['ok', 'not-json', 'schema', 'http', 'timeout']));
    for (const l of calls) expect(l).toMatchObject({ llm: 'rerank', model: 'stub-model', attempt: expect.any(Number), ms: expect.any(Number) });
    expect(JSON.stringify(lines)).not.toContain('Example Street');
  });
});
