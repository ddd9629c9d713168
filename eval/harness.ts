import type { Db, DatabaseMode } from '../src/db/database.ts';
import type { Embedder } from '../src/embedding/embedder.ts';
import { createApp } from '../src/http/app.ts';
import { createLogger } from '../src/log.ts';
import { ask } from '../src/ask/ask.ts';
import { ORACLE, oraclePlan } from './oracle-plan.ts';
import { answersByMethod } from './spatial-methods.ts';
import { scoreQuestion, type QuestionOutcome, type SpatialQaItem } from './spatial.ts';

export const PIPELINE = 'Spatial-RAG (HTTP)';

/**
 * Scores every question for the pipeline (through its real HTTP route, timed), for the pipeline given the
 * oracle plan of the question (planning error removed: what is left is retrieval and ranking), and for each
 * ablation and baseline (same plan, references and candidate pool; not timed).
 */
export async function runSpatialEval(
  db: Db,
  embedder: Embedder,
  mode: DatabaseMode,
  items: SpatialQaItem[],
  planner: 'offline' | 'llm' = 'offline',
  pipelineOnly = false,
): Promise<Record<string, QuestionOutcome[]>> {
  const app = createApp({ db, embedder, mode, log: createLogger('silent'), lifecycle: { draining: false } });
  const byMethod: Record<string, QuestionOutcome[]> = {};
  for (const item of items) {
    const started = performance.now();
    const res = await app.request('/v1/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: item.question, k: 5, planner }),
    });
    const latency = performance.now() - started;
    const body = (await res.json()) as { candidates?: never[] };
    (byMethod[PIPELINE] ??= []).push(scoreQuestion(item, res.status, body.candidates ?? [], latency));
    const oracle = await ask({ db, embedder }, { question: item.question, k: 5, planner: 'offline', rerank: 'rules', plan: oraclePlan(item) });
    (byMethod[ORACLE] ??= []).push(scoreQuestion(item, 200, oracle.candidates as never[], 0));
    if (pipelineOnly) continue;
    for (const [name, candidates] of Object.entries(await answersByMethod(db, embedder, item.question, 5))) {
      (byMethod[name] ??= []).push(scoreQuestion(item, 200, candidates, 0));
    }
  }
  return byMethod;
}
