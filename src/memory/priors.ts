/**
 * Memory priors for tool search. Similar workflows are found by tool-sequence overlap with the request's
 * own candidates, text similarity with the requests that produced them (same words, words close in
 * meaning, or the same need read as knowledge-graph concepts, so that a run helps a request for the same
 * need in other words and other task vocabulary), a task-type bonus and a length
 * penalty (with a minimum score); each is weighted by its reliability (n+ + 1) / (n+ + n- + 2). The prior
 * nudges tool scores by at most PRIOR_CAP and may propose the remembered chain as the workflow; relevant
 * action-level experiences are attached to the tools they concern. Memory only guides tool choice.
 */
import type { Db } from '../db/database.ts';
import { stem } from '../embedding/text.ts';
import { lexicalTerms } from '../tools/lexical.ts';
import { conceptInfo, matchForms } from '../tools/knowledge/index.ts';
import { CONCEPT_TUNING, conceptsOfWords, contentWords, dot, informationOf, senseVector } from '../tools/word-sense.ts';
import type { ParsedRequest } from '../tools/request/index.ts';
import { reliability } from './types.ts';

export const MEMORY_WEIGHTS = {
  text: 0.45,
  overlap: 0.3,
  taskType: 0.25,
  lengthPenalty: 0.03,
  /** Sequences longer than this pay the length penalty per extra step. */
  freeLength: 4,
  minScore: 0.35,
  /** Largest change of a tool's final score. */
  priorCap: 0.25,
  /** Share of the prior given to supporting steps (the steps whose task type is not the workflow's). */
  supportShare: 0.3,
  /** A remembered chain becomes the workflow when its match score and reliability reach these. */
  chainScore: 0.5,
  chainReliability: 0.6,
};

export interface MemoryWorkflowRef {
  id: number;
  taskType: string;
  toolSequence: string[];
  score: number;
  reliability: number;
  successes: number;
  failures: number;
}

export interface MemoryExperienceRef {
  id: number;
  toolId: string;
  condition: string;
  action: string;
  reliability: number;
}

export interface MemoryUsed {
  workflows: number[];
  experiences: MemoryExperienceRef[];
  matches: MemoryWorkflowRef[];
}

/** What the search needs from a ranked candidate. */
export interface PriorTarget {
  tool: { id: string; function: string };
  score: number;
}

export interface MemoryPriors {
  /** Score change per tool id (already capped). */
  adjustments: Map<string, number>;
  /** Explanation text per tool id. */
  notes: Map<string, string[]>;
  /** A remembered chain to compose the workflow from (tool ids in order). */
  chain?: { toolIds: string[]; workflowId: number; why: string; core: string };
  used: MemoryUsed;
}

function termSet(text: string): Set<string> {
  return new Set([...lexicalTerms(text).keys()].filter((t) => !t.includes('_')));
}

/** Dice overlap of two sets; 0 when either is empty. */
function dice(x: ReadonlySet<string>, y: ReadonlySet<string>): number {
  if (x.size === 0 || y.size === 0) return 0;
  let both = 0;
  for (const t of x) if (y.has(t)) both++;
  return (2 * both) / (x.size + y.size);
}

/** Dice overlap of content words. */
export function textSimilarity(a: string, b: string): number {
  return dice(termSet(a), termSet(b));
}

interface WorkflowRow {
  id: number;
  task_type: string;
  description: string;
  requests: string[];
  tool_sequence: string[];
  success_count: number;
  failure_count: number;
}

/** Two different words this close (word vectors) count as a partial match of the request texts. */
export const WORD_MATCH_FLOOR = 0.5;

/**
 * Dice overlap where a word without an exact partner is matched by meaning: its closeness (word vectors,
 * word-sense.ts) to the closest word of the other text, above WORD_MATCH_FLOOR, counts instead of 0 ("the
 * lowlands went under water" and "inundated plains" share no word, but their words are close).
 */
export function meaningSimilarity(a: string, b: string): number {
  const x = [...new Set(contentWords(a))];
  const y = [...new Set(contentWords(b))];
  if (x.length === 0 || y.length === 0) return 0;
  const side = (from: string[], to: string[]) => {
    const stems = new Set(to.map(stem));
    let sum = 0;
    for (const w of from) {
      if (stems.has(stem(w))) {
        sum += 1;
        continue;
      }
      const v = senseVector(w);
      let best = 0;
      for (const o of v ? to : []) {
        const u = senseVector(o);
        if (u) best = Math.max(best, dot(v!, u));
      }
      if (best >= WORD_MATCH_FLOOR) sum += best;
    }
    return sum;
  };
  return (side(x, y) + side(y, x)) / (x.length + y.length);
}

const needCache = new Map<string, ReadonlySet<string>>();

/**
 * What a request asks about, as knowledge-graph concepts (tasks and objects): those whose forms it uses,
 * and the one its other words read as by word vectors (word-sense.ts: "swamped" reads as flooding). Two
 * requests for the same need in different words meet here even when no word of one is close to a word of
 * the other.
 */
export function needConcepts(text: string): ReadonlySet<string> {
  const cached = needCache.get(text);
  if (cached) return cached;
  const kinds = new Set(['task', 'object']);
  const out = new Set<string>();
  for (const h of matchForms(text, ['concept'])) for (const id of h.ids) if (kinds.has(conceptInfo(id)?.kind ?? '')) out.add(id);
  const unknown = contentWords(text).filter((w) => informationOf(w) >= CONCEPT_TUNING.minInformation);
  for (const c of conceptsOfWords(unknown)) if (kinds.has(conceptInfo(c.id)?.kind ?? '')) out.add(c.id);
  if (needCache.size > 10_000) needCache.clear();
  needCache.set(text, out);
  return out;
}

/** Dice overlap of the two requests' need concepts (needConcepts); 0 when either names none. */
export function needSimilarity(a: string, b: string): number {
  return dice(needConcepts(a), needConcepts(b));
}

/** Similarity of a remembered workflow to the request (see the module comment). */
export function workflowMatchScore(w: WorkflowRow, query: string, taskTypes: readonly { id: string; weight: number }[], candidates: readonly string[]): number {
  const text = Math.max(0, ...w.requests.map((r) => Math.max(textSimilarity(query, r), meaningSimilarity(query, r), needSimilarity(query, r))));
  const top = new Set(candidates);
  const overlap = w.tool_sequence.filter((t) => top.has(t)).length / Math.max(1, w.tool_sequence.length);
  const task = taskTypes.find((t) => t.id === w.task_type)?.weight ?? 0;
  const W = MEMORY_WEIGHTS;
  return W.text * text + W.overlap * overlap + W.taskType * Math.min(1, task) - W.lengthPenalty * Math.max(0, w.tool_sequence.length - W.freeLength);
}

/**
 * The step that does a workflow's task: the first step whose function is the workflow's task type (later
 * ones of the same type, like a threshold after a change detector, and preprocessing steps support it),
 * else the last step.
 */
function coreStep(w: Pick<WorkflowRow, 'task_type' | 'tool_sequence'>, functionOf: ReadonlyMap<string, string>): string {
  return w.tool_sequence.find((id) => functionOf.get(id) === w.task_type) ?? w.tool_sequence[w.tool_sequence.length - 1]!;
}

/** The memory's view of a request whose candidates are ranked (best first). */
export async function memoryPriors(db: Db, parsed: Pick<ParsedRequest, 'query' | 'taskTypes'>, ranked: readonly PriorTarget[]): Promise<MemoryPriors> {
  const empty: MemoryPriors = { adjustments: new Map(), notes: new Map(), used: { workflows: [], experiences: [], matches: [] } };
  if (ranked.length === 0) return empty;
  const rows = (await db
    .selectFrom('memory_workflows')
    .select(['id', 'task_type', 'description', 'requests', 'tool_sequence', 'success_count', 'failure_count'])
    .orderBy('id')
    .limit(5000)
    .execute()) as WorkflowRow[];
  if (rows.length === 0) return empty;
  const candidates = ranked.slice(0, 8).map((r) => r.tool.id);
  const functionOf = new Map(ranked.map((r) => [r.tool.id, r.tool.function]));
  const matches = rows
    .map((w) => ({ w, score: workflowMatchScore(w, parsed.query, parsed.taskTypes, candidates) }))
    .filter((m) => m.score >= MEMORY_WEIGHTS.minScore)
    .sort((a, b) => b.score - a.score || a.w.id - b.w.id)
    .slice(0, 5);
  if (matches.length === 0) return empty;

  const raw = new Map<string, number>();
  const notes = new Map<string, string[]>();
  const note = (id: string, text: string) => notes.set(id, [...(notes.get(id) ?? []), text]);
  for (const { w, score } of matches) {
    const rel = reliability(w.success_count, w.failure_count);
    // Evidence for (rel > 0.5) or against (rel < 0.5), stronger with more runs behind it.
    const support = Math.min(1, (w.success_count + w.failure_count) / 3);
    const signed = score * (2 * rel - 1) * support;
    // The core step: the first step of the workflow's task type (later ones of the same type, like a
    // threshold after a change detector, and preprocessing steps are supporting steps).
    const core = coreStep(w, functionOf);
    for (const id of new Set(w.tool_sequence)) {
      const main = id === core;
      raw.set(id, (raw.get(id) ?? 0) + signed * (main ? 1 : MEMORY_WEIGHTS.supportShare));
      if (main) note(id, `${signed >= 0 ? 'worked' : 'failed'} in past runs (memory workflow ${w.id}: ${w.success_count} success, ${w.failure_count} failure)`);
    }
  }
  const adjustments = new Map<string, number>();
  for (const [id, v] of raw) adjustments.set(id, Math.max(-1, Math.min(1, v)) * MEMORY_WEIGHTS.priorCap);

  const best = matches.find((m) => m.w.success_count > 0);
  let chain: MemoryPriors['chain'];
  if (best && best.score >= MEMORY_WEIGHTS.chainScore && reliability(best.w.success_count, best.w.failure_count) >= MEMORY_WEIGHTS.chainReliability) {
    chain = { toolIds: best.w.tool_sequence, workflowId: best.w.id, why: `remembered workflow ${best.w.id} (${best.w.success_count} successful run(s))`, core: coreStep(best.w, functionOf) };
  }

  // Experiences of the matched task types about tools in play.
  const taskTypes = [...new Set(matches.map((m) => m.w.task_type))];
  const inPlay = new Set([...candidates, ...matches.flatMap((m) => m.w.tool_sequence)]);
  const exps = await db.selectFrom('memory_experiences').selectAll().where('task_type', 'in', taskTypes).orderBy('success_count', 'desc').orderBy('id').limit(50).execute();
  const experiences: MemoryExperienceRef[] = [];
  for (const e of exps) {
    if (!inPlay.has(e.tool_id) || e.success_count === 0 || experiences.length >= 5) continue;
    const rel = reliability(e.success_count, e.failure_count);
    experiences.push({ id: e.id, toolId: e.tool_id, condition: e.condition, action: e.action, reliability: Math.round(rel * 1000) / 1000 });
    note(e.tool_id, `experience ${e.id}: if ${e.condition} -> ${e.action}`);
  }
  return {
    adjustments,
    notes,
    ...(chain ? { chain } : {}),
    used: {
      workflows: matches.map((m) => m.w.id),
      experiences,
      matches: matches.map((m) => ({
        id: m.w.id,
        taskType: m.w.task_type,
        toolSequence: m.w.tool_sequence,
        score: Math.round(m.score * 1000) / 1000,
        reliability: Math.round(reliability(m.w.success_count, m.w.failure_count) * 1000) / 1000,
        successes: m.w.success_count,
        failures: m.w.failure_count,
      })),
    },
  };
}

/** A ranked candidate the priors may rescore (tools/search's `Scored`). */
export interface Rankable extends PriorTarget {
  notes: string[];
}

export interface AppliedMemory {
  /** Remembered chain (tool ids) proposed for the workflow, when the top tool is its core step. */
  chain?: { toolIds: string[]; why: string };
  used?: MemoryUsed;
}

/**
 * The search hook: rescales nothing, adds the capped prior to each candidate's score, says why in its
 * notes, and re-sorts. Returns what was used (undefined when the memory had nothing for this request).
 */
export async function applyMemoryPriors<T extends Rankable>(db: Db, parsed: Pick<ParsedRequest, 'query' | 'taskTypes'>, ranked: T[]): Promise<AppliedMemory> {
  const priors = await memoryPriors(db, parsed, ranked);
  if (priors.used.workflows.length === 0 && priors.used.experiences.length === 0) return {};
  for (const s of ranked) {
    const delta = priors.adjustments.get(s.tool.id) ?? 0;
    s.score += delta;
    for (const n of priors.notes.get(s.tool.id) ?? []) s.notes.push(delta ? `${n}, score ${delta > 0 ? '+' : ''}${Math.round(delta * 1000) / 1000}` : n);
  }
  ranked.sort((a, b) => b.score - a.score || (a.tool.id < b.tool.id ? -1 : 1));
  const top = ranked[0]?.tool.id;
  // Only when the request's best tool is what the remembered workflow is for: a request for one of its
  // supporting or follow-up steps ("speckle-filter this scene", "threshold this change image") asks for
  // that step, not for the whole workflow (the memory section of npm run eval measured the difference).
  const chain = priors.chain && top === priors.chain.core ? { toolIds: priors.chain.toolIds, why: priors.chain.why } : undefined;
  return { ...(chain ? { chain } : {}), used: priors.used };
}
