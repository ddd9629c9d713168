import type { z } from '@hono/zod-openapi';
import type { Db } from '../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { offlineSimilarities, queryEmbedderFor, type Degradation } from '../embedding/query-embedding.ts';
import type { Logger } from '../log.ts';
import { hasTargets, type LonLat, type SpatialPlan } from '../planning/plan.ts';
import { brandIndex } from '../spatial/brand-index.ts';
import { planQuestion, type LlmPlanner, type PlannerChoice } from '../planning/planner.ts';
import { CallBudget } from '../llm/model.ts';
import { applyOrder, RERANK_CANDIDATES, rerankInput, rerankWithModel, type LlmReranker, type RerankChoice, type RerankInfo } from '../ranking/llm-rerank.ts';
import { chooseTradeOff, rankCandidates, topAnswers, type RankedCandidate, type RankOptions, type TradeOff } from '../ranking/rank.ts';
import { normalizeName } from '../spatial/names.ts';
import { placesVersion, resolveReferences, type ResolvedReference } from '../spatial/resolve.ts';
import { placeDescriptions, placeDetails, retrieveCandidates, SPATIAL_POOL } from '../spatial/retrieve.ts';
import { composeAnswer, countMatches, explainCandidate } from './answer.ts';
import type { AskCandidateSchema, askResponse, ReferenceCollectionSchema } from './ask.routes.ts';

/** The plan's references as resolved, one GeoJSON feature each (the response's `reference`). */
export type ReferenceCollection = z.infer<typeof ReferenceCollectionSchema>;

export interface AskInput {
  question: string;
  k: number;
  near?: LonLat;
  planner: PlannerChoice;
  /** Who orders the Pareto front: the rule trade-off, or the language model when configured (auto) or asked for. */
  rerank?: RerankChoice;
  /** A plan given instead of planning the question (the evaluation's oracle plans, built from gold fields). */
  plan?: SpatialPlan;
  /** Switch parts of the ranking off (evaluation ablations). */
  rankOptions?: RankOptions;
}

export interface AskDeps {
  db: Db;
  embedder: Embedder;
  llm?: LlmPlanner;
  reranker?: LlmReranker;
  /** Where a degraded answer is reported with its details (the response names only the kind of failure). */
  log?: Logger;
}

/** One answer candidate, as the response schema says (src/ask/ask.routes.ts). */
export type AskCandidate = z.infer<typeof AskCandidateSchema>;

/**
 * The answer, as the response schema says; the route adds the EO tools. `planner: 'given'` only when the caller
 * passed its own plan (the evaluation; the HTTP route always plans).
 */
export type AskResult = Omit<z.infer<typeof askResponse>, 'tools' | 'workflow'>;

/** Said when the dense scores come from the offline embedder instead of the configured service. */
export const OFFLINE_DENSE_FALLBACK =
  'sparse spatial scores as usual; the dense scores compare the question with each candidate\'s description using the offline embedder, computed for this answer';

/** A question costs at most one planning and one reranking call. */
export const MAX_LLM_CALLS = 2;

/** Two features of one place (a shop's node and its building) closer than this count once. */
const DUPLICATE_M = 60;

/**
 * A database read started ahead of the work that needs its result, so that the round trip overlaps that
 * work. Awaited later; should the work fail first, the read's own failure is not left unhandled.
 */
function inFlight<T>(read: Promise<T>): Promise<T> {
  read.catch(() => {});
  return read;
}

function stopwatch() {
  const timings: Record<string, number> = {};
  let last = performance.now();
  const started = last;
  return {
    lap(stage: string) {
      const now = performance.now();
      timings[stage] = Math.round((now - last) * 10) / 10;
      last = now;
    },
    done() {
      timings.total = Math.round((performance.now() - started) * 10) / 10;
      return timings;
    },
  };
}

function referenceCollection(refs: ResolvedReference[]): ReferenceCollection {
  return {
    type: 'FeatureCollection',
    features: refs.map((r) => ({
      type: 'Feature',
      geometry: r.geometry,
      properties: { ref: r.id, text: r.text, name: r.match?.name ?? null, placeId: r.match?.placeId ?? null, shape: r.shape },
    })),
  };
}

/** Drops later candidates that are the same place as an earlier one (same name, within DUPLICATE_M). */
export function dropDuplicates(ranked: RankedCandidate[]): RankedCandidate[] {
  const kept: { c: RankedCandidate; name: string; at: [number, number] }[] = [];
  for (const c of ranked) {
    const name = normalizeName(c.name);
    const at: [number, number] = [(c.bbox[0] + c.bbox[2]) / 2, (c.bbox[1] + c.bbox[3]) / 2];
    const duplicate = kept.some((k) => k.name === name && approxMetres(k.at, at) < DUPLICATE_M);
    if (!duplicate) kept.push({ c, name, at });
  }
  return kept.map((k) => k.c);
}

function approxMetres(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const x = (b[0] - a[0]) * rad * Math.cos(((a[1] + b[1]) / 2) * rad);
  return Math.hypot(x, (b[1] - a[1]) * rad) * 6_371_000;
}

/** The Spatial-RAG pipeline: plan -> resolve -> sparse + dense retrieval -> rank -> answer. */
export async function ask(deps: AskDeps, input: AskInput): Promise<AskResult> {
  const clock = stopwatch();
  const brands = await brandIndex(deps.db);
  // Read now, used by the resolution: the database answers while the planner works.
  const dataVersion = inFlight(placesVersion(deps.db));
  const budget = new CallBudget(MAX_LLM_CALLS);
  const rerankChoice = input.rerank ?? 'auto';
  const modelReranks = rerankChoice !== 'rules' && deps.reranker !== undefined;
  // The planner retries a failed call only when the reranking will not need the second one.
  const planned: { plan: SpatialPlan; planner: AskResult['planner']; fallbackReason?: string } = input.plan
    ? { plan: input.plan, planner: 'given' }
    : await planQuestion(input.question, {
        near: input.near,
        choice: input.planner,
        llm: deps.llm,
        brands,
        budget,
        retries: modelReranks ? 0 : 1,
      });
  const plan = planned.plan;
  clock.lap('plan');

  const base = {
    plan,
    planner: planned.planner,
    ...(planned.fallbackReason ? { plannerFallback: planned.fallbackReason } : {}),
    tradeOff: chooseTradeOff(plan),
    rerank: rulesRerank(rerankChoice, deps.reranker),
  };
  const resolution = await resolveReferences(deps.db, plan, input.near, dataVersion);
  clock.lap('resolve');
  if (!resolution.ok) {
    return {
      ...base,
      llmCalls: budget.used,
      answer: resolution.clarification.question,
      candidates: [],
      sql: '',
      sqlParameters: [],
      reference: referenceCollection([]),
      clarification: resolution.clarification,
      timingsMs: clock.done(),
    };
  }
  const refs = resolution.references;

  const semanticText = plan.semantic.text || plan.targets.text || input.question;
  const spatialText = plan.spatialText || input.question;
  const embedded = await queryEmbedderFor(deps.embedder).embed([semanticText, spatialText]);
  clock.lap('embed');
  const degraded: Degradation[] = [];
  if (!embedded.ok) {
    degraded.push({ component: 'embeddings', cause: embedded.cause, fallback: OFFLINE_DENSE_FALLBACK });
    if (embedded.error) deps.log?.warn({ err: embedded.error }, 'embeddings service failed: answering with offline dense scores');
  }

  const retrieval = await retrieveCandidates(deps.db, {
    plan,
    references: refs,
    ...(embedded.ok ? { semanticVector: embedded.vectors[0]!, spatialVector: embedded.vectors[1]! } : {}),
    embeddingModel: deps.embedder.model,
    // Without the semantic part the ranking keeps untagged candidates too (rank.ts).
    allPools: input.rankOptions?.semantic === false,
  });
  clock.lap('sql');
  if (!embedded.ok) {
    // The stored vectors belong to the configured model: the fallback compares texts with texts, never an
    // offline query vector with a stored one. The pool is bounded (POOL_SIZE), so this stays cheap.
    const [semantic, spatial] = await offlineSimilarities([semanticText, spatialText], retrieval.candidates.map((c) => c.description ?? ''));
    retrieval.candidates.forEach((c, i) => {
      c.semanticSimilarity = semantic![i]!;
      c.spatialSimilarity = spatial![i]!;
    });
    clock.lap('offlineDense');
  }

  const rankWith = (tradeOff: TradeOff) => dropDuplicates(rankCandidates(plan, retrieval.candidates, tradeOff, input.rankOptions));
  let ranked = rankWith(base.tradeOff);
  clock.lap('rank');
  let reasons: ReadonlyMap<number, string> = new Map();
  let tradeOffReason: string | undefined;
  // An order by population is what was asked for: a model does not reorder it.
  if (modelReranks && plan.order) base.rerank = { by: 'rules', model: deps.reranker!.model, fallbackReason: 'the question asks for an order by population' };
  else if (modelReranks) {
    const reranked = await rerankFront(deps.db, deps.reranker!, { question: input.question, plan, ranked, refs, budget, rankWith });
    ({ ranked, reasons } = reranked);
    base.rerank = reranked.info;
    if (reranked.tradeOff) {
      base.tradeOff = reranked.tradeOff;
      tradeOffReason = reranked.tradeOff.reason;
    }
    clock.lap('rerank');
  }
  // "the 3 largest cities": as many as asked for, when fewer than the answer would show.
  const shown = topAnswers(ranked, Math.min(input.k, plan.order?.k ?? input.k), input.rankOptions);

  // The answer's sentence needs no geometry: it is composed while the database reads the details.
  const detailsRead = inFlight(placeDetails(deps.db, shown.map((c) => c.id)));
  // A count from a pool that was full is a lower bound: the tagged pool, or the spatial one.
  const count = countMatches(plan, ranked, hasTargets(plan) ? retrieval.taggedPoolFull : retrieval.candidates.length >= SPATIAL_POOL);
  const answer = composeAnswer(plan, shown, refs, { reasons, ...(tradeOffReason ? { tradeOffReason } : {}) }, count);
  const sqlParameters = retrieval.query.parameters.map(abbreviateParameter);
  const reference = referenceCollection(refs);
  const details = await detailsRead;
  const candidates = shown.map((c) => ({
    id: c.id,
    sourceId: c.sourceId,
    name: c.name,
    category: c.category,
    geometry: details.get(c.id)?.geometry ?? null,
    distanceM: c.distanceM,
    scores: c.scores,
    pareto: c.pareto,
    why: explainCandidate(c, plan, refs, details.get(c.id)?.tags ?? {}),
    ...(reasons.has(c.id) ? { rankReason: reasons.get(c.id)! } : {}),
  }));
  clock.lap('answer');
  return {
    ...base,
    llmCalls: budget.used,
    answer,
    candidates,
    sql: retrieval.query.sql,
    sqlParameters,
    reference,
    ...(degraded.length ? { degraded } : {}),
    timingsMs: clock.done(),
  };
}

interface Reranked {
  ranked: RankedCandidate[];
  info: RerankInfo;
  /** The model's reason per candidate id (an order), empty otherwise. */
  reasons: ReadonlyMap<number, string>;
  /** The model's weights (the ranking was redone with them). */
  tradeOff?: TradeOff;
}

/** The model's ranking of the first candidates when its reply passes the checks, else the rule order and why. */
async function rerankFront(
  db: Db,
  reranker: LlmReranker,
  args: {
    question: string;
    plan: SpatialPlan;
    ranked: RankedCandidate[];
    refs: ResolvedReference[];
    budget: CallBudget;
    rankWith: (tradeOff: TradeOff) => RankedCandidate[];
  },
): Promise<Reranked> {
  const rules = (fallbackReason: string): Reranked => ({ ranked: args.ranked, reasons: new Map(), info: { by: 'rules', model: reranker.model, fallbackReason } });
  if (args.ranked.length < 2) return rules('fewer than two candidates: nothing to rerank');
  const descriptions = await placeDescriptions(db, args.ranked.slice(0, RERANK_CANDIDATES).map((c) => c.id));
  const input = await rerankInput(args.question, args.plan, args.ranked, args.refs, descriptions);
  const checked = await rerankWithModel(reranker, input, { budget: args.budget });
  if (!checked.ok) return rules(checked.problem);
  const info: RerankInfo = { by: 'llm', model: reranker.model };
  if (checked.kind === 'order') return { ranked: applyOrder(args.ranked, checked.order), reasons: checked.reasons, info };
  return { ranked: args.rankWith(checked.tradeOff), reasons: new Map(), info, tradeOff: checked.tradeOff };
}

/** Who ranks before any model call: the rules, saying why when the model was asked for but is not configured. */
function rulesRerank(choice: RerankChoice, reranker: LlmReranker | undefined): RerankInfo {
  if (choice === 'llm' && !reranker) return { by: 'rules', fallbackReason: 'no language model is configured (LLM_BASE_URL)' };
  return { by: 'rules' };
}

/** Query vectors are long: the response shows their start and length, not 384 numbers. */
function abbreviateParameter(p: unknown): unknown {
  if (typeof p === 'string' && p.startsWith('[') && p.length > 200) {
    return `${p.slice(0, 40)}… (vector of ${vectorLiteralLength(p)})`;
  }
  return p;
}

/** The number of components of a vector literal ("[0.1,0,-0.2]": 3), counted without parsing the numbers. */
function vectorLiteralLength(literal: string): number {
  let commas = 0;
  for (let i = 0; i < literal.length; i++) if (literal.charCodeAt(i) === 44) commas++;
  return commas + 1;
}
