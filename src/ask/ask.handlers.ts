import type { Db } from '../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import type { AppRouteHandler } from '../http/openapi-app.ts';
import type { Logger } from '../log.ts';
import type { LlmPlanner } from '../planning/llm-planner.ts';
import type { LlmReranker } from '../ranking/llm-rerank.ts';
import { asksForProcessing } from '../tools/request/index.ts';
import { searchTools } from '../tools/search/index.ts';
import { ask } from './ask.ts';
import type { askRoute } from './ask.routes.ts';

/** Tools beside an answer: a few, like the first screen of /v1/tools/search. */
const ANSWER_TOOLS = 3;

export interface AskRouteDeps {
  db: Db;
  embedder: Embedder;
  llm?: LlmPlanner | undefined;
  reranker?: LlmReranker | undefined;
  log?: Logger;
}

export function askHandler(deps: AskRouteDeps): AppRouteHandler<typeof askRoute> {
  return async (c) => {
    const body = c.req.valid('json');
    const question = body.question.trim();
    const [result, tools] = await Promise.all([
      ask(deps, { question, k: body.k, near: body.near, planner: body.planner, rerank: body.rerank }),
      recommendTools(deps, question),
    ]);
    return c.json({ ...result, ...tools }, 200);
  };
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
