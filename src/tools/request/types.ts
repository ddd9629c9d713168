/** What the request channel reads in a tool request: its slots and sub-tasks. */
import type { RequestContext } from '../prerequisites.ts';
import type { Temporal } from '../schema.ts';

export interface Weighted {
  id: string;
  weight: number;
}

export interface ConceptHit extends Weighted {
  kind: string;
  form: string;
  /** Mentioned under a negation ("not co-registered"): a statement about the data, not a request. */
  negated: boolean;
}

export interface TemporalSlot {
  /** One acquisition, a before/after pair, or a time series / period. */
  shape?: Temporal;
  /** Every date mentioned, resolved to ISO (years to their first day). */
  dates: string[];
  /** A requested interval, ISO dates, end inclusive. */
  start?: string;
  end?: string;
  /** An interval is named but its year is not ("from March to May"): no dates, still a period. */
  undated?: boolean;
  text: string[];
}

export interface SpatialSlot {
  kind: 'bbox' | 'place' | 'zones' | 'grid';
  text: string;
}

export interface PrecisionSlot {
  /** Finest ground resolution mentioned, metres. */
  resolutionM?: number;
  /** Qualitative requirement ("very high resolution", "sub-metre"). */
  class?: string;
  text: string[];
}

/** A Chinese word no form of the graph covers, with the informative English words of each of its CC-CEDICT senses, commonest first. */
export interface GlossedWord {
  text: string;
  senses: string[][];
}

export interface SubTask {
  /** The clause as written. */
  text: string;
  /** What is searched for the clause: its text plus the request's shared context words. */
  query: string;
  concepts: ConceptHit[];
  taskTypes: Weighted[];
  products: Weighted[];
  /** Share of the clause's information its readings cover (0..1). */
  coverage: number;
  /** The Chinese words no graph form covers, with their dictionary senses. */
  glossed: GlossedWord[];
}

export interface ParsedRequest {
  query: string;
  lang: 'en' | 'zh';
  /** Task types (tool `function` values), strongest 1. */
  taskTypes: Weighted[];
  concepts: ConceptHit[];
  /** What the user wants made: products (strongest 1) and target objects (concept ids). */
  target: { products: Weighted[]; objects: string[] };
  temporal?: TemporalSlot;
  spatial?: SpatialSlot;
  precision?: PrecisionSlot;
  dataSources: string[];
  processingLevel?: string;
  modalities: string[];
  bands: string[];
  /** Bands the text says the data does not have ("no near-infrared", 没有近红外). */
  absentBands: string[];
  /** All the bands the data has, when the text says so ("only RGB", 只有RGB); empty otherwise. */
  onlyBands: string[];
  /** The kind of product a question asks which one of ("which index", 用哪个指数); empty otherwise. */
  askedProducts: string[];
  /** Products/capabilities the text says the user has, and does not have. */
  has: string[];
  lacks: string[];
  /** The client's context merged with what the text says. */
  context: RequestContext;
  /** Clauses that each ask for a step; two or more make a multi-step request. */
  subTasks: SubTask[];
  /** Words from the knowledge graph added to the search (canonical names of what was recognised). */
  expansions: string[];
  /** Share of the request's information its readings cover (0..1). */
  coverage: number;
  /** The Chinese words no graph form covers, with their dictionary senses. */
  glossed: GlossedWord[];
  /** 0..1: how much of the request the knowledge graph recognised. */
  confidence: number;
}
