import { createRoute, z } from '@hono/zod-openapi';
import type { Db } from '../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { createRouter } from '../http/openapi-app.ts';
import type { Logger } from '../log.ts';
import type { LlmPlanner } from '../planning/llm-planner.ts';
import type { LlmReranker } from '../ranking/llm-rerank.ts';
import { asksForProcessing } from '../tools/request/index.ts';
import { searchTools } from '../tools/search/index.ts';
import { ask } from './ask.ts';

/** Tools beside an answer: a few, like the first screen of /v1/tools/search. */
const ANSWER_TOOLS = 3;

export const MAX_QUESTION_CHARS = 1000;

export const askBody = z
  .strictObject({
    question: z
      .string()
      .max(MAX_QUESTION_CHARS)
      .refine((q) => q.trim().length > 0, 'must not be empty')
      .openapi({ example: 'Any bakeries within 300 m of Union Square?' }),
    k: z.number().int().min(1).max(50).default(5),
    near: z.strictObject({ lon: z.number().min(-180).max(180), lat: z.number().min(-90).max(90) }).optional(),
    planner: z.enum(['auto', 'offline', 'llm']).default('auto'),
    rerank: z.enum(['auto', 'rules', 'llm']).default('auto').openapi({
      description: 'who orders the Pareto front: the language model when configured (auto) or asked for (llm), else the rule trade-off',
    }),
  })
  .openapi('AskRequest');

const candidate = z
  .object({
    id: z.number(),
    sourceId: z.string(),
    name: z.string(),
    category: z.string().nullable(),
    geometry: z.any(),
    distanceM: z.number(),
    scores: z.object({ sparse: z.number(), denseSpatial: z.number(), semantic: z.number(), hybrid: z.number() }),
    pareto: z.boolean(),
    why: z.string(),
    rankReason: z.string().optional().openapi({ description: "the language model's one-line reason, when it ordered the answer" }),
  })
  .openapi('AskCandidate');

export const askResponse = z
  .object({
    answer: z.string(),
    candidates: z.array(candidate),
    plan: z.any(),
    planner: z.enum(['offline', 'llm']),
    plannerFallback: z.string().optional(),
    sql: z.string(),
    sqlParameters: z.array(z.any()),
    reference: z.any(),
    clarification: z.any().optional(),
    tools: z.array(z.any()).openapi({
      description: 'EO processing tools that fit the question, best first; empty when it asks for no EO processing',
    }),
    workflow: z.any().optional().openapi({ description: 'the tool chain for a multi-step EO request' }),
    tradeOff: z.any(),
    rerank: z
      .object({ by: z.enum(['llm', 'rules']), model: z.string().optional(), fallbackReason: z.string().optional() })
      .openapi({ description: 'who ordered the answer; fallbackReason says why the model\'s ranking was wanted but not used' }),
    llmCalls: z.number().openapi({ description: 'language model calls made for this question (plan and rerank; at most 2)' }),
    degraded: z
      .array(z.object({ component: z.literal('embeddings'), cause: z.string(), fallback: z.string() }))
      .optional()
      .openapi({ description: 'present when the answer was computed without a failing dependency: which, why, and what was used instead' }),
    timingsMs: z.record(z.string(), z.number()),
  })
  .openapi('AskResponse');

const askRoute = createRoute({
  method: 'post',
  path: '/v1/ask',
  tags: ['ask'],
  summary: 'Answer a geographic question (Spatial-RAG): plan, spatial SQL, sparse + dense scores, Pareto front, answer',
  request: { body: { content: { 'application/json': { schema: askBody } }, required: true } },
  responses: {
    200: { description: 'the answer, its candidates and how they were found', content: { 'application/json': { schema: askResponse } } },
    400: { description: 'invalid request (the field is named)' },
  },
});

export function askRoutes(deps: { db: Db; embedder: Embedder; llm?: LlmPlanner; reranker?: LlmReranker; log?: Logger }) {
  return createRouter().openapi(askRoute, async (c) => {
    const body = c.req.valid('json');
    const question = body.question.trim();
    const [result, tools] = await Promise.all([
      ask(deps, { question, k: body.k, near: body.near, planner: body.planner, rerank: body.rerank }),
      recommendTools(deps, question),
    ]);
    return c.json({ ...result, ...tools }, 200);
  });
}

/**
 * The EO tools (and chain) that fit the question, from the same search as /v1/tools/search. Only when the
 * question asks for EO processing (the request channel reads a task type, e.g. "the greenest parks by NDVI"):
 * a café question gets none rather than the least bad tools. The answer never waits on a failing registry.
 */
async function recommendTools(deps: { db: Db; embedder: Embedder; log?: Logger }, question: string) {
  try {
    // The request's task types alone tell (the search reads them the same way): most questions ask for no
    // EO processing, and a search they do not need cost as much as the rest of the answer under load.
    if (!asksForProcessing(question)) return { tools: [] };
    const found = await searchTools(deps.db, deps.embedder, { query: question, k: ANSWER_TOOLS });
    if (found.parsed.taskTypes.length === 0) return { tools: [] };
    return { tools: found.tools, ...(found.workflow ? { workflow: found.workflow } : {}) };
  } catch (error) {
    deps.log?.warn({ err: error }, 'tool recommendation failed: answering without tools');
    return { tools: [] };
  }
}
