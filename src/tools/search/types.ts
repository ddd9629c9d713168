/** The shapes of tool search: requests, hits, the parsed summary, and one need with its scored candidates. */
import type { Degradation } from '../../embedding/query-embedding.ts';
import type { MemoryUsed } from '../../memory/priors.ts';
import type { RequestContext } from '../prerequisites.ts';
import type { ParsedRequest, Weighted } from '../request/index.ts';
import type { Temporal, ToolRecord } from '../schema.ts';
import type { Workflow } from '../workflow.ts';
import type { ToolRerankChoice, ToolRerankInfo } from './llm-rerank.ts';

/** The signals inside similarity: each candidate's values (0..1), and their weights in the mix. */
export interface Signals {
  dense: number;
  lexical: number;
  taskType: number;
  output: number;
  bands: number;
  /** Share of the tool name's words that the request uses ("Load a collection" for "load the collection"). */
  name: number;
}

/** final = alpha * similarity + beta * complementarity; the signals' weights are normalised by their sum. */
export interface ScoringWeights extends Signals {
  alpha: number;
  beta: number;
}

export interface ToolSearchRequest {
  query: string;
  k?: number;
  context?: RequestContext;
  catalogs?: string[];
  weights?: Partial<ScoringWeights>;
  /** Apply workflow-memory priors (src/memory); default true. */
  memory?: boolean;
  /** Who orders the tools: the configured language model ('auto', the default, or 'llm') or the rules alone. */
  rerank?: ToolRerankChoice;
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
  /** The language model's reason, when it ordered the tools and chose this one. */
  rankReason?: string;
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
  /** Which memory items guided the ranking. */
  memory?: MemoryUsed;
  /** Present when the ranking was computed without the embeddings service: why, and what was used instead. */
  degraded?: Degradation[];
  /** Who ordered the tools (with the model's name, and why its order was not used when it was not). */
  rerank: ToolRerankInfo;
}

/** The request channel's reading, as returned to clients. */
export interface ParsedSummary
  extends Pick<ParsedRequest, 'lang' | 'taskTypes' | 'temporal' | 'spatial' | 'precision' | 'dataSources' | 'processingLevel' | 'modalities' | 'bands' | 'absentBands' | 'onlyBands' | 'has' | 'lacks' | 'expansions' | 'confidence'> {
  taskType?: string;
  targetObjects: string[];
  targetProducts: string[];
  concepts: string[];
  dataSource?: string;
  subTasks: string[];
}

export interface Need {
  text: string;
  expansions: string[];
  /** Words for the constraints the request states (dates, a bounding box, a target grid). */
  facets: string[];
  taskTypes: Weighted[];
  products: Weighted[];
  bands: string[];
  /** Bands the user's data does not have: a tool that needs one cannot run on it. */
  absentBands: string[];
  /** All the bands the user's data has, when the user says so: a tool declaring another cannot run on it. */
  onlyBands: string[];
  /** The kind of product the question asks which one of: tools making none of it are not the answer. */
  askedProducts: string[];
  /** Modalities of the user's data (filter) and of the request overall. */
  modalities: string[];
  dataSources: string[];
  temporal?: Temporal;
  /** Share of the text the readings cover: how far the task types and products read from it are to be trusted. */
  coverage: number;
  /** The Chinese words no graph form covers, each with the English words of the sense meant: the user's own words, translated. */
  glosses: Gloss[];
}

/** A Chinese word and the informative English words of the dictionary sense chosen for it. */
export interface Gloss {
  text: string;
  words: string[];
}

export interface Scored extends Signals {
  tool: ToolRecord;
  similarity: number;
  complementarity: number;
  score: number;
  missing: string[];
  satisfied: string[];
  notes: string[];
  complements: string[];
  /** What each request word adds to this tool's BM25 score: which parts of the request the tool answers. */
  aspects?: Map<string, number>;
}

export interface RankOptions {
  catalogs?: readonly string[];
  weights: ScoringWeights;
  context: RequestContext;
  /** Set by rankForNeed when the query could not be embedded by the configured service. */
  degraded?: Degradation;
}

export interface PlanResult {
  tools: ToolHit[];
  parsed: ParsedRequest;
  workflow?: Workflow;
  clarification?: Clarification;
  memory?: MemoryUsed;
  degraded?: Degradation[];
}
