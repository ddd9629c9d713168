/**
 * The one way this service calls a language model: LangChain's `ChatOpenAI` (any OpenAI-compatible endpoint:
 * Ollama, vLLM, llama.cpp server, OpenAI) with `withStructuredOutput` and a zod schema per purpose. Timeouts,
 * retries, token limits, the per-question call budget and the log line of every call are decided here, so the
 * planner, the reranker and the SOP writer cannot drift apart. Logs carry the purpose, model, attempt, time
 * and outcome, never the question or the reply (they may hold what the user typed).
 */
import { ChatOpenAI } from '@langchain/openai';
import type { z } from 'zod';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';

/** An OpenAI-compatible chat endpoint (LLM_BASE_URL, LLM_MODEL, LLM_API_KEY, LLM_TIMEOUT_MS). */
export interface LlmOptions {
  baseURL: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  log?: Logger;
}

/** What a call is for: names it in the logs and bounds its reply. */
export type LlmPurpose = 'plan' | 'rerank' | 'tool-rerank' | 'sop';

/** Largest reply per purpose, in tokens: a plan of 20 constraints, 12 or 15 one-line reasons, a 15-line procedure. */
export const MAX_REPLY_TOKENS: Record<LlmPurpose, number> = { plan: 2000, rerank: 1200, 'tool-rerank': 1500, sop: 1000 };

export type LlmFailure = 'http' | 'timeout' | 'transport' | 'not-json' | 'schema' | 'budget';

export class LlmCallError extends Error {
  override name = 'LlmCallError';
  constructor(
    readonly failure: LlmFailure,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The model calls one question may still make (plan + rerank: 2). Every attempt, retries included, takes
 * one, so `used` is what the response reports as `llmCalls` and what the endpoint actually received.
 */
export class CallBudget {
  used = 0;
  constructor(readonly limit: number) {}
  get left(): number {
    return this.limit - this.used;
  }
  take(): boolean {
    if (this.used >= this.limit) return false;
    this.used++;
    return true;
  }
}

export interface CallOptions {
  /** Attempts beyond the first after a transport failure, HTTP 429/5xx or timeout (never after a bad reply). */
  retries?: number;
  budget?: CallBudget;
}

/** One structured call: the system prompt is fixed per purpose, the user content is the data of this call. */
export type StructuredCall<T> = (user: string, options?: CallOptions) => Promise<T>;

export interface Llm {
  readonly model: string;
  structured<S extends z.ZodType>(purpose: LlmPurpose, schema: S, system: string): StructuredCall<z.output<S>>;
}

/** The configured model (LLM_BASE_URL and LLM_MODEL), or undefined when the service runs without one. */
export function llmFromConfig(config: Config, log?: Logger): Llm | undefined {
  if (!config.LLM_BASE_URL || !config.LLM_MODEL) return undefined;
  return createLlm({
    baseURL: config.LLM_BASE_URL,
    model: config.LLM_MODEL,
    ...(config.LLM_API_KEY ? { apiKey: config.LLM_API_KEY } : {}),
    timeoutMs: config.LLM_TIMEOUT_MS,
    ...(log ? { log } : {}),
  });
}

export function createLlm(options: LlmOptions): Llm {
  return {
    model: options.model,
    structured(purpose, schema, system) {
      const chat = new ChatOpenAI({
        model: options.model,
        apiKey: options.apiKey ?? 'not-needed',
        configuration: { baseURL: options.baseURL },
        timeout: options.timeoutMs,
        // LangChain would retry 6 times, multiplying the timeout: retries are counted against the budget below.
        maxRetries: 0,
        maxTokens: MAX_REPLY_TOKENS[purpose],
        temperature: 0,
      });
      // JSON mode: servers without json_schema support (older Ollama, llama.cpp) still honour it; the
      // schema is in the system prompt and LangChain's parser validates the reply with the zod schema.
      const runnable = chat.withStructuredOutput(schema, { method: 'jsonMode', includeRaw: true, name: purpose });
      return async (user, callOptions = {}) => {
        const retries = callOptions.retries ?? 0;
        for (let attempt = 1; ; attempt++) {
          if (callOptions.budget && !callOptions.budget.take()) {
            throw new LlmCallError('budget', `no model call left for this question (at most ${callOptions.budget.limit})`);
          }
          const started = performance.now();
          const logCall = (outcome: string) =>
            options.log?.info({ llm: purpose, model: options.model, attempt, ms: Math.round(performance.now() - started), outcome }, 'llm call');
          let result: { raw: { content: unknown }; parsed: unknown };
          try {
            result = (await runnable.invoke([
              { role: 'system', content: system },
              { role: 'user', content: user },
            ])) as typeof result;
          } catch (error) {
            const failure = transportFailure(error, options.timeoutMs);
            logCall(failure.failure);
            const budgetLeft = !callOptions.budget || callOptions.budget.left > 0;
            if (attempt <= retries && budgetLeft && retryable(error)) continue;
            throw failure;
          }
          if (result.parsed !== null && result.parsed !== undefined) {
            logCall('ok');
            return result.parsed as z.output<typeof schema>;
          }
          const failure = replyFailure(result.raw.content, schema);
          logCall(failure.failure);
          options.log?.debug({ llm: purpose, replyChars: String(result.raw.content ?? '').length }, 'llm reply refused');
          throw failure;
        }
      };
    },
  };
}

function retryable(error: unknown): boolean {
  const status = (error as { status?: unknown }).status;
  return typeof status !== 'number' || status === 429 || status >= 500;
}

function transportFailure(error: unknown, timeoutMs: number): LlmCallError {
  const status = (error as { status?: unknown }).status;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof status === 'number') return new LlmCallError('http', `the language model call failed: HTTP ${status}`);
  if (/timed? ?out|abort/i.test(message) || /Timeout|Abort/.test((error as Error)?.name ?? '')) {
    return new LlmCallError('timeout', `the language model call failed: no reply within ${timeoutMs} ms`);
  }
  return new LlmCallError('transport', `the language model call failed: ${message.slice(0, 200)}`);
}

/** Why LangChain's parser refused a reply: not JSON at all, or JSON that does not fit the schema (where). */
function replyFailure(content: unknown, schema: z.ZodType): LlmCallError {
  const text = typeof content === 'string' ? content : JSON.stringify(content ?? '');
  // LangChain drops the OpenAI `refusal` field: a refusal arrives as an empty content.
  if (text.trim() === '') return new LlmCallError('not-json', 'the language model did not reply with JSON (an empty reply or a refusal)');
  let json: unknown;
  try {
    json = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return new LlmCallError('not-json', 'the language model did not reply with JSON');
  }
  const parsed = schema.safeParse(json);
  const issue = parsed.success ? undefined : parsed.error.issues[0];
  const where = issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : '(root)';
  return new LlmCallError('schema', `the language model's reply is invalid at ${where}`);
}
