/**
 * Bidirectional semantic-complementary tool retrieval.
 *
 *   request channel  parse the query into slots, enrich it from the knowledge graph (../request/)
 *   tool channel     capability-text embeddings, lexical index, relation graph (capability.ts, catalog-cache.ts)
 *   recall           pgvector top-100 by cosine  ∪  lexical top-60  ∪  producers of the wanted products
 *                    ∪  the missing prerequisite steps of the likeliest leaders
 *   filter           catalogs; tools that cannot read the data's modality, lack a band on its sensor or
 *                    need a band the user says the data does not have
 *   rerank           final = alpha * similarity + beta * complementarity
 *   diversify        requests of several clauses: the first k cover their parts, not one step (diversify.ts)
 *
 * similarity (0..1) mixes dense cosine, BM25, task-type agreement, output fit (the tool makes the product
 * asked for, exactly or of the asked category), band fit and name coverage. complementarity (-1..1) is
 * what the request context does to a tool: prerequisites the data lacks or may lack (-), inputs the user
 * explicitly has (+), work the data already carries (- : atmospheric correction on L2A), a modality or a
 * temporal shape it cannot use (-), and being the missing step of a better-matching tool (+, ranked right
 * after that tool, never above it). The defaults below are a handful of global weights fitted on the
 * tuning half of the project's own foreign-catalog requests (eval/sets) and checked on the development
 * set; nothing in the scorer looks at particular queries or tool ids (see eval/tools.ts).
 *
 * Lexical evidence is never dropped: BM25's top matches are always in the candidate pool, whatever the
 * dense recall and the knowledge graph propose, and BM25 is the heaviest single signal of similarity.
 * The graph adds candidates (producers of the wanted product, missing steps) and boosts them by task
 * type and output fit, but on a catalog it does not know those signals are guesses read from the same
 * text, so they cannot outweigh what the words say. Chinese words the graph does not list are glossed by
 * CC-CEDICT (../request/facts.ts) for the parsed summary, but their senses are not searched: added to the
 * need's expansions they lowered hit@1 on the paraphrase tuning half's Chinese requests from 0.85 to 0.75
 * (senses of the wrong reading and of grammatical words add noise), and as BM25 terms alone at a tenth or
 * a fifth of a typed word's weight they changed nothing there. Words no lexicon lists may be read by
 * word vectors (word-sense.ts), which is switched off by default because it measured no better.
 */
import type { Db } from '../../db/database.ts';
import type { Embedder } from '../../embedding/embedder.ts';
import { applyMemoryPriors } from '../../memory/priors.ts';
import { catalogSnapshot } from '../catalog-cache.ts';
import type { RequestContext } from '../prerequisites.ts';
import { parseToolRequest, splitClauses } from '../request/index.ts';
import type { ToolRecord } from '../schema.ts';
import { composeWorkflow, type Workflow } from '../workflow.ts';
import { conceptChain, multiStep } from './chain.ts';
import { DIVERSITY, diversify } from './diversify.ts';
import { clarificationFor, summarise, toHit } from './explain.ts';
import { applyToolOrder, rerankToolsWithModel, TOOL_RERANK_CANDIDATES, toolRerankInput, type ToolReranker, type ToolRerankInfo } from './llm-rerank.ts';
import { needOf } from './need.ts';
import { rankForNeed, weightsOf } from './rank.ts';
import type { PlanResult, RankOptions, ToolHit, ToolSearchRequest, ToolSearchResponse } from './types.ts';

export type { Clarification, Need, ParsedSummary, PlanResult, Scored, ScoringWeights, ToolHit, ToolSearchRequest, ToolSearchResponse } from './types.ts';
export { placeSteps } from './chain.ts';
export { createToolReranker, type ToolReranker } from './llm-rerank.ts';
export { summarise } from './explain.ts';
export { needOf } from './need.ts';
export { DEFAULT_WEIGHTS, DENSE_RECALL, OFFLINE_TOOL_FALLBACK, rankForNeed } from './rank.ts';

const BEST_MATCH = 'best match for the request';

/**
 * Runs the request: ranking (per sub-task for multi-step requests), explanations and the workflow. A request
 * of one step lists `pool` tools when that is more than k (the candidates a model orders); one of several
 * steps always k, since each step is given its place within the first k.
 */
export async function runToolSearch(db: Db, embedder: Embedder, request: ToolSearchRequest, pool = 0): Promise<PlanResult> {
  const k = request.k ?? 10;
  const weights = weightsOf(request.weights);
  const parsed = parseToolRequest(request.query, request.context ?? {});
  const snapshot = await catalogSnapshot(db);
  const options: RankOptions = { catalogs: request.catalogs, weights, context: parsed.context };

  if (parsed.subTasks.length >= 2) {
    const result = await multiStep(db, embedder, snapshot, parsed, options, k);
    return { ...result, ...(options.degraded ? { degraded: [options.degraded] } : {}) };
  }

  const need = needOf(parsed, snapshot.lexical);
  const ranked = await rankForNeed(db, embedder, snapshot, need, options);
  const memory = request.memory === false ? {} : await applyMemoryPriors(db, parsed, ranked);
  // A request of one clause asks for one thing: its list keeps the alternatives for it.
  const strength = splitClauses(parsed.query).length >= 2 ? DIVERSITY : 0;
  const listed = Math.max(k, pool);
  const tools = diversify(ranked, (s) => s, listed, strength).slice(0, listed).map((s) => toHit(s, parsed, snapshot, need));
  const clarification = clarificationFor(parsed, ranked);
  let workflow: Workflow | undefined;
  const main = ranked[0];
  if (main && !clarification) {
    const remembered = memory.chain?.toolIds.map((id) => snapshot.lookup(id)).filter((t): t is ToolRecord => !!t);
    const chain = (remembered?.length ? remembered : undefined) ?? conceptChain(parsed, snapshot, main.tool) ?? [main.tool];
    const relevance = new Map(ranked.map((s) => [s.tool.id, s.similarity]));
    workflow = composeWorkflow(
      { steps: chain.map((t) => ({ tool: t, why: t.id === main.tool.id ? BEST_MATCH : remembered?.length ? `step of ${memory.chain!.why}` : `typical step of this task` })), context: parsed.context },
      snapshot,
      { candidates: ranked.slice(0, 8).map((s) => s.tool), relevance },
    );
    if (workflow.steps.length < 2) workflow = undefined;
  }
  return {
    tools,
    parsed,
    ...(workflow ? { workflow } : {}),
    ...(clarification ? { clarification } : {}),
    ...(memory.used ? { memory: memory.used } : {}),
    ...(options.degraded ? { degraded: [options.degraded] } : {}),
  };
}

/** POST /v1/tools/search; with a language model configured (`reranker`), it orders the first candidates. */
export async function searchTools(db: Db, embedder: Embedder, request: ToolSearchRequest, reranker?: ToolReranker): Promise<ToolSearchResponse> {
  const choice = request.rerank ?? 'auto';
  const k = request.k ?? 10;
  const modelReranks = choice !== 'rules' && reranker !== undefined;
  const result = await runToolSearch(db, embedder, request, modelReranks ? TOOL_RERANK_CANDIDATES : 0);
  let tools = result.tools;
  let rerank: ToolRerankInfo = choice === 'llm' && !reranker ? { by: 'rules', fallbackReason: 'no language model is configured (LLM_BASE_URL)' } : { by: 'rules' };
  let workflow = result.workflow;
  if (modelReranks) {
    ({ tools, rerank } = await rerankHits(db, reranker, request.query, result));
    if (workflow && rerank.by === 'llm') workflow = ruleMainStep(workflow, tools[0]?.id);
  }
  return {
    tools: tools.slice(0, k),
    parsed: summarise(result.parsed),
    rerank,
    ...(workflow ? { workflow } : {}),
    ...(result.clarification ? { clarification: result.clarification } : {}),
    ...(result.memory ? { memory: result.memory } : {}),
    ...(result.degraded ? { degraded: result.degraded } : {}),
  };
}

/** The workflow is composed around the rule ranking's best tool: when the model put another first, its step says so. */
function ruleMainStep(workflow: Workflow, first: string | undefined): Workflow {
  return { ...workflow, steps: workflow.steps.map((s) => (s.why === BEST_MATCH && s.toolId !== first ? { ...s, why: 'best match of the rule ranking' } : s)) };
}

async function rerankHits(db: Db, reranker: ToolReranker, query: string, result: PlanResult): Promise<{ tools: ToolHit[]; rerank: ToolRerankInfo }> {
  const rules = (fallbackReason: string) => ({ tools: result.tools, rerank: { by: 'rules' as const, model: reranker.model, fallbackReason } });
  // Each step of a multi-step request has its best tools placed in the list; one order over all would lose steps.
  if (result.parsed.subTasks.length >= 2) return rules('the request has several steps: each keeps its best tools');
  if (result.tools.length < 2) return rules('fewer than two tools: nothing to order');
  const snapshot = await catalogSnapshot(db);
  const descriptions = new Map(result.tools.map((h) => [h.id, snapshot.lookup(h.id)?.description ?? '']));
  const checked = await rerankToolsWithModel(reranker, toolRerankInput(query, result.tools, descriptions));
  if (!checked.ok) return rules(checked.problem);
  return { tools: applyToolOrder(result.tools, checked), rerank: { by: 'llm', model: reranker.model } };
}

/** POST /v1/workflows/plan: the chain for a request (the search runs underneath to pick the tools). */
export async function planWorkflow(db: Db, embedder: Embedder, request: { query: string; context?: RequestContext; catalogs?: string[] }) {
  const result = await runToolSearch(db, embedder, { ...request, k: 10 });
  const main = result.tools[0];
  const workflow: Workflow = result.workflow ?? (main ? { steps: [{ toolId: main.id, why: BEST_MATCH }], valid: main.missingPrerequisites.length === 0 } : { steps: [], valid: false, problems: ['no tool matches the request'] });
  return {
    workflow,
    parsed: summarise(result.parsed),
    tools: result.tools.slice(0, 5),
    ...(result.clarification ? { clarification: result.clarification } : {}),
    ...(result.degraded ? { degraded: result.degraded } : {}),
  };
}
