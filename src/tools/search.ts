/**
 * Bidirectional semantic-complementary tool retrieval.
 *
 *   request channel  parse the query into slots, enrich it from the knowledge graph (request.ts)
 *   tool channel     capability-text embeddings, lexical index, relation graph (capability.ts, catalog-cache.ts)
 *   recall           pgvector top-100 by cosine  ∪  lexical top-60  ∪  producers of the wanted products
 *                    ∪  the missing prerequisite steps of the likeliest leaders
 *   filter           catalogs; tools that cannot read the data's modality or lack a band on its sensor
 *   rerank           final = alpha * similarity + beta * complementarity
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
 * text, so they cannot outweigh what the words say. Chinese words the graph does not list reach the search
 * as their CC-CEDICT glosses (request.ts); words no lexicon lists may be read by word vectors
 * (word-sense.ts), which is switched off by default because it measured no better.
 */
import type { Db } from '../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { offlineSimilarities, queryEmbedderFor, type Degradation } from '../embedding/query-embedding.ts';
import { toVectorLiteral } from '../embedding/space.ts';
import { isCategoryProduct, specificOutputs } from './capability.ts';
import { catalogSnapshot, type CatalogSnapshot } from './catalog-cache.ts';
import { conceptInfo, functionInfo, isGenericProduct, normalizeAvailable, productInfo, productSatisfies, sensorBandFor, sensorByDataSource } from './knowledge.ts';
import { lexicalTerms, mergeTerms, queryTerms, relatedTerms, scoreAll, topLexical, type WeightedTerm } from './lexical.ts';
import { contextState, missingChainForState, prerequisiteStatus, type ContextState, type RequestContext } from './prerequisites.ts';
import { recallByVector, type DenseHit } from './repository.ts';
import { parseToolRequest, withoutRelativeTime, type ParsedRequest, type SubTask, type Weighted } from './request.ts';
import type { Temporal, ToolRecord } from './schema.ts';
import { composeWorkflow, producerOf, type Workflow } from './workflow.ts';
import { WORD_SENSE, contentWords, expandUnknownWords, informationOf } from './word-sense.ts';
import { applyMemoryPriors, type MemoryUsed } from '../memory/priors.ts';

export interface ScoringWeights {
  /** final = alpha * similarity + beta * complementarity */
  alpha: number;
  beta: number;
  /** Mix inside similarity (normalised by their sum). */
  dense: number;
  lexical: number;
  taskType: number;
  output: number;
  bands: number;
  /** Share of the tool name's words that the request uses ("Load a collection" for "load the collection"). */
  name: number;
}

/**
 * Defaults. Similarity dominates (alpha 0.75): the tool must do what is asked. Complementarity (beta 0.25,
 * range -1..1) is strong enough to reorder near-equivalent tools by what the data allows and to lift a
 * missing preprocessing step into the list, but not to put a preprocessing step above the task itself.
 * Inside similarity, lexical evidence (BM25) weighs most: it is the one signal that holds on a catalog the
 * knowledge graph has never seen, where the graph's task types and outputs are guesses read from the same
 * text and the offline embedder's n-grams blur rare words. The graph's structured signals (task type,
 * output product) together weigh a little less than the words and still decide between tools the
 * words cannot tell apart. Fitted on the tuning half of eval/sets/foreign-catalog.requests.jsonl
 * (with the multi-step merge below, lexical 1 -> 1.5 and dense 1 -> 0.7 raised its MRR@5 from 0.66 to
 * 0.68; lexical 2 with dense 0.5 ties on that half but loses workflow sequences on the development set;
 * reciprocal-rank fusion of the three rankings and a floor keeping BM25's first matches near the top
 * measured no better, so they are not used).
 */
export const DEFAULT_WEIGHTS: ScoringWeights = {
  alpha: 0.75,
  beta: 0.25,
  dense: 0.7,
  lexical: 1.5,
  taskType: 0.6,
  output: 0.7,
  bands: 0.3,
  name: 0.4,
};

export const DENSE_RECALL = 100;
const LEXICAL_RECALL = 60;
const KG_RECALL = 40;
/** Weight of a catalog word standing in for a request word the catalog lacks (times their closeness). */
const EXPANSION_FACTOR = 0.5;

export interface ToolSearchRequest {
  query: string;
  k?: number;
  context?: RequestContext;
  catalogs?: string[];
  weights?: Partial<ScoringWeights>;
  /** Apply workflow-memory priors (src/memory); default true. */
  memory?: boolean;
}

export interface ToolHit {
  id: string;
  name: string;
  catalog: string;
  function: string;
  score: number;
  similarity: number;
  complementarity: number;
  why: string;
  missingPrerequisites: string[];
  /** What matched the request (concepts, task type, output, words). */
  matched: string[];
  /** What the tool does for the request context or for other results. */
  complements: string[];
}

export interface Clarification {
  question: string;
  options: { taskType: string; label: string; exampleToolIds: string[] }[];
}

export interface ToolSearchResponse {
  tools: ToolHit[];
  parsed: ParsedSummary;
  workflow?: Workflow;
  clarification?: Clarification;
  /** Which memory items guided the ranking (issue 6). */
  memory?: MemoryUsed;
  /** Present when the ranking was computed without the embeddings service: why, and what was used instead. */
  degraded?: Degradation[];
}

/** The request channel's reading, as returned to clients. */
export interface ParsedSummary {
  lang: 'en' | 'zh';
  taskType?: string;
  taskTypes: Weighted[];
  targetObjects: string[];
  targetProducts: string[];
  concepts: string[];
  temporal?: ParsedRequest['temporal'];
  spatial?: ParsedRequest['spatial'];
  precision?: ParsedRequest['precision'];
  dataSource?: string;
  dataSources: string[];
  processingLevel?: string;
  modalities: string[];
  bands: string[];
  has: string[];
  lacks: string[];
  subTasks: string[];
  expansions: string[];
  confidence: number;
}

// ---------------------------------------------------------------------------------------------------
// One ranking

export interface Need {
  text: string;
  expansions: string[];
  /** Words for the constraints the request states (dates, a bounding box, a target grid). */
  facets: string[];
  taskTypes: Weighted[];
  products: Weighted[];
  bands: string[];
  /** Modalities of the user's data (filter) and of the request overall. */
  modalities: string[];
  dataSources: string[];
  temporal?: Temporal;
}

export interface Scored {
  tool: ToolRecord;
  dense: number;
  lexical: number;
  taskType: number;
  output: number;
  bands: number;
  name: number;
  similarity: number;
  complementarity: number;
  score: number;
  missing: string[];
  satisfied: string[];
  notes: string[];
  complements: string[];
}

function sensorModalities(dataSources: readonly string[]): string[] {
  return [...new Set(dataSources.flatMap((d) => sensorByDataSource(d)?.modalities ?? []))];
}

export function needOf(parsed: ParsedRequest, sub?: SubTask): Need {
  const concepts = sub ? sub.concepts : parsed.concepts;
  const expansions = new Set<string>();
  for (const c of concepts) {
    const info = conceptInfo(c.id);
    if (!c.negated && info && info.kind !== 'modifier' && info.kind !== 'modality') expansions.add(info.en[0] ?? c.id);
  }
  let taskTypes = sub ? sub.taskTypes : parsed.taskTypes;
  const facets = facetsOf(parsed, sub);
  // A clause that names no task but a target grid ("align the cube to the 10 m grid") asks for regridding.
  if (taskTypes.length === 0 && parsed.spatial?.kind === 'grid' && facets.length) taskTypes = [{ id: 'resampling', weight: 0.6 }];
  for (const t of taskTypes.slice(0, 2)) expansions.add(functionInfo(t.id)?.en[0] ?? t.id);
  return {
    // When the work is to be done is setting, not task: its words are not matched against tools.
    text: withoutRelativeTime(sub ? sub.query : parsed.query),
    expansions: [...expansions],
    facets,
    taskTypes,
    products: sub ? sub.products : parsed.target.products,
    bands: parsed.bands,
    modalities: [...new Set([...sensorModalities(parsed.dataSources), ...parsed.modalities])],
    dataSources: parsed.dataSources,
    temporal: parsed.temporal?.shape,
  };
}

/**
 * A constraint stated in the request is something a tool may have to handle: an interval of dates
 * (temporal filters), a bounding box or polygons (spatial filters, zonal statistics), a target grid
 * (resampling). Only constraints stated in the clause being searched count.
 */
function facetsOf(parsed: ParsedRequest, sub?: SubTask): string[] {
  const inClause = (texts: readonly string[]) => !sub || texts.some((t) => sub.text.toLowerCase().includes(t.toLowerCase()));
  const out: string[] = [];
  const t = parsed.temporal;
  if (t && (t.start || t.dates.length) && inClause(t.text)) out.push('temporal interval of dates and times');
  const sp = parsed.spatial;
  if (sp && inClause([sp.text])) {
    if (sp.kind === 'bbox') out.push('spatial extent bounding box');
    if (sp.kind === 'zones') out.push('polygons geometries zones');
    if (sp.kind === 'grid') out.push('resample onto a spatial grid resolution');
  }
  return out;
}

function outputFit(tool: ToolRecord, products: readonly Weighted[]): number {
  if (products.length === 0) return 0;
  const outs = tool.outputs.map((o) => o.product).filter((p): p is string => !!p);
  let best = 0;
  for (const want of products) {
    // "scenes", "imagery": every raster tool makes an image; that says nothing about the task.
    if (isGenericProduct(want.id)) continue;
    let fit = 0;
    // Making exactly what was asked beats making something of the asked category ("NDWI" vs any water index).
    if (outs.some((o) => productSatisfies(o, want.id))) fit = isCategoryProduct(want.id) && !outs.includes(want.id) ? 0.7 : 1;
    // The tool makes something more general than asked (a "spectral index" for "NDVI"): partly fits.
    else if (outs.some((o) => !isGenericProduct(o) && productSatisfies(want.id, o))) fit = 0.5;
    best = Math.max(best, fit * want.weight);
  }
  return best;
}

/**
 * Share of the requested bands the tool reads, each band weighted by how rare it is among the
 * candidates (like IDF): red and NIR are in most vegetation indices, a red-edge band singles a few out.
 */
function bandFit(tool: ToolRecord, bands: readonly string[], rarity: ReadonlyMap<string, number>): number {
  if (bands.length === 0) return 0;
  const have = new Set(tool.inputs.flatMap((p) => p.bands ?? []));
  if (have.size === 0) return 0;
  const total = bands.reduce((sum, b) => sum + (rarity.get(b) ?? 1), 0);
  return bands.filter((b) => have.has(b)).reduce((sum, b) => sum + (rarity.get(b) ?? 1), 0) / total;
}

function bandRarity(tools: readonly ToolRecord[], bands: readonly string[]): Map<string, number> {
  const withBands = tools.filter((t) => t.inputs.some((p) => p.bands?.length));
  const out = new Map<string, number>();
  for (const b of bands) {
    const df = withBands.filter((t) => t.inputs.some((p) => p.bands?.includes(b))).length;
    out.set(b, Math.log(1 + (withBands.length + 1) / (df + 1)));
  }
  return out;
}

const nameTermCache = new Map<string, string[]>();

function termsOf(text: string): string[] {
  let terms = nameTermCache.get(text);
  if (!terms) {
    terms = [...lexicalTerms(text).keys()].filter((t) => !t.includes('_'));
    if (nameTermCache.size > 50_000) nameTermCache.clear();
    nameTermCache.set(text, terms);
  }
  return terms;
}

/**
 * Share of the words of a tool's name, or of its id, that the user typed: "load the collection" covers
 * "Load a collection"; "MNDWI" covers `index:MNDWI` whatever the long name.
 */
function nameCoverage(tool: ToolRecord, typed: ReadonlySet<string>): number {
  let best = 0;
  for (const text of [tool.name, tool.id.replace(/^index:/, '').replace(/[_:]+/g, ' ')]) {
    const terms = termsOf(text);
    if (terms.length) best = Math.max(best, terms.filter((t) => typed.has(t)).length / terms.length);
  }
  return best;
}

/** Can the tool be run on this data at all? A SAR tool on optical data, an index needing a band the sensor lacks: no. */
function incompatibility(tool: ToolRecord, need: Need, dataModalities: readonly string[]): string | undefined {
  if (tool.modalities.length > 0 && dataModalities.length > 0 && !tool.modalities.some((m) => dataModalities.includes(m) || m === 'vector' || m === 'dem')) {
    const usable = need.modalities.length > 0 && tool.modalities.some((m) => need.modalities.includes(m));
    if (!usable) return `works on ${tool.modalities.join('/')} data, not ${dataModalities.join('/')}`;
  }
  if (need.dataSources.length === 1) {
    const sensor = sensorByDataSource(need.dataSources[0]!);
    const bands = tool.inputs.filter((p) => !p.optional).flatMap((p) => p.bands ?? []);
    if (sensor && Object.keys(sensor.bands).length > 0 && bands.length > 0) {
      const absent = bands.filter((b) => !sensorBandFor(sensor, b));
      if (absent.length) return `${sensor.dataSource} has no ${absent.join(', ')} band`;
    }
  }
  return undefined;
}

function temporalPenalty(tool: ToolRecord, shape: Temporal | undefined): number {
  if (!shape) return 0;
  const main = tool.inputs.find((p) => !p.optional && p.type === 'raster');
  if (!main?.temporal) return 0;
  if (shape === 'single' && main.temporal !== 'single') return 0.3;
  if (shape === 'pair' && main.temporal === 'series') return 0.1;
  return 0;
}

/** Does the context already give what the tool makes? (Atmospheric correction on L2A data.) */
function redundancy(tool: ToolRecord, state: ContextState): string | undefined {
  const outputs = specificOutputs(tool);
  if (outputs.length === 0) return undefined;
  const provided = [...state.provided];
  if (state.provided.has(tool.id)) return `the data already has ${label(tool.id)}`;
  const done = outputs.every((o) => provided.some((p) => productSatisfies(p, o)));
  return done ? `the data already is ${outputs.map(label).join(' / ')}` : undefined;
}

function label(id: string): string {
  return productInfo(id)?.en[0] ?? functionInfo(id)?.en[0] ?? id.replace(/^index:/, '').replace(/_/g, ' ');
}

/** Missing prerequisites as tool ids (a capability or product name is replaced by a tool that provides it). */
function missingAsToolIds(tool: ToolRecord, state: ContextState, snapshot: CatalogSnapshot, relevance: ReadonlyMap<string, number>): string[] {
  const chain = missingChainForState(tool, state, snapshot.lookup);
  const ids = chain.map((name) => (snapshot.lookup(name) ? name : (producerOf(name, snapshot, relevance)?.id ?? name)));
  return [...new Set(ids)].filter((id) => id !== tool.id);
}

interface RankOptions {
  catalogs?: readonly string[];
  weights: ScoringWeights;
  context: RequestContext;
  /** Set by rankForNeed when the query could not be embedded by the configured service. */
  degraded?: Degradation;
}

/** Said when the dense signal comes from the offline embedder instead of the configured service. */
export const OFFLINE_TOOL_FALLBACK =
  "candidates from the lexical index and the knowledge graph; the dense signal compares the request with each candidate's capability text using the offline embedder, computed for this search";

function kgCandidates(need: Need, snapshot: CatalogSnapshot): string[] {
  const out: string[] = [];
  for (const p of need.products.filter((x) => x.weight >= 0.5).slice(0, 3)) {
    if (isGenericProduct(p.id)) continue;
    out.push(...(snapshot.producers.get(p.id) ?? []).slice(0, KG_RECALL));
  }
  return [...new Set(out)];
}

/** Ranks the whole candidate set of one need (a request or a sub-task). */
export async function rankForNeed(db: Db, embedder: Embedder, snapshot: CatalogSnapshot, need: Need, options: RankOptions): Promise<Scored[]> {
  const w = options.weights;
  const typedTerms = queryTerms(need.text);
  // Words the catalog lacks may still share a word family with its terms (the stemmer is conservative),
  // or a meaning with some of them (word vectors).
  const related = relatedTerms(snapshot.lexical, typedTerms);
  const unknown = contentWords(need.text).filter((w) => !related.some((r) => r.term.startsWith(w.slice(0, 4))));
  const vectorTerms = WORD_SENSE.expansion && w.lexical > 0 ? expandUnknownWords(snapshot, unknown, informationOf, EXPANSION_FACTOR) : [];
  const terms: WeightedTerm[] = mergeTerms(typedTerms, related, vectorTerms, queryTerms(need.expansions.join(' , '), 0.4), queryTerms(need.facets.join(' , '), 0.3));
  const lexicalScores = scoreAll(snapshot.lexical, terms);
  const lexicalTop = lexicalScores.top(LEXICAL_RECALL).map(([id]) => id);
  const state = contextState(options.context);
  const kg = kgCandidates(need, snapshot);
  // The steps the likely leaders lack must be scored too, even if their text is far from the request.
  const helpers = [...lexicalTop.slice(0, 5), ...kg.slice(0, 5)].flatMap((id) => {
    const tool = snapshot.lookup(id);
    return tool ? missingAsToolIds(tool, state, snapshot, new Map()) : [];
  });
  const extra = [...new Set([...lexicalTop, ...kg, ...helpers])];
  const queryText = [need.text, ...need.expansions].join(' . ');
  const embedded = await queryEmbedderFor(embedder).embed([queryText]);
  let dense: DenseHit[];
  if (embedded.ok) {
    dense = await recallByVector(db, toVectorLiteral(embedded.vectors[0]!), { limit: DENSE_RECALL, catalogs: options.catalogs, extraIds: extra });
  } else {
    // No query vector: the stored tool vectors (of the configured model) cannot be searched, so the recall
    // comes from the lexical index (as deep as the dense recall would have been) and the knowledge graph,
    // and the dense signal compares texts with texts offline, for these candidates only.
    options.degraded ??= { component: 'embeddings', cause: embedded.cause, fallback: OFFLINE_TOOL_FALLBACK };
    const ids = [...new Set([...lexicalScores.top(DENSE_RECALL).map(([id]) => id), ...extra])].filter((id) => snapshot.tools.has(id));
    const [similarities] = await offlineSimilarities([queryText], ids.map((id) => snapshot.tools.get(id)!.capabilityText));
    dense = ids.map((id, i) => ({ id, cosine: similarities![i]! }));
  }
  const catalogs = options.catalogs && options.catalogs.length ? new Set(options.catalogs) : undefined;

  const maxDense = Math.max(1e-6, ...dense.map((d) => d.cosine));
  const maxLexical = Math.max(1e-6, ...dense.map((d) => lexicalScores.get(d.id)));
  const sum = w.dense + w.lexical + w.taskType + w.output + w.bands + w.name;
  const typed = new Set([...lexicalTerms(need.text).keys()].filter((t) => !t.includes('_')));
  const taskWeight = new Map(need.taskTypes.map((t) => [t.id, t.weight]));

  const dataModalities = sensorModalities(need.dataSources);
  const pool = dense
    .map((hit) => ({ hit, tool: snapshot.lookup(hit.id) }))
    .filter((x): x is { hit: typeof x.hit; tool: ToolRecord } => !!x.tool && (!catalogs || catalogs.has(x.tool.catalog)) && !incompatibility(x.tool, need, dataModalities));
  const rarity = bandRarity(pool.map((x) => x.tool), need.bands);
  const scored: Scored[] = [];
  for (const { hit, tool } of pool) {
    const s: Scored = {
      tool,
      dense: Math.max(0, hit.cosine) / maxDense,
      lexical: lexicalScores.get(hit.id) / maxLexical,
      taskType: taskWeight.get(tool.function) ?? 0,
      output: outputFit(tool, need.products),
      bands: bandFit(tool, need.bands, rarity),
      name: nameCoverage(tool, typed),
      similarity: 0,
      complementarity: 0,
      score: 0,
      missing: [],
      satisfied: [],
      notes: [],
      complements: [],
    };
    s.similarity = (w.dense * s.dense + w.lexical * s.lexical + w.taskType * s.taskType + w.output * s.output + w.bands * s.bands + w.name * s.name) / sum;
    scored.push(s);
  }
  scored.sort((a, b) => b.similarity - a.similarity);
  const relevance = new Map(scored.map((s) => [s.tool.id, s.similarity]));

  const explicit = new Set([...normalizeAvailable(options.context.available)].filter((p) => !isGenericProduct(p)));
  for (const s of scored) complementarity(s, state, explicit, options.context, snapshot, relevance, need);
  // A tool that supplies a missing step of one of the best matches complements it.
  const leaders = scored.slice(0, 3);
  const helped = new Map<Scored, Scored>();
  for (const leader of leaders) {
    for (const id of leader.missing) {
      const helper = scored.find((x) => x.tool.id === id);
      if (!helper || helper === leader) continue;
      helper.complementarity += 0.5 * (leader.similarity / Math.max(1e-6, scored[0]!.similarity));
      helper.complements.push(`provides the missing ${label(id)} step for ${leader.tool.id}`);
      if (!helped.has(helper)) helped.set(helper, leader);
    }
  }
  for (const s of scored) {
    s.complementarity = Math.max(-1, Math.min(1, s.complementarity));
    s.score = w.alpha * s.similarity + w.beta * s.complementarity;
  }
  // A missing step of the best match belongs in the list next to it, after its closest alternatives but
  // never above it: the user asked for the task, the step is what makes it runnable. (A helper that
  // matches the request better than its leader keeps its own place.)
  const best = Math.max(...leaders.map((l) => l.score));
  for (const [helper, leader] of helped) {
    if (helper.similarity >= leader.similarity) continue;
    const floor = (leader.score === best ? 0.8 : 0.6) * leader.score;
    helper.score = Math.min(Math.max(helper.score, floor), leader.score - 1e-3);
  }
  return scored.sort((a, b) => b.score - a.score || (a.tool.id < b.tool.id ? -1 : 1));
}

function complementarity(s: Scored, state: ContextState, explicit: ReadonlySet<string>, ctx: RequestContext, snapshot: CatalogSnapshot, relevance: ReadonlyMap<string, number>, need: Need): void {
  const tool = s.tool;
  let c = 0;
  // Prerequisites: met by the data = as runnable as a tool that needs nothing (0); unknown = a small doubt;
  // missing = extra steps before the tool can run. Penalties only, so that tools declaring prerequisites
  // are not favoured over tools that need none.
  if (tool.prerequisites.length) {
    let doubt = 0;
    for (const p of tool.prerequisites) {
      const status = prerequisiteStatus(p, state, snapshot.lookup);
      if (status === 'satisfied') s.satisfied.push(p);
      else doubt += status === 'missing' ? 1 : 0.25;
    }
    c -= (0.4 * doubt) / tool.prerequisites.length;
  }
  s.missing = missingAsToolIds(tool, state, snapshot, relevance);
  // Inputs the user explicitly has (not merely implied by a processing level): the tool uses them.
  const required = tool.inputs.filter((p) => !p.optional && p.product && !isGenericProduct(p.product));
  if (required.length && explicit.size) {
    const inHand = required.filter((p) => [...explicit].some((h) => productSatisfies(h, p.product!)));
    if (inHand.length) {
      c += (0.25 * inHand.length) / required.length;
      s.complements.push(`uses ${inHand.map((p) => label(p.product!)).join(', ')} you already have`);
    }
  }
  const done = redundancy(tool, state);
  if (done) {
    c -= 0.8 * (1 - s.taskType);
    s.notes.push(`${done}`);
  }
  // The request names a modality ("SAR imagery") the tool does not work on: a soft penalty (the hard
  // filter only applies when the data source is known).
  if (need.modalities.length && tool.modalities.length && !tool.modalities.some((m) => need.modalities.includes(m) || m === 'vector' || m === 'dem')) {
    c -= 0.3;
    s.notes.push(`works on ${tool.modalities.join('/')} data`);
  }
  const tp = temporalPenalty(tool, need.temporal);
  if (tp) {
    c -= tp;
    s.notes.push(`expects ${tool.inputs.find((p) => p.temporal)?.temporal} data`);
  }
  if (tool.attributes.deprecated) c -= 0.3;
  s.complementarity = c;
}

// ---------------------------------------------------------------------------------------------------
// Explanations

function explain(s: Scored, parsed: ParsedRequest, snapshot: CatalogSnapshot, need: Need): { why: string; matched: string[] } {
  const matched: string[] = [];
  const toolConcepts = new Set(snapshot.concepts.get(s.tool.id) ?? []);
  const concepts = parsed.concepts.filter((c) => !c.negated && toolConcepts.has(c.id));
  for (const c of concepts) matched.push(`'${c.form}' (${c.id.replace(/_/g, ' ')})`);
  if (s.taskType > 0.3) matched.push(`task type ${s.tool.function.replace(/_/g, ' ')}`);
  if (s.output > 0) {
    const wanted = need.products.find((p) => s.tool.outputs.some((o) => o.product && productSatisfies(o.product, p.id)));
    if (wanted) matched.push(`makes ${label(wanted.id)}`);
  }
  if (s.bands > 0) matched.push(`uses the ${need.bands.join(', ')} bands`);
  if (s.lexical > 0.2) {
    const docWords = new Set(lexicalTerms(`${s.tool.name} ${s.tool.id.replace(/[_:]/g, ' ')} ${s.tool.keywords.join(' ')}`).keys());
    const words = [...lexicalTerms(need.text).keys()].filter((t) => !t.includes('_') && docWords.has(t)).slice(0, 4);
    if (words.length) matched.push(`words: ${words.join(', ')}`);
  }
  if (matched.length === 0) matched.push(`similar capability description (cosine rank)`);
  const parts = [`matches ${matched.join('; ')}`];
  if (s.satisfied.length) parts.push(`prerequisites met by your data: ${s.satisfied.map(label).join(', ')}`);
  if (s.missing.length) parts.push(`missing first: ${s.missing.map(label).join(' -> ')}`);
  if (s.complements.length) parts.push(s.complements.join('; '));
  if (s.notes.length) parts.push(s.notes.join('; '));
  return { why: parts.join('. '), matched };
}

function toHit(s: Scored, parsed: ParsedRequest, snapshot: CatalogSnapshot, need: Need): ToolHit {
  const { why, matched } = explain(s, parsed, snapshot, need);
  return {
    id: s.tool.id,
    name: s.tool.name,
    catalog: s.tool.catalog,
    function: s.tool.function,
    score: round(s.score),
    similarity: round(s.similarity),
    complementarity: round(s.complementarity),
    why,
    missingPrerequisites: s.missing,
    matched,
    complements: s.complements,
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export function summarise(parsed: ParsedRequest): ParsedSummary {
  return {
    lang: parsed.lang,
    ...(parsed.taskTypes[0] ? { taskType: parsed.taskTypes[0].id } : {}),
    taskTypes: parsed.taskTypes.slice(0, 5).map((t) => ({ id: t.id, weight: round(t.weight) })),
    targetObjects: parsed.target.objects,
    targetProducts: parsed.target.products.filter((p) => p.weight >= 0.3).map((p) => p.id),
    concepts: [...new Set(parsed.concepts.filter((c) => !c.negated).map((c) => c.id))],
    ...(parsed.temporal ? { temporal: parsed.temporal } : {}),
    ...(parsed.spatial ? { spatial: parsed.spatial } : {}),
    ...(parsed.precision ? { precision: parsed.precision } : {}),
    ...(parsed.context.dataSource ? { dataSource: parsed.context.dataSource } : {}),
    dataSources: parsed.dataSources,
    ...(parsed.processingLevel ? { processingLevel: parsed.processingLevel } : {}),
    modalities: parsed.modalities,
    bands: parsed.bands,
    has: parsed.has,
    lacks: parsed.lacks,
    subTasks: parsed.subTasks.map((s) => s.text),
    expansions: parsed.expansions,
    confidence: round(parsed.confidence),
  };
}

// ---------------------------------------------------------------------------------------------------
// Workflows

/**
 * `candidate` makes nothing that `chosen` does not already make, in the same task type: an alternative,
 * not a further step (index:NDVI after ndvi; but speckle filtering after calibration is a step).
 */
function sameStep(chosen: ToolRecord, candidate: ToolRecord): boolean {
  if (chosen.id === candidate.id) return true;
  if (chosen.function !== candidate.function) return false;
  const made = specificOutputs(chosen);
  const makes = specificOutputs(candidate);
  return makes.length > 0 && makes.every((o) => made.some((p) => productSatisfies(p, o)));
}

/**
 * The chain of the strongest task concept that has one, ending at the step that makes what the concept
 * is about ("new construction" -> registration, building extraction, change classification).
 */
function conceptChain(parsed: ParsedRequest, snapshot: CatalogSnapshot, main: ToolRecord): ToolRecord[] | undefined {
  const concept = [...parsed.concepts]
    .filter((c) => !c.negated && conceptInfo(c.id)?.chain?.length)
    .sort((a, b) => b.weight - a.weight)[0];
  const info = concept ? conceptInfo(concept.id) : undefined;
  if (!info?.chain) return undefined;
  const chain = info.chain.map((id) => snapshot.lookup(id)).filter((t): t is ToolRecord => !!t);
  const goal = info.products?.[0];
  const end = goal ? chain.findIndex((t) => t.outputs.some((o) => o.product && productSatisfies(o.product, goal))) : -1;
  const cut = end >= 0 ? chain.slice(0, end + 1) : chain;
  // The chain must be about the same task as the best-matching tool, else it is not this request's chain.
  if (!cut.some((t) => sameStep(t, main) || t.function === main.function)) return undefined;
  return cut.map((t) => (sameStep(t, main) ? main : t));
}

// ---------------------------------------------------------------------------------------------------
// Entry points

function weightsOf(partial?: Partial<ScoringWeights>): ScoringWeights {
  return { ...DEFAULT_WEIGHTS, ...(partial ?? {}) };
}

function clarificationFor(parsed: ParsedRequest, ranked: Scored[]): Clarification | undefined {
  // Low confidence = the knowledge graph recognised (almost) nothing AND the text gives little to go on
  // (a weak best match, or a couple of words). A bare "NDVI" is recognised, so it is not ambiguous.
  const contentWords = [...lexicalTerms(parsed.query).keys()].filter((t) => !t.includes('_')).length;
  const weak = parsed.confidence < 0.35 && ((ranked[0]?.similarity ?? 0) < 0.45 || contentWords < 3);
  if (!weak) return undefined;
  const options: Clarification['options'] = [];
  for (const s of ranked.slice(0, 15)) {
    const existing = options.find((o) => o.taskType === s.tool.function);
    if (existing) {
      if (existing.exampleToolIds.length < 3) existing.exampleToolIds.push(s.tool.id);
      continue;
    }
    if (options.length < 4) options.push({ taskType: s.tool.function, label: functionInfo(s.tool.function)?.en[0] ?? s.tool.function, exampleToolIds: [s.tool.id] });
  }
  if (options.length < 2) return undefined;
  return { question: 'Which kind of processing do you mean?', options };
}

export interface PlanResult {
  tools: ToolHit[];
  parsed: ParsedRequest;
  workflow?: Workflow;
  clarification?: Clarification;
  memory?: MemoryUsed;
  degraded?: Degradation[];
}

/** Runs the request: ranking (per sub-task for multi-step requests), explanations and the workflow. */
export async function runToolSearch(db: Db, embedder: Embedder, request: ToolSearchRequest): Promise<PlanResult> {
  const k = request.k ?? 10;
  const weights = weightsOf(request.weights);
  const parsed = parseToolRequest(request.query, request.context ?? {});
  const snapshot = await catalogSnapshot(db);
  const options: RankOptions = { catalogs: request.catalogs, weights, context: parsed.context };

  if (parsed.subTasks.length >= 2) {
    const result = await multiStep(db, embedder, snapshot, parsed, options, k);
    return { ...result, ...(options.degraded ? { degraded: [options.degraded] } : {}) };
  }

  const need = needOf(parsed);
  const ranked = await rankForNeed(db, embedder, snapshot, need, options);
  const memory = request.memory === false ? {} : await applyMemoryPriors(db, parsed, ranked);
  const tools = ranked.slice(0, k).map((s) => toHit(s, parsed, snapshot, need));
  const clarification = clarificationFor(parsed, ranked);
  let workflow: Workflow | undefined;
  const main = ranked[0];
  if (main && !clarification) {
    const remembered = memory.chain?.toolIds.map((id) => snapshot.lookup(id)).filter((t): t is ToolRecord => !!t);
    const chain = (remembered?.length ? remembered : undefined) ?? conceptChain(parsed, snapshot, main.tool) ?? [main.tool];
    const relevance = new Map(ranked.map((s) => [s.tool.id, s.similarity]));
    workflow = composeWorkflow(
      { steps: chain.map((t) => ({ tool: t, why: t.id === main.tool.id ? 'best match for the request' : remembered?.length ? `step of ${memory.chain!.why}` : `typical step of this task` })), context: parsed.context },
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

/**
 * Multi-step requests: each clause is ranked on its own and the whole request once more. The list is the
 * whole request's ranking fused with the clauses' (each by its share of its own best score), so a tool the
 * whole text matches is never lost to a clause that reads badly on its own ("I already have a raster"),
 * and then every step's best tool is placed within the top k, so no step of the chain goes missing.
 */
async function multiStep(db: Db, embedder: Embedder, snapshot: CatalogSnapshot, parsed: ParsedRequest, options: RankOptions, k: number): Promise<PlanResult> {
  const wholeNeed = needOf(parsed);
  const [whole, ...rankings] = await Promise.all([
    rankForNeed(db, embedder, snapshot, wholeNeed, options).then((ranked) => ({ need: wholeNeed, ranked })),
    ...parsed.subTasks.map(async (sub) => {
      const need = needOf(parsed, sub);
      return { sub, need, ranked: await rankForNeed(db, embedder, snapshot, need, options) };
    }),
  ]);
  // One step per clause. When a clause's best tool is already a step ("detect and map floods"), the clause
  // only adds a step if a distinct tool fits it nearly as well.
  const chosen: { scored: Scored; sub: SubTask; need: Need }[] = [];
  for (const r of rankings) {
    const top = r.ranked[0];
    const pick = r.ranked.find((s) => !chosen.some((c) => sameStep(c.scored.tool, s.tool)));
    if (!top || !pick) continue;
    if (pick !== top && pick.score < 0.85 * top.score) continue;
    chosen.push({ scored: pick, sub: r.sub!, need: r.need });
  }
  const best = new Map<string, { s: Scored; need: Need; rel: number }>();
  const offer = (s: Scored, need: Need, rel: number) => {
    const current = best.get(s.tool.id);
    if (!current || rel > current.rel) best.set(s.tool.id, { s, need, rel });
  };
  const wholeTop = Math.max(1e-6, whole!.ranked[0]?.score ?? 1);
  for (const s of whole!.ranked) offer(s, whole!.need, s.score / wholeTop);
  for (const r of rankings) {
    const top = Math.max(1e-6, r.ranked[0]?.score ?? 1);
    for (const s of r.ranked) offer(s, r.need, CLAUSE_SHARE * (s.score / top));
  }
  const merged = [...best.values()].sort((a, b) => b.rel - a.rel || (a.s.tool.id < b.s.tool.id ? -1 : 1));
  const top = placeSteps(merged, chosen.map((c) => c.scored.tool.id), k);
  const hits = top.map(({ s, need }) => toHit(s, parsed, snapshot, need));
  const relevance = new Map(merged.map((r) => [r.s.tool.id, r.rel]));
  const workflow = composeWorkflow(
    { steps: chosen.map((c) => ({ tool: c.scored.tool, why: `for "${c.sub.text}"` })), context: parsed.context },
    snapshot,
    { candidates: chosen.map((c) => c.scored.tool), relevance },
  );
  return { tools: hits, parsed, workflow };
}

/** How much a clause's own ranking counts against the whole request's (relative scores, 0..1). */
const CLAUSE_SHARE = 0.9;

/**
 * The first k of `ranked`, with every id of `steps` among them: a step below the cut takes the place of
 * the last item that is not a step (the order of the rest is kept).
 */
export function placeSteps<T extends { s: { tool: { id: string } } }>(ranked: readonly T[], steps: readonly string[], k: number): T[] {
  const top = ranked.slice(0, k);
  const wanted = new Set(steps.slice(0, k));
  const missing = ranked.slice(k).filter((r) => wanted.has(r.s.tool.id));
  for (const step of missing) {
    let i = top.length - 1;
    while (i >= 0 && wanted.has(top[i]!.s.tool.id)) i--;
    if (i < 0) break;
    top.splice(i, 1);
    top.push(step);
  }
  return top;
}

/** POST /v1/tools/search. */
export async function searchTools(db: Db, embedder: Embedder, request: ToolSearchRequest): Promise<ToolSearchResponse> {
  const result = await runToolSearch(db, embedder, request);
  return {
    tools: result.tools,
    parsed: summarise(result.parsed),
    ...(result.workflow ? { workflow: result.workflow } : {}),
    ...(result.clarification ? { clarification: result.clarification } : {}),
    ...(result.memory ? { memory: result.memory } : {}),
    ...(result.degraded ? { degraded: result.degraded } : {}),
  };
}

/** POST /v1/workflows/plan: the chain for a request (the search runs underneath to pick the tools). */
export async function planWorkflow(db: Db, embedder: Embedder, request: { query: string; context?: RequestContext; catalogs?: string[] }) {
  const result = await runToolSearch(db, embedder, { ...request, k: 10 });
  const main = result.tools[0];
  const workflow: Workflow = result.workflow ?? (main ? { steps: [{ toolId: main.id, why: 'best match for the request' }], valid: main.missingPrerequisites.length === 0 } : { steps: [], valid: false, problems: ['no tool matches the request'] });
  return {
    workflow,
    parsed: summarise(result.parsed),
    tools: result.tools.slice(0, 5),
    ...(result.clarification ? { clarification: result.clarification } : {}),
    ...(result.degraded ? { degraded: result.degraded } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------
// Baselines (evaluation): the same catalog, one signal each.

/** BM25 over the raw tool texts (name, id words, description, keywords). */
export async function searchBm25Baseline(db: Db, query: string, k: number): Promise<{ tools: { id: string; missingPrerequisites: string[] }[] }> {
  const snapshot = await catalogSnapshot(db);
  const top = topLexical(snapshot.baselineLexical(), queryTerms(query), k);
  return { tools: top.map(([id]) => ({ id, missingPrerequisites: [] })) };
}

/** Plain dense similarity: the pgvector cosine ranking of the query against the stored vectors. */
export async function searchDenseBaseline(db: Db, embedder: Embedder, query: string, k: number): Promise<{ tools: { id: string; missingPrerequisites: string[] }[] }> {
  const [vector] = await embedder.embed([query]);
  const hits = await recallByVector(db, toVectorLiteral(vector!), { limit: Math.max(k, 1) });
  return { tools: hits.sort((a, b) => b.cosine - a.cosine).slice(0, k).map((h) => ({ id: h.id, missingPrerequisites: [] })) };
}
