/**
 * Tool-retrieval evaluation, exactly as ../shared/eval/README.md defines it (hit@1, mrr@5, ndcg@5,
 * chain_recall@10, chain order, executability with the functional-equivalence table), for any `search`
 * function: the real endpoint, or the two baselines (BM25 over the tool texts, plain pgvector cosine).
 *
 * Run `npx tsx eval/tools.ts [path/to/tool-retrieval.jsonl]`: a fresh in-memory embedded database, the
 * three catalogs imported from ../shared/data/eo, every line sent through the real Hono app, then the
 * baselines measured the same way.
 */
import { readFileSync } from 'node:fs';
import { readJsonLines } from './json-lines.ts';
import { fileURLToPath } from 'node:url';
import type { Db } from '../src/db/database.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createOfflineEmbedderWithLexicons } from '../src/embedding/configured.ts';
import type { Embedder } from '../src/embedding/embedder.ts';
import { createApp } from '../src/http/app.ts';
import { IN_PROCESS_SECURITY } from '../src/http/security.ts';
import { createLogger } from '../src/log.ts';
import { importToolCatalogs, loadBuiltinTools } from '../src/tools/registry.ts';
import { createToolReranker, type ToolReranker } from '../src/tools/search/index.ts';
import { llmFromConfig } from '../src/llm/model.ts';
import { loadConfig } from '../src/config.ts';
import { searchBm25Baseline, searchDenseBaseline, searchMeaningBaseline } from './tool-baselines.ts';

export interface EvalContext {
  data_source?: string;
  processing_level?: string;
  available?: string[];
}

export interface EvalLine {
  id: string;
  query: string;
  lang?: string;
  /** Own request sets: 'tune' (used to choose weights) or 'check' (reported, never tuned on). */
  split?: string;
  context?: EvalContext;
  gold: string[];
  gold_chain?: string[];
  executable_requires?: string[];
}

export interface SearchRequestBody {
  query: string;
  k: number;
  context: { dataSource?: string; processingLevel?: string; available?: string[] };
}

export interface SearchAnswer {
  tools: { id: string; missingPrerequisites?: string[] }[];
  workflow?: { steps: { toolId: string }[] };
}

export type SearchFunction = (request: SearchRequestBody) => Promise<SearchAnswer>;

/** Functional equivalents, used for chain steps and prerequisites only (never for hit/mrr/ndcg). */
export const EQUIVALENT_GROUPS: readonly (readonly string[])[] = [
  ['ndvi', 'index:NDVI', 'ndvi_calculator'],
  ['zonal_statistics', 'aggregate_spatial'],
  ['cloud_masking', 'cloud_detection', 'ard_surface_reflectance'],
  ['atmospheric_correction', 'ard_surface_reflectance'],
  ['sar_calibration', 'sar_backscatter', 'ard_normalized_radar_backscatter'],
  ['sar_terrain_correction', 'sar_backscatter', 'ard_normalized_radar_backscatter'],
  ['aggregate_temporal_period', 'aggregate_temporal'],
  ['resample_cube_spatial', 'resample_spatial'],
  ['post_classification_comparison', 'dual_date_classification_comparator'],
  ['index:NDWI', 'index:MNDWI', 'index:AWEInsh', 'index:AWEIsh', 'index:ANDWI', 'index:MBWI', 'index:NWI', 'index:WI2015', 'index:WRI', 'index:SWM', 'index:S2WI', 'index:MuWIR', 'index:FWEI', 'index:NDWIns'],
  ['index:NDMI', 'index:NDII', 'index:MSI', 'index:GVMI'],
];

export function equivalent(a: string, b: string): boolean {
  return a === b || EQUIVALENT_GROUPS.some((g) => g.includes(a) && g.includes(b));
}

/** The request body of a line: k = 10 for chains, 5 otherwise; context keys in the API's camelCase. */
export function requestOf(line: EvalLine): SearchRequestBody {
  const c = line.context ?? {};
  return {
    query: line.query,
    k: line.gold_chain ? 10 : 5,
    context: {
      ...(c.data_source !== undefined ? { dataSource: c.data_source } : {}),
      ...(c.processing_level !== undefined ? { processingLevel: c.processing_level } : {}),
      ...(c.available !== undefined ? { available: c.available } : {}),
    },
  };
}

export interface LineScore {
  id: string;
  top: string[];
  hit1: number;
  mrr5: number;
  ndcg5: number;
  recall5: number;
  complete5: number;
  chainRecall10?: number;
  chainOrder?: number;
  /** Lines with a gold chain: 1 if the proposed sequence is the chain, step for step. */
  exactSequence?: number;
  /** Every line: see sequenceMatch. */
  sequenceMatch: number;
  exec?: number;
  error?: string;
}

export function hitAt1(ids: readonly string[], gold: readonly string[]): number {
  return ids[0] !== undefined && gold.includes(ids[0]) ? 1 : 0;
}

export function mrrAt5(ids: readonly string[], gold: readonly string[]): number {
  const rank = ids.slice(0, 5).findIndex((id) => gold.includes(id));
  return rank >= 0 ? 1 / (rank + 1) : 0;
}

/** Binary relevance; the ideal DCG puts min(|gold|, 5) relevant ids first. */
export function ndcgAt5(ids: readonly string[], gold: readonly string[]): number {
  const dcg = ids.slice(0, 5).reduce((sum, id, i) => sum + (gold.includes(id) ? 1 / Math.log2(i + 2) : 0), 0);
  const ideal = Array.from({ length: Math.min(gold.length, 5) }, (_, i) => 1 / Math.log2(i + 2)).reduce((a, b) => a + b, 0);
  return ideal > 0 ? dcg / ideal : 0;
}

/** Share of the gold tools among the top 5. */
export function recallAt5(ids: readonly string[], gold: readonly string[]): number {
  if (gold.length === 0) return 0;
  const top = ids.slice(0, 5);
  return gold.filter((g) => top.includes(g)).length / gold.length;
}

/** 1 when every gold tool is among the top 5. */
export function completenessAt5(ids: readonly string[], gold: readonly string[]): number {
  return gold.length > 0 && recallAt5(ids, gold) === 1 ? 1 : 0;
}

export function chainRecallAt10(ids: readonly string[], chain: readonly string[]): number {
  if (chain.length === 0) return 0;
  const top = ids.slice(0, 10);
  return chain.filter((step) => top.some((id) => equivalent(id, step))).length / chain.length;
}

/** Share of consecutive chain pairs (a, b) with a workflow step matching a before one matching b. */
export function chainOrder(steps: readonly string[], chain: readonly string[]): number {
  if (chain.length < 2) return 0;
  let ok = 0;
  for (let i = 0; i + 1 < chain.length; i++) {
    const a = steps.findIndex((s) => equivalent(s, chain[i]!));
    const b = steps.findLastIndex((s) => equivalent(s, chain[i + 1]!));
    if (a >= 0 && b > a) ok++;
  }
  return ok / (chain.length - 1);
}

/**
 * Exact tool-sequence match: the proposed sequence (the workflow's steps, or the top-1 tool alone when no
 * workflow is given) has the chain's length and each step matches the chain's step at the same position
 * (functional equivalents allowed, as for chain recall).
 */
export function exactSequence(answer: SearchAnswer, chain: readonly string[]): number {
  return sameSequence(proposedSequence(answer), chain.map((step) => [step]));
}

/** The tool sequence an answer proposes: the workflow's steps, or the top-1 tool alone. */
export function proposedSequence(answer: SearchAnswer): string[] {
  return answer.workflow?.steps.length ? answer.workflow.steps.map((s) => s.toolId) : answer.tools.slice(0, 1).map((t) => t.id);
}

function sameSequence(steps: readonly string[], expected: readonly (readonly string[])[]): number {
  return steps.length === expected.length && steps.every((s, i) => expected[i]!.some((e) => equivalent(s, e))) ? 1 : 0;
}

/**
 * Sequence match over every request (this project's extension, used by the memory section): the sequence
 * a request calls for is its gold chain; without one, its `executable_requires` prerequisites followed by
 * any of its gold tools (a single gold tool when it has no prerequisite).
 */
export function sequenceMatch(answer: SearchAnswer, line: EvalLine): number {
  const expected = line.gold_chain ? line.gold_chain.map((step) => [step]) : [...(line.executable_requires ?? []).map((r) => [r]), line.gold];
  return sameSequence(proposedSequence(answer), expected);
}

/**
 * 1 if every required id is in the top-1 tool's missingPrerequisites, or is a workflow step placed
 * before the main tool (the first step matching the top-1 id or a gold id).
 */
export function executability(answer: SearchAnswer, line: EvalLine): number {
  const required = line.executable_requires ?? [];
  const top = answer.tools[0];
  const missing = top?.missingPrerequisites ?? [];
  const steps = (answer.workflow?.steps ?? []).map((s) => s.toolId);
  const main = steps.findIndex((s) => (top && equivalent(s, top.id)) || line.gold.some((g) => equivalent(s, g)));
  const ok = required.every(
    (r) => missing.some((m) => equivalent(m, r)) || (main > 0 && steps.slice(0, main).some((s) => equivalent(s, r))),
  );
  return ok ? 1 : 0;
}

export function scoreLine(answer: SearchAnswer, line: EvalLine): LineScore {
  const ids = answer.tools.map((t) => t.id);
  const score: LineScore = {
    id: line.id,
    top: ids.slice(0, 5),
    hit1: hitAt1(ids, line.gold),
    mrr5: mrrAt5(ids, line.gold),
    ndcg5: ndcgAt5(ids, line.gold),
    recall5: recallAt5(ids, line.gold),
    complete5: completenessAt5(ids, line.gold),
    sequenceMatch: sequenceMatch(answer, line),
  };
  if (line.gold_chain) {
    score.chainRecall10 = chainRecallAt10(ids, line.gold_chain);
    const steps = (answer.workflow?.steps ?? []).map((s) => s.toolId);
    if (steps.length > 0) score.chainOrder = chainOrder(steps, line.gold_chain);
    score.exactSequence = exactSequence(answer, line.gold_chain);
  }
  if (line.executable_requires) score.exec = executability(answer, line);
  return score;
}

export interface ToolEvalResult {
  n: number;
  hit1: number;
  mrr5: number;
  ndcg5: number;
  recall5: number;
  complete5: number;
  chainRecall10: number;
  chainOrder: number;
  exactSequence: number;
  sequenceMatch: number;
  exec: number;
  counts: { chain: number; chainOrder: number; exec: number };
  lines: LineScore[];
  meanLatencyMs: number;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export interface EvaluateOptions {
  /** Called after each line (progress, per-line printing). */
  onLine?: (score: LineScore, line: EvalLine) => void;
}

/** Runs every line through `search` and averages the metrics (a failed request scores 0 everywhere). */
export async function evaluateTools(search: SearchFunction, lines: readonly EvalLine[], options: EvaluateOptions = {}): Promise<ToolEvalResult> {
  const scores: LineScore[] = [];
  const latencies: number[] = [];
  for (const line of lines) {
    const started = performance.now();
    let score: LineScore;
    try {
      score = scoreLine(await search(requestOf(line)), line);
    } catch (error) {
      score = { id: line.id, top: [], hit1: 0, mrr5: 0, ndcg5: 0, recall5: 0, complete5: 0, sequenceMatch: 0, error: (error as Error).message };
      if (line.gold_chain) Object.assign(score, { chainRecall10: 0, exactSequence: 0 });
      if (line.executable_requires) score.exec = 0;
    }
    latencies.push(performance.now() - started);
    scores.push(score);
    options.onLine?.(score, line);
  }
  return aggregate(scores, mean(latencies));
}

/** Averages of per-line scores (a whole set, or one split of it). */
export function aggregate(scores: readonly LineScore[], meanLatencyMs = 0): ToolEvalResult {
  const chains = scores.filter((s) => s.chainRecall10 !== undefined);
  const orders = scores.filter((s) => s.chainOrder !== undefined);
  const execs = scores.filter((s) => s.exec !== undefined);
  return {
    n: scores.length,
    hit1: mean(scores.map((s) => s.hit1)),
    mrr5: mean(scores.map((s) => s.mrr5)),
    ndcg5: mean(scores.map((s) => s.ndcg5)),
    recall5: mean(scores.map((s) => s.recall5)),
    complete5: mean(scores.map((s) => s.complete5)),
    chainRecall10: mean(chains.map((s) => s.chainRecall10!)),
    chainOrder: mean(orders.map((s) => s.chainOrder!)),
    exactSequence: mean(chains.map((s) => s.exactSequence ?? 0)),
    sequenceMatch: mean(scores.map((s) => s.sequenceMatch)),
    exec: mean(execs.map((s) => s.exec!)),
    counts: { chain: chains.length, chainOrder: orders.length, exec: execs.length },
    lines: [...scores],
    meanLatencyMs,
  };
}

/** The scorer's last line. */
export function formatToolEval(r: ToolEvalResult): string {
  const f = (x: number) => x.toFixed(3);
  return `tool-retrieval: hit@1=${f(r.hit1)} mrr@5=${f(r.mrr5)} ndcg@5=${f(r.ndcg5)} chain_recall@10=${f(r.chainRecall10)} exec=${f(r.exec)} n=${r.n}`;
}

export function readEvalLines(path: string): EvalLine[] {
  return readJsonLines<EvalLine>(path);
}

// ---------------------------------------------------------------------------------------------------
// Runnable entry

export const DEV_SET = fileURLToPath(new URL('../../shared/eval/tool-retrieval.dev.jsonl', import.meta.url));
export const EO_DATA = fileURLToPath(new URL('../../shared/data/eo/', import.meta.url));

export interface ToolEvalReport {
  system: ToolEvalResult;
  bm25: ToolEvalResult;
  dense: ToolEvalResult;
  /** Word-vector means alone (IDF-weighted GloVe). */
  meaning?: ToolEvalResult;
  /** Foreign catalogs only: the plain BM25 reference (plainBm25). */
  plainBm25?: ToolEvalResult;
  /** Line id -> split, for sets that have one. */
  splits?: Record<string, string>;
}

export interface ToolRegistry {
  db: Db;
  embedder: Embedder;
  /** The real Hono app on that database. */
  app: ReturnType<typeof createApp>;
  /** POST /v1/tools/search through the app; non-200 throws (the line scores 0). */
  search: SearchFunction;
}

/** With LLM_BASE_URL and LLM_MODEL set, the search is measured with the model ordering its candidates, as the service would. */
function configuredToolReranker(): { toolReranker?: ToolReranker } {
  const model = llmFromConfig(loadConfig());
  return model ? { toolReranker: createToolReranker(model) } : {};
}

/**
 * A fresh in-memory embedded database holding the three catalogs (built-in domain tools, openEO processes,
 * spectral indices), so the numbers never depend on what the configured database happens to hold.
 */
export async function withToolRegistry<T>(work: (registry: ToolRegistry) => Promise<T>): Promise<T> {
  const handle = await openDatabase({ pgliteDataDir: 'memory://' });
  try {
    await migrateToLatest(handle.db);
    const embedder = createOfflineEmbedderWithLexicons();
    await loadBuiltinTools(handle.db, embedder);
    await importToolCatalogs(handle.db, embedder, [`${EO_DATA}openeo-processes`, `${EO_DATA}spectral-indices`]);
    // The harness is an in-process client on this machine: it may use the write routes (POST /v1/runs,
    // memory reset) that the service accepts from loopback clients only.
    const security = { ...IN_PROCESS_SECURITY, clientAddress: () => '127.0.0.1' };
    const app = createApp({ db: handle.db, embedder, mode: handle.mode, log: createLogger('silent'), lifecycle: { draining: false }, security, ...configuredToolReranker() });
    return await work({ db: handle.db, embedder, app, search: searchThrough(app) });
  } finally {
    await handle.close();
  }
}

/** A tool of a foreign catalog: only what a third party would send. */
export interface ForeignTool {
  id: string;
  name: string;
  description: string;
}

export function readForeignCatalog(path: string): ForeignTool[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as ForeignTool[]).map(({ id, name, description }) => ({ id, name, description }));
}

/**
 * A fresh in-memory database holding only `tools`, each registered through POST /v1/tools with its id,
 * name and description (everything else derived by the service), as a third party would register them.
 */
export async function withForeignRegistry<T>(tools: readonly ForeignTool[], work: (registry: ToolRegistry) => Promise<T>): Promise<T> {
  const handle = await openDatabase({ pgliteDataDir: 'memory://' });
  try {
    await migrateToLatest(handle.db);
    const embedder = createOfflineEmbedderWithLexicons();
    const security = { ...IN_PROCESS_SECURITY, clientAddress: () => '127.0.0.1' };
    const app = createApp({ db: handle.db, embedder, mode: handle.mode, log: createLogger('silent'), lifecycle: { draining: false }, security, ...configuredToolReranker() });
    for (const tool of tools) {
      const res = await app.request('/v1/tools', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(tool) });
      if (res.status !== 201) throw new Error(`registering ${tool.id}: HTTP ${res.status} ${await res.text()}`);
    }
    return await work({ db: handle.db, embedder, app, search: searchThrough(app) });
  } finally {
    await handle.close();
  }
}

/**
 * The plainest lexical reference: BM25 (k1 1.5, b 0.75) over name + description, lower-cased words and
 * Chinese characters, no stemming and no stop words. The service must never rank below it.
 */
export function plainBm25(tools: readonly ForeignTool[]): (query: string, k: number) => string[] {
  const tokens = (text: string) => text.toLowerCase().match(/[a-z0-9]+|[\u4e00-\u9fff]/g) ?? [];
  const docs = tools.map((t) => tokens(`${t.name} ${t.description}`));
  const df = new Map<string, number>();
  for (const d of docs) for (const term of new Set(d)) df.set(term, (df.get(term) ?? 0) + 1);
  const avg = docs.reduce((a, d) => a + d.length, 0) / Math.max(1, docs.length);
  const tfs = docs.map((d) => d.reduce((m, term) => m.set(term, (m.get(term) ?? 0) + 1), new Map<string, number>()));
  return (query, k) => {
    const terms = [...new Set(tokens(query))];
    const scored = tools.map((t, i) => {
      let score = 0;
      for (const term of terms) {
        const f = tfs[i]!.get(term) ?? 0;
        if (!f) continue;
        const n = df.get(term)!;
        score += Math.log(1 + (docs.length - n + 0.5) / (n + 0.5)) * ((f * 2.5) / (f + 1.5 * (0.25 + (0.75 * docs[i]!.length) / avg)));
      }
      return { id: t.id, score };
    });
    return scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, k).map((s) => s.id);
  };
}

/** A SearchFunction sending the request to POST /v1/tools/search of `app`. */
export function searchThrough(app: { request: (path: string, init: RequestInit) => Response | Promise<Response> }): SearchFunction {
  return async (body) => {
    const res = await app.request('/v1/tools/search', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
    return (await res.json()) as SearchAnswer;
  };
}

/**
 * Evaluates the service and both baselines on `path` (a fresh registry: the built-in catalogs, or only the
 * foreign catalog file `catalog` registered through the API). `verbose` prints one line per request.
 */
export async function runToolEvaluation(path = DEV_SET, verbose = false, catalog?: string): Promise<ToolEvalReport> {
  const foreign = catalog ? readForeignCatalog(catalog) : undefined;
  const registry = <T>(work: (r: ToolRegistry) => Promise<T>) => (foreign ? withForeignRegistry(foreign, work) : withToolRegistry(work));
  return registry(async ({ db, embedder, search }) => {
    const lines = readEvalLines(path);
    const print = (label: string) => (s: LineScore, line: EvalLine) => {
      if (!verbose) return;
      const flags = [`hit=${s.hit1}`, `rr=${s.mrr5.toFixed(2)}`, `ndcg=${s.ndcg5.toFixed(2)}`];
      if (s.chainRecall10 !== undefined) flags.push(`chain=${s.chainRecall10.toFixed(2)}`);
      if (s.chainOrder !== undefined) flags.push(`order=${s.chainOrder.toFixed(2)}`);
      if (s.exactSequence !== undefined) flags.push(`exact=${s.exactSequence}`);
      if (s.exec !== undefined) flags.push(`exec=${s.exec}`);
      console.log(`${label} ${line.id} ${flags.join(' ')} top=${s.top.join(',')}${s.error ? ` ERROR ${s.error}` : ''}`);
    };
    const splits = Object.fromEntries(lines.filter((l) => l.split).map((l) => [l.id, l.split!]));
    const system = await evaluateTools(search, lines, { onLine: print('system') });
    const bm25 = await evaluateTools((body) => searchBm25Baseline(db, body.query, body.k), lines, { onLine: print('bm25') });
    const dense = await evaluateTools((body) => searchDenseBaseline(db, embedder, body.query, body.k), lines, { onLine: print('dense') });
    const meaning = await evaluateTools((body) => searchMeaningBaseline(db, body.query, body.k), lines, { onLine: print('meaning') });
    if (!foreign) return { system, bm25, dense, meaning, splits };
    const plain = plainBm25(foreign);
    const reference = await evaluateTools(async (body) => ({ tools: plain(body.query, body.k).map((id) => ({ id })) }), lines, { onLine: print('plain') });
    return { system, bm25, dense, meaning, plainBm25: reference, splits };
  });
}

/** Rows to print: each method on all lines, then per split (tune / check) when the set has splits. */
export function reportRows(result: ToolEvalReport): [string, ToolEvalResult][] {
  const methods: [string, ToolEvalResult][] = [['bm25', result.bm25], ...(result.plainBm25 ? [['bm25-ref', result.plainBm25] as [string, ToolEvalResult]] : []), ['dense', result.dense], ...(result.meaning ? [['meaning', result.meaning] as [string, ToolEvalResult]] : []), ['system', result.system]];
  const rows: [string, ToolEvalResult][] = [...methods];
  const splits = [...new Set(Object.values(result.splits ?? {}))].sort();
  for (const split of splits) {
    for (const [label, r] of methods) rows.push([`${label}[${split}]`, aggregate(r.lines.filter((l) => result.splits![l.id] === split), r.meanLatencyMs)]);
  }
  return rows;
}

export function report(label: string, r: ToolEvalResult): string {
  return `${label.padEnd(16)} hit@1=${r.hit1.toFixed(3)} mrr@5=${r.mrr5.toFixed(3)} ndcg@5=${r.ndcg5.toFixed(3)} recall@5=${r.recall5.toFixed(3)} chain_recall@10=${r.chainRecall10.toFixed(3)} chain_order=${r.chainOrder.toFixed(3)} exact_seq=${r.exactSequence.toFixed(3)} seq_all=${r.sequenceMatch.toFixed(3)} exec=${r.exec.toFixed(3)} latency=${r.meanLatencyMs.toFixed(1)}ms`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose') || args.includes('-v');
  const catalogAt = args.indexOf('--catalog');
  const catalog = catalogAt >= 0 ? args[catalogAt + 1] : undefined;
  const path = args.find((a, i) => !a.startsWith('-') && (catalogAt < 0 || i !== catalogAt + 1)) ?? DEV_SET;
  const result = await runToolEvaluation(path, verbose, catalog);
  for (const [label, r] of reportRows(result)) console.log(report(label, r));
  const { system } = result;
  console.log(formatToolEval(system));
}
