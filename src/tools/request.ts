/**
 * The request channel: a tool request in English or Chinese parsed into slots (task type, target object
 * and product, temporal constraint with resolved dates, spatial constraint, data source, processing
 * level, precision), enriched from the knowledge graph, split into sub-tasks when it asks for several
 * steps, and merged with the client's context (what the user's data already is, and is not).
 */
import {
  canonicalDataSource,
  conceptInfo,
  findLevel,
  findSensor,
  functionInfo,
  knowledgeGraph,
  matchForms,
  normalizeForMatch,
  productInfo,
  productSatisfies,
  resolveDataSources,
  sensorByDataSource,
  type FormMatch,
} from './knowledge.ts';
import type { RequestContext } from './prerequisites.ts';
import { CONCEPT_TUNING, WORD_SENSE, conceptCloseness, conceptsOfWords, contentWords, informationOf } from './word-sense.ts';
import { glossChinese } from '../lexicon/zh-gloss.ts';
import type { Temporal } from './schema.ts';

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

export interface SubTask {
  /** The clause as written. */
  text: string;
  /** What is searched for the clause: its text plus the request's shared context words. */
  query: string;
  concepts: ConceptHit[];
  taskTypes: Weighted[];
  products: Weighted[];
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
  /** Products/capabilities the text says the user has, and does not have. */
  has: string[];
  lacks: string[];
  /** The client's context merged with what the text says. */
  context: RequestContext;
  /** Clauses that each ask for a step; two or more make a multi-step request. */
  subTasks: SubTask[];
  /** Words from the knowledge graph added to the search (canonical names of what was recognised). */
  expansions: string[];
  /** 0..1: how much of the request the knowledge graph recognised. */
  confidence: number;
}

const HAN = /\p{Script=Han}/u;

// ---------------------------------------------------------------------------------------------------
// Weights of surface-form matches

/** Longer, multi-word forms are more specific than single generic words. */
function formWeight(form: string): number {
  if (HAN.test(form)) return 1 + 0.35 * (Math.min(Math.max(form.length / 2, 1), 4) - 1);
  const words = form.split(/[\s-]+/).length;
  return 1 + 0.35 * (Math.min(words, 4) - 1);
}

const NEGATION_EN = /\b(?:not|no|never|without|nor|hasn't|haven't|isn't|aren't|wasn't|weren't|lacks?|lacking|missing|un)\b/;
const NEGATION_ZH = /未|没有|尚未|还没|无|不是|缺少|没/;

/**
 * Chinese asks yes/no questions by repeating a verb around 不 or 没 ("是不是", "有没有", "会不会"): the
 * 不 there is the question's form, not a negation of what follows, so the repeated form is removed
 * before looking for negation words.
 */
export function withoutYesNoQuestions(text: string): string {
  return text.replace(/(\p{Script=Han})[不没]\1/gu, '');
}

const NUMBER_WORD = '(?:\\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|a few|few|several|couple of)';
const TIME_UNIT = '(?:hours?|days?|nights?|weeks?|months?|years?|decades?|seasons?|summers?|winters?|springs?|autumns?)';
const RELATIVE_TIME_EN = new RegExp(
  `\\b(?:(?:over|during|in|for|within)\\s+)?(?:the\\s+)?(?:(?:last|past|previous|recent|coming|next)\\s+(?:${NUMBER_WORD}\\s+)?${TIME_UNIT}|${NUMBER_WORD}\\s+${TIME_UNIT}\\s+ago|yesterday|today|tonight)(?:'s)?\\b`,
  'gi',
);
const RELATIVE_TIME_ZH = /(?:过去|最近|近|这|前)(?:[0-9一二两三四五六七八九十几]+)(?:个)?(?:年|月|周|天)(?:来|里|间|中)?|昨天|昨晚|前天|今天|去年|上个月|上周/g;

/**
 * Relative time ("over the last twenty years", "last night's", "过去十年") says when, not what to do;
 * its words ("last", "next") are also names of array operations in process catalogs. It is taken out of
 * the text that is matched against tools, like any other statement of the setting.
 */
export function withoutRelativeTime(text: string): string {
  return text.replace(RELATIVE_TIME_EN, ' ').replace(RELATIVE_TIME_ZH, ' ').replace(/\s{2,}/g, ' ').trim();
}

const DONE_EN = /\b(?:already|previously)\b/;
const DONE_ZH = /已经|已/;

/**
 * "already co-registered", "已经配准好的": work said to be done describes the data the user has, not a
 * step to run (like a negation, it is a statement about the data, with the opposite sign).
 */
function doneAt(norm: string, start: number): boolean {
  const before = norm.slice(Math.max(0, start - 28), start);
  if (HAN.test(before)) return DONE_ZH.test(before.slice(-4));
  return DONE_EN.test(before.split(/\s+/).slice(-3).join(' '));
}

/** A negation word shortly before a mention ("have not been co-registered", "no classification"). */
function negatedAt(norm: string, start: number): boolean {
  const before = norm.slice(Math.max(0, start - 28), start);
  if (HAN.test(before)) return NEGATION_ZH.test(withoutYesNoQuestions(before).slice(-6));
  const words = before.split(/\s+/).slice(-5).join(' ');
  return NEGATION_EN.test(words);
}

// ---------------------------------------------------------------------------------------------------
// Clause splitting

/** Imperative verbs of EO processing: a clause starting with one asks for a step. */
const STEP_VERBS = new Set(
  (
    'compute calculate derive estimate map extract detect classify mask filter load save export apply run build create ' +
    'generate produce aggregate resample align stack merge fuse register coregister co-register orthorectify ' +
    'calibrate speckle-filter terrain-correct threshold compare convert subset clip crop reduce fit mosaic pansharpen ' +
    'pan-sharpen super-resolve smooth fill count summarize summarise quantify measure monitor identify delineate ' +
    'segment correct remove reproject composite interpolate train predict assess track perform do make write ' +
    'download upload retrieve despeckle geocode normalize normalise difference differentiate sample buffer ' +
    'overlay intersect rasterize rasterise vectorize vectorise polygonize polygonise'
  ).split(' '),
);
const ZH_STEP_VERBS = /^(?:计算|提取|统计|生成|制作|进行|做|估算|反演|检测|识别|分类|裁剪|镶嵌|融合|配准|校正|导出|保存|加载|掩膜|去除|合成|聚合|重采样|滤波|求|得到|绘制|输出)/;

/**
 * Splits at sentence ends, semicolons, line breaks, list markers ("1.", "2)", "-", "•", "①") and sequence
 * words ("then"); commas and "and" only before a verb.
 */
const LIST_MARKERS = /\s*(?:\n+\s*(?:[-*•]\s+)?|(?:^|\s)(?:\(?\d{1,2}[.)）]|[①-⑩]|[（(]\d{1,2}[)）])\s+|\s[•]\s+|[①-⑩])\s*/u;
const SEQUENCE_WORDS_EN = /\s*,?\s*\b(?:and then|then|followed by|afterwards|after that|finally|next)\b\s*/;
const SEQUENCE_WORDS_ZH = /，?(?:然后|接着|之后|随后|最后|再)/u;

/**
 * The user laid the work out as steps: a numbered or bulleted list, or sequence words ("then", "finally",
 * 先…再…最后). Each item is then a step in its own right, even one the knowledge graph reads nothing in.
 */
export function isExplicitSequence(query: string): boolean {
  return query.trim().split(LIST_MARKERS).filter(Boolean).length >= 2 || SEQUENCE_WORDS_EN.test(query) || SEQUENCE_WORDS_ZH.test(query);
}

export function splitClauses(query: string): string[] {
  const hard = query
    .split(LIST_MARKERS)
    .flatMap((part) =>
      part.split(
        new RegExp(
          `(?:[;；。!?！？]\\s*|\\.\\s+(?=[A-Z\\p{Script=Han}])|${SEQUENCE_WORDS_EN.source}|${SEQUENCE_WORDS_ZH.source}|，并且?|，再|并且?(?=(?:计算|提取|统计|生成|制作|估算|反演|检测|识别|分类|裁剪|镶嵌|融合|配准|校正|导出|保存|绘制|输出)))`,
          'u',
        ),
      ),
    )
    .map((s) => s.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const part of hard) {
    const soft = part.split(/(\s*,\s*|\s+and\s+|\s*&\s*|，)/u);
    let current = soft[0] ?? '';
    for (let i = 1; i < soft.length; i += 2) {
      const next = soft[i + 1] ?? '';
      const first = normalizeForMatch(next).trim().split(/\s+/)[0] ?? '';
      if (STEP_VERBS.has(first) || ZH_STEP_VERBS.test(next.trim())) {
        out.push(current.trim());
        current = next;
      } else {
        current += soft[i]! + next;
      }
    }
    if (current.trim()) out.push(current.trim());
  }
  return out.filter((s) => /[\p{L}\p{N}]/u.test(s));
}

// ---------------------------------------------------------------------------------------------------
// Concepts, task types, products

interface TextFacts {
  concepts: ConceptHit[];
  taskTypes: Weighted[];
  products: Weighted[];
  has: string[];
  lacks: string[];
  hits: FormMatch[];
  /** An operation is named (a task concept, or a function form that is not a weak one), not only objects. */
  explicitTask: boolean;
  /** English senses of Chinese words the graph does not list (CC-CEDICT). */
  glosses: string[];
}

const INPUT_MARKERS_EN = /\b(?:from|using|use|with|my|given|based on|on my|of my|in my|existing)\s+(?:\S+\s+){0,3}$/;
const INPUT_MARKERS_ZH = /(?:利用|基于|用|从|根据|对|已有|现有)[^，。]{0,8}$/;
const TARGET_MARKERS_EN = /\b(?:compute|calculate|derive|estimate|produce|generate|create|map|extract|retrieve|convert\s+\S+(?:\s+\S+){0,4}\s+to|into|build|make|get)\s+(?:\S+\s+){0,4}$/;
const TARGET_MARKERS_ZH = /(?:计算|提取|估算|反演|生成|制作|得到|求|绘制)[^，。]{0,6}$/;

function isInputMention(norm: string, h: FormMatch): boolean {
  const before = norm.slice(0, h.start);
  return HAN.test(h.form) || HAN.test(before.slice(-2)) ? INPUT_MARKERS_ZH.test(before) : INPUT_MARKERS_EN.test(before);
}

function isTargetMention(norm: string, h: FormMatch): boolean {
  const before = norm.slice(0, h.start);
  return HAN.test(h.form) || HAN.test(before.slice(-2)) ? TARGET_MARKERS_ZH.test(before) : TARGET_MARKERS_EN.test(before);
}

function addWeight(map: Map<string, number>, id: string, w: number): void {
  map.set(id, (map.get(id) ?? 0) + w);
}

/** Absolute weights scaled so that one clear request (a task concept) is 1. */
function capped(map: Map<string, number>): Weighted[] {
  const max = Math.max(1, ...map.values());
  return [...map]
    .map(([id, w]) => ({ id, weight: w / max }))
    .sort((a, b) => b.weight - a.weight || (a.id < b.id ? -1 : 1));
}

/** Generic container words that name a task type only weakly ("the data cube", "the result"). */
const WEAK_FUNCTION_FORMS = new Set(['data cube', 'datacube', 'dimension', 'date', 'time', 'text', 'array', 'processing', 'statistics', 'statistic', 'filter', 'extract', 'extraction', 'mapping of', 'export', 'save', 'import', 'load']);

/**
 * Surface forms in a text, also reading hyphens between letters as spaces ("speckle-filter" is the
 * form "speckle filter"; offsets do not move). Within a kind, a hit inside a longer one is dropped.
 */
export function matchFormsLoose(text: string): FormMatch[] {
  const spaced = text.replace(/(?<=\p{L})-(?=\p{L})/gu, ' ');
  const all = spaced === text ? matchForms(text) : [...matchForms(text), ...matchForms(spaced)];
  const kept: FormMatch[] = [];
  for (const h of all) {
    const covered = all.some(
      (o) => o !== h && o.kind === h.kind && o.start <= h.start && o.end >= h.end && (o.end - o.start > h.end - h.start || all.indexOf(o) < all.indexOf(h)),
    );
    if (!covered) kept.push(h);
  }
  return kept.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** Task types that apply to any variable (a composite of NDVI, statistics of LST, a trend of anything). */
const OPERATION_FUNCTIONS = new Set(['temporal_aggregation', 'statistics', 'reduction', 'time_series_analysis', 'climatology', 'subsetting', 'resampling', 'masking', 'export', 'cube_manipulation']);

/**
 * "land surface temperature anomalies": a concept right before an operation concept that makes no
 * product of its own (anomalies, trend, statistics) is the variable operated on, not the task.
 */
function operandHits(hits: readonly FormMatch[], norm: string): Set<FormMatch> {
  const out = new Set<FormMatch>();
  const concepts = hits.filter((h) => h.kind === 'concept');
  for (const a of concepts) {
    for (const b of concepts) {
      if (b === a || b.start < a.end || !/^[\s-]{0,2}$/.test(norm.slice(a.end, b.start))) continue;
      const operation = b.ids.some((id) => {
        const c = conceptInfo(id);
        return c?.kind === 'task' && (!c.products?.length || OPERATION_FUNCTIONS.has(c.functions?.[0] ?? ''));
      });
      if (operation) out.add(a);
    }
  }
  return out;
}

/** Seasons and months say when, like relative time: setting, never a reading of the task. */
const TIME_WORDS = /^(?:spring|summer|autumn|fall|winter|season|seasons|january|february|march|april|may|june|july|august|september|october|november|december|morning|evening|night|week|month|year|years|decade|today|yesterday|tomorrow)$/;
/**
 * Where a word stands in a phrase of place ("in our reservoir", "along the coast", "next to the school"):
 * a locative preposition, then determiners and modifiers. Such words say where the work is done (setting),
 * not what is measured, so they are not read as a task; an object named there only qualifies the task.
 */
const SETTING_BEFORE = /\b(?:in|on|at|near|along|around|across|inside|within|beside|throughout|next to|close to|around|behind|outside|upstream of|downstream of)\s+(?:(?:the|a|an|my|our|your|their|his|her|its|this|that|these|those|whole|entire|local|nearby|same)\s+)*(?:[a-z-]+\s+){0,2}$/;

export function inSetting(norm: string, start: number): boolean {
  return SETTING_BEFORE.test(norm.slice(Math.max(0, start - 60), start));
}

/**
 * Concepts read by word vectors (word-sense.ts) for the words that no form of the graph covers: in
 * English each remaining content word that carries information, in Chinese each remaining dictionary
 * word, through its CC-CEDICT senses. Words of the setting (place phrases, seasons) are left alone.
 */
function inferredHits(norm: string, hits: readonly FormMatch[]): { hits: FormMatch[]; scale: Map<FormMatch, number>; glosses: string[] } {
  const covered = (start: number, end: number) => hits.some((h) => h.start < end && h.end > start);
  const readable = (w: string) => !TIME_WORDS.test(w) && contentWords(w).length > 0 && informationOf(w) >= CONCEPT_TUNING.minInformation;
  // Unknown words with where they stand; a Chinese word stands for the English words of its senses.
  const words: { text: string; start: number; end: number; english: string[] }[] = [];
  const glosses: string[] = [];
  // English words only matter to the concept reading; Chinese ones also give glosses to the search.
  for (const m of WORD_SENSE.concepts ? norm.matchAll(/[a-z][a-z-]+/g) : []) {
    const end = m.index + m[0].length;
    if (!covered(m.index, end) && !inSetting(norm, m.index) && readable(m[0])) words.push({ text: m[0], start: m.index, end, english: [m[0]] });
  }
  for (const m of norm.matchAll(/\p{Script=Han}+/gu)) {
    let offset = m.index;
    for (const seg of glossChinese(m[0])) {
      const start = offset;
      offset += seg.text.length;
      if ([...seg.text].length < 2 || seg.name || covered(start, offset)) continue;
      const english = seg.senses.flatMap((sense) => contentWords(sense)).filter(readable);
      if (english.length === 0) continue;
      glosses.push(seg.senses.slice(0, 2).join(' , '));
      words.push({ text: seg.text, start, end: offset, english });
    }
  }
  const out: FormMatch[] = [];
  const scale = new Map<FormMatch, number>();
  for (const c of WORD_SENSE.concepts ? conceptsOfWords(words.flatMap((w) => w.english)) : []) {
    // The reading is placed on the word that is closest to the concept.
    const at = words
      .map((w) => ({ w, closeness: Math.max(0, ...w.english.map((e) => conceptCloseness(e).get(c.id) ?? 0)) }))
      .sort((a, b) => b.closeness - a.closeness)[0]!.w;
    const hit: FormMatch = { kind: 'concept', ids: [c.id], form: at.text, start: at.start, end: at.end };
    out.push(hit);
    scale.set(hit, Math.min(1, CONCEPT_TUNING.weight * c.score));
  }
  return { hits: out, scale, glosses };
}

function textFacts(text: string, infer = true): TextFacts {
  const norm = normalizeForMatch(text);
  const listed = matchFormsLoose(text);
  const inferred = infer ? inferredHits(norm, listed) : { hits: [], scale: new Map<FormMatch, number>(), glosses: [] };
  const hits = [...listed, ...inferred.hits].sort((a, b) => a.start - b.start || b.end - a.end);
  const operands = operandHits(hits, norm);
  const concepts: ConceptHit[] = [];
  const fnScores = new Map<string, number>();
  const productScores = new Map<string, number>();
  const has = new Set<string>();
  const lacks = new Set<string>();

  // A concept inside a state word ("co-registered pair") or inside the name of data the user already
  // has ("利用…土地覆盖分类图") describes the data, not the task asked for.
  const stateSpans = hits.filter(
    (h) => h.kind === 'capability' || (h.kind === 'product' && isInputMention(norm, h)),
  );
  const insideState = (h: FormMatch) => stateSpans.some((s) => s !== h && s.start <= h.start && s.end >= h.end);

  // With an explicit operation in the clause ("buffer the road lines"), an object only qualifies it.
  const explicitTask = hits.some(
    (h) =>
      !insideState(h) &&
      ((h.kind === 'concept' && h.ids.some((id) => conceptInfo(id)?.kind === 'task')) || (h.kind === 'function' && !WEAK_FUNCTION_FORMS.has(h.form))),
  );
  for (const h of hits) {
    const negated = negatedAt(norm, h.start);
    const isObject = h.kind === 'concept' && h.ids.every((id) => conceptInfo(id)?.kind === 'object');
    const operand = [...operands].some((o) => o.start <= h.start && o.end >= h.end);
    const w = (inferred.scale.get(h) ?? formWeight(h.form)) * (operand ? 0.4 : 1) * (isObject && explicitTask ? 0.3 : 1);
    const before = norm.slice(0, h.start);
    if (h.kind === 'concept' && insideState(h)) continue;
    if (h.kind === 'concept') {
      for (const id of h.ids) {
        const c = conceptInfo(id);
        if (!c) continue;
        if (!negated && c.kind === 'task' && doneAt(norm, h.start)) {
          for (const t of c.tools?.slice(0, 1) ?? []) has.add(t);
          for (const p of c.products?.slice(0, 1) ?? []) has.add(p);
          continue;
        }
        concepts.push({ id, kind: c.kind, form: h.form, weight: w, negated });
        if (negated) {
          for (const t of c.tools?.slice(0, 1) ?? []) lacks.add(t);
          for (const p of c.products?.slice(0, 1) ?? []) lacks.add(p);
          continue;
        }
        // The first task type of a concept is its typical one; later ones are plausible alternatives.
        (c.functions ?? []).forEach((f, rank) => addWeight(fnScores, f, w / (rank + 1)));
        if (c.kind === 'task' || c.kind === 'object') {
          // An object under an explicit operation is its operand ("buffer the road lines"), not the product.
          const share = c.kind === 'task' ? 1 : explicitTask ? 0.5 : 0.7;
          (c.products ?? []).forEach((p, rank) => addWeight(productScores, p, (w * share) / (rank + 1)));
        }
      }
    } else if (h.kind === 'function') {
      // "classification" inside "post-classification comparison": the concept already says it better.
      if (insideState(h) || hits.some((c) => c.kind === 'concept' && c.start <= h.start && c.end >= h.end && !insideState(c))) continue;
      for (const id of h.ids) {
        if (negated) {
          for (const o of functionInfo(id)?.outputs ?? []) if (o.product) lacks.add(o.product);
          continue;
        }
        if (doneAt(norm, h.start)) {
          for (const o of functionInfo(id)?.outputs ?? []) if (o.product) has.add(o.product);
          continue;
        }
        addWeight(fnScores, id, (WEAK_FUNCTION_FORMS.has(h.form) ? 0.25 : 0.8) * w);
      }
    } else if (h.kind === 'capability') {
      for (const id of h.ids) (negated ? lacks : has).add(id);
    } else if (h.kind === 'product') {
      for (const id of h.ids) {
        if (negated) {
          lacks.add(id);
          continue;
        }
        const isInput = isInputMention(norm, h);
        const isTarget = isTargetMention(norm, h);
        if (isInput && !isTarget && !productInfo(id)?.generic) has.add(id);
        // A product merely mentioned ("…sigma0 backscatter") may be the input as well as the output.
        else if (!isInput) addWeight(productScores, id, w * (isTarget ? 1 : 0.3));
      }
    }
  }
  // "归一化水体指数" names both NDWI and the water-index category: the specific reading wins.
  for (const [q, wq] of productScores) {
    const specific = [...productScores].some(([p, wp]) => p !== q && productSatisfies(p, q) && wp >= 0.5 * wq);
    if (specific) productScores.set(q, wq * 0.5);
  }
  return {
    concepts,
    taskTypes: capped(fnScores),
    products: capped(productScores),
    has: [...has],
    lacks: [...lacks],
    hits: listed,
    explicitTask,
    glosses: inferred.glosses,
  };
}

// ---------------------------------------------------------------------------------------------------
// Temporal

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const SEASONS: Record<string, [number, number]> = { spring: [3, 5], summer: [6, 8], autumn: [9, 11], fall: [9, 11], winter: [12, 2] };

const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

function isoDay(y: number, m: number, d: number): string {
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** Dates, intervals and the temporal shape of a request. Seasons are northern-hemisphere meteorological ones. */
export function parseTemporal(query: string, concepts: readonly ConceptHit[]): TemporalSlot | undefined {
  const text = query.toLowerCase();
  const dates: string[] = [];
  const spans: string[] = [];
  let start: string | undefined;
  let end: string | undefined;
  const consumed: [number, number][] = [];
  const free = (i: number, j: number) => !consumed.some(([a, b]) => i < b && j > a);

  const written: string[] = [];
  for (const m of text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) {
    dates.push(m[0]);
    written.push(m[0]);
    spans.push(m[0]);
    consumed.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(/\b((?:19|20)\d{2})\s*(?:-|–|—|to|until)\s*((?:19|20)\d{2})\b/g)) {
    if (!free(m.index, m.index + m[0].length)) continue;
    const a = Number(m[1]);
    const b = Number(m[2]);
    if (b <= a) continue;
    start ??= isoDay(a, 1, 1);
    end ??= isoDay(b, 12, 31);
    dates.push(isoDay(a, 1, 1), isoDay(b, 1, 1));
    spans.push(m[0]);
    consumed.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(/\b(spring|summer|autumn|fall|winter)\s+(?:of\s+)?((?:19|20)\d{2})\b/g)) {
    const [from, to] = SEASONS[m[1]!]!;
    const y = Number(m[2]);
    const endYear = from > to ? y + 1 : y;
    start ??= isoDay(y, from, 1);
    end ??= isoDay(endYear, to, lastDay(endYear, to));
    dates.push(start);
    spans.push(m[0]);
    consumed.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(/\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+((?:19|20)\d{2})\b/g)) {
    if (!free(m.index, m.index + m[0].length)) continue;
    const month = MONTHS.indexOf(m[1]!) + 1;
    const y = Number(m[2]);
    dates.push(isoDay(y, month, 1));
    spans.push(m[0]);
    consumed.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(/((?:19|20)\d{2})\s*年(?:\s*(\d{1,2})\s*月)?(?:\s*(\d{1,2})\s*日)?/gu)) {
    dates.push(isoDay(Number(m[1]), Number(m[2] ?? 1), Number(m[3] ?? 1)));
    spans.push(m[0]);
    consumed.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(/\b((?:19|20)\d{2})\b/g)) {
    if (!free(m.index, m.index + 4)) continue;
    // "2.5 m", "2000 m": a number followed by a unit is not a year.
    if (/^\s*(?:m|cm|km|metres?|meters?|ha|px)\b/.test(text.slice(m.index + 4))) continue;
    dates.push(isoDay(Number(m[1]), 1, 1));
    spans.push(m[1]!);
  }
  // "between 2021-06-01 and 2021-08-31": two written-out dates bound an interval (two bare years are two
  // acquisitions: "scenes from 2018 and 2023").
  if (!start && written.length >= 2 && /\b(?:between|from)\b/.test(text)) {
    const sorted = [...written].sort();
    start = sorted[0];
    end = sorted[sorted.length - 1];
  }

  const modifiers = concepts.filter((c) => !c.negated).map((c) => conceptInfo(c.id)?.temporal).filter((t): t is Temporal => !!t);
  let shape: Temporal | undefined;
  if (modifiers.includes('pair')) shape = 'pair';
  else if (modifiers.includes('series')) shape = 'series';
  const distinct = [...new Set(dates)];
  if (!shape) {
    // An interval is a period of acquisitions; two separate dates are a before/after pair.
    if (start && end) shape = 'series';
    else if (distinct.length === 2) shape = 'pair';
    else if (distinct.length > 2) shape = 'series';
    else if (distinct.length === 1) shape = 'single';
  }
  if (!shape && dates.length === 0) return undefined;
  return { shape, dates: [...new Set(dates)].sort(), start, end, text: spans };
}

// ---------------------------------------------------------------------------------------------------
// Spatial, precision, data sources, processing level

const NOT_PLACES = /^(?:sentinel|landsat|gaofen|modis|spot|pleiades|worldview|planet|copernicus|srtm|geojson|geotiff|dem|ndvi|the|a|an|my|its|their|this)\b/i;

export function parseSpatial(query: string): SpatialSlot | undefined {
  const lower = query.toLowerCase();
  const bbox = /\b(?:bounding box|bbox|lat\/lon|latitude|longitude|lat-lon)\b/.exec(lower);
  if (bbox) return { kind: 'bbox', text: bbox[0] };
  const zones = /\b(?:per (?:field|parcel|polygon|district|region|county|province|zone)|field polygons?|polygons?|geojson|shapefile|field boundaries|parcels|administrative (?:units|boundaries))\b|地块|行政区|分区/.exec(lower);
  if (zones) return { kind: 'zones', text: zones[0] };
  for (const m of query.matchAll(/\b(?:over|around|in|near|across|for|of|covering)\s+(?:the\s+)?((?:[A-Z][\p{L}'-]+)(?:\s+(?:[A-Z][\p{L}'-]+|valley|river|basin|delta|mountains|region|province|county|city|plain|lake))*)/gu)) {
    const name = m[1]!;
    if (NOT_PLACES.test(name) || /^[A-Z0-9-]{2,}$/.test(name) || matchForms(name, ['sensor', 'family']).length > 0) continue;
    return { kind: 'place', text: name };
  }
  const grid = /\b(?:grid|pixel grid|target resolution)\b/.exec(lower);
  if (grid) return { kind: 'grid', text: grid[0] };
  const zh = /研究区|感兴趣区|流域|全省|全市|全国/.exec(query);
  if (zh) return { kind: 'place', text: zh[0] };
  return undefined;
}

export function parsePrecision(query: string, concepts: readonly ConceptHit[]): PrecisionSlot | undefined {
  const text: string[] = [];
  const values: number[] = [];
  for (const m of query.toLowerCase().matchAll(/(\d+(?:\.\d+)?)\s*(cm|km|m|metres?|meters?|米)(?![²2\p{L}])/gu)) {
    const v = Number(m[1]) * (m[2] === 'cm' ? 0.01 : m[2] === 'km' ? 1000 : 1);
    if (v > 0 && v <= 5000) {
      values.push(v);
      text.push(m[0]);
    }
  }
  const vhr = concepts.find((c) => conceptInfo(c.id)?.resolution && c.kind === 'modifier');
  if (vhr) text.push(vhr.form);
  const accuracy = /\b(?:accuracy|accurate|precise|precision|error)\b[^.,;]*/i.exec(query);
  if (accuracy) text.push(accuracy[0].trim());
  if (text.length === 0) return undefined;
  const resolutionM = values.length ? Math.min(...values) : undefined;
  const cls = vhr ? conceptInfo(vhr.id)?.resolution : resolutionM !== undefined && resolutionM <= 1 ? 'very high resolution (<= 1 m)' : undefined;
  return { resolutionM, class: cls, text };
}

function parseDataSources(query: string, context: RequestContext): string[] {
  const out: string[] = [];
  if (context.dataSource) out.push(...resolveDataSources(context.dataSource).slice(0, 1), ...(canonicalDataSource(context.dataSource) ? [] : [context.dataSource]));
  const hits = matchForms(query, ['sensor', 'family']);
  for (const h of hits) {
    // "Sentinel" inside "Sentinel-2" must not add the whole family.
    if (h.kind === 'family' && hits.some((o) => o.kind === 'sensor' && o.start <= h.start && o.end >= h.end)) continue;
    for (const id of h.kind === 'sensor' ? h.ids : h.ids.flatMap((f) => resolveDataSources(f).slice(0, 1))) if (!out.includes(id)) out.push(id);
  }
  return out;
}

/** Level aliases that look like codes: common words ("sensor", "mosaic") never set a level from prose. */
const CODE_LIKE = /^(?=.*[a-z])(?=.*\d).{2,}$|^(?:grd|grdh|slc|rtc|nrb|card4l)$/;

interface LevelAlias {
  id: string;
  alias: string;
  sensor?: string;
  re: RegExp;
}

const levelAliasCache = new Map<string, LevelAlias[]>();

/** Code-like level aliases of a sensor ('' = the generic table), compiled once. */
function levelAliases(sensor: string): LevelAlias[] {
  const cached = levelAliasCache.get(sensor);
  if (cached) return cached;
  const levels = sensor ? (sensorByDataSource(sensor)?.levels ?? []) : knowledgeGraph().genericLevels;
  const out: LevelAlias[] = [];
  for (const l of levels) {
    for (const raw of [...l.en, ...(l.zh ?? [])]) {
      const alias = normalizeForMatch(raw);
      if (!HAN.test(alias) && !CODE_LIKE.test(alias)) continue;
      // "sigma0" names a product the RTC level does not deliver as such: it says the data is calibrated,
      // not which product level it is. ("GRD" is both a level and the product that level delivers: kept.)
      const products = matchForms(alias, ['product']).filter((h) => h.end - h.start === alias.length).flatMap((h) => h.ids);
      if (products.length && !products.some((p) => l.provides.includes(p))) continue;
      // Boundaries are Latin letters and digits only: "哨兵二号L1C数据" names L1C.
      const re = HAN.test(alias) ? new RegExp(escapeRe(alias)) : new RegExp(`(?<![\\p{Script=Latin}\\p{N}])${escapeRe(alias)}(?![\\p{Script=Latin}\\p{N}])`, 'u');
      out.push({ id: l.id, alias, ...(sensor ? { sensor } : {}), re });
    }
  }
  levelAliasCache.set(sensor, out);
  return out;
}

/** The processing level named in the text for one of the data sources (or generically). */
export function parseLevel(query: string, dataSources: readonly string[]): string | undefined {
  const norm = ` ${normalizeForMatch(query).replace(/[()（）,，。;；]/g, ' ')} `;
  const candidates = [...dataSources.filter((d) => sensorByDataSource(d)).flatMap((d) => levelAliases(sensorByDataSource(d)!.dataSource)), ...levelAliases('')];
  let best: LevelAlias | undefined;
  for (const c of candidates) {
    if (c.re.test(norm) && (!best || c.alias.length > best.alias.length || (c.alias.length === best.alias.length && c.sensor && !best.sensor))) best = c;
  }
  if (!best) return undefined;
  return best.sensor ? best.id : (findLevel(dataSources[0], best.alias)?.id ?? best.id);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---------------------------------------------------------------------------------------------------
// Putting it together

function modalitiesOf(dataSources: readonly string[], concepts: readonly ConceptHit[]): string[] {
  const out = new Set<string>();
  for (const ds of dataSources) {
    const s = sensorByDataSource(ds) ?? findSensor(ds);
    const first = s?.modalities[0];
    if (first) out.add(first);
  }
  for (const c of concepts) {
    const info = conceptInfo(c.id);
    if (!c.negated && info?.kind === 'modality') for (const m of info.modalities ?? []) out.add(m);
  }
  return [...out];
}

/** Canonical words for what was recognised, so that the search also sees the graph's vocabulary. */
function expansionsOf(facts: TextFacts): string[] {
  const out = new Set<string>();
  for (const c of facts.concepts) {
    if (c.negated) continue;
    const info = conceptInfo(c.id);
    if (info && info.kind !== 'modifier' && info.kind !== 'modality') out.add(info.en[0] ?? c.id.replace(/_/g, ' '));
  }
  for (const p of facts.products.slice(0, 3)) out.add(productInfo(p.id)?.en[0] ?? p.id.replace(/_/g, ' '));
  for (const f of facts.taskTypes.slice(0, 2)) out.add(functionInfo(f.id)?.en[0] ?? f.id.replace(/_/g, ' '));
  for (const g of facts.glosses) out.add(g);
  return [...out];
}

/** Words of a clause (a Han character counts as half a word). */
function lexicalWordCount(clause: string): number {
  const words = clause.match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
  return words.reduce((n, w) => n + (HAN.test(w) ? Math.max(1, Math.floor(w.length / 2)) : 1), 0);
}

function hasTaskEvidence(facts: TextFacts, clause: string): boolean {
  if (facts.concepts.some((c) => !c.negated && (c.kind === 'task' || c.kind === 'object'))) return true;
  if (facts.taskTypes.length > 0 && facts.concepts.every((c) => !c.negated)) return true;
  const first = normalizeForMatch(clause).trim().split(/\s+/)[0] ?? '';
  return STEP_VERBS.has(first) || ZH_STEP_VERBS.test(clause.trim());
}

function mainConcept(facts: TextFacts): string | undefined {
  return [...facts.concepts].filter((c) => !c.negated && c.kind !== 'modifier' && c.kind !== 'modality').sort((a, b) => b.weight - a.weight)[0]?.id;
}

/**
 * Clauses that each ask for a step. A clause without task evidence ("a DEM", "they have not been
 * co-registered yet") is context for its neighbour, and consecutive clauses about the same concept
 * ("detect aircraft … and return bounding boxes") are one step.
 */
function subTasksOf(query: string, sharedWords: string): SubTask[] {
  const clauses = splitClauses(query);
  if (clauses.length < 2) return [];
  const explicit = isExplicitSequence(query);
  const steps: { text: string; facts: TextFacts }[] = [];
  for (const clause of clauses) {
    const facts = textFacts(clause);
    const previous = steps[steps.length - 1];
    // A list item of a few words is a step whatever the graph reads in it; a one-word item ("Plan:") is not.
    const listedStep = explicit && lexicalWordCount(clause) >= 2;
    if (!hasTaskEvidence(facts, clause) && !listedStep) {
      if (previous && !/^(?:they|it|these|those|the (?:data|images?|scenes?))\b/i.test(clause)) {
        previous.text = `${previous.text}, ${clause}`;
        previous.facts = textFacts(previous.text);
      }
      continue;
    }
    const concept = mainConcept(facts);
    if (previous && concept && concept === mainConcept(previous.facts)) {
      previous.text = `${previous.text}, ${clause}`;
      previous.facts = textFacts(previous.text);
      continue;
    }
    steps.push({ text: clause, facts });
  }
  if (steps.length < 2) return [];
  // "Mask, mosaic and clip the Landsat scenes": bare verbs share the last
  // clause's object, so each is searched as "<verb> the Landsat scenes". A short clause that names its
  // own product ("compute NDVI") has its object already: borrowing another one would blur it.
  const last = steps[steps.length - 1]!.text;
  const object = last.replace(/^\s*\S+\s*/, '');
  return steps.map(({ text, facts }) => {
    const bare = text.trim().split(/\s+/).length <= 2 && text !== last && object.length > 0 && facts.products.length === 0;
    const searched = bare ? `${text} ${object}` : text;
    const f = bare ? textFacts(searched) : facts;
    return {
      text,
      query: sharedWords ? `${searched} (${sharedWords})` : searched,
      concepts: f.concepts,
      taskTypes: f.taskTypes,
      products: f.products,
    };
  });
}

/** Verbs of analysis that make an object the operand of a processing request ("detect ships", "船只检测"). */
const ANALYSIS_VERBS_EN =
  /\b(?:detect(?:s|ed|ing|ion)?|identif(?:y|ies|ication)|classif(?:y|ies|ication)|segment(?:s|ation)?|map(?:s|ping)?|monitor(?:s|ing)?|count(?:s|ing)?|estimat(?:e|es|ion)|measur(?:e|es|ing)|comput(?:e|es|ing)|calculat(?:e|es|ion)|deriv(?:e|es|ation)|extract(?:s|ion)?|track(?:s|ing)?|delineat(?:e|es|ion)|quantif(?:y|ies|ication)|analy[sz](?:e|es|is))\b/i;
const ANALYSIS_VERBS_ZH = /检测|识别|提取|计算|监测|分类|制图|估算|反演|分割|统计/;

/**
 * Whether a question asks for EO processing: a task type is read (the first step of parseToolRequest), and
 * an operation is named (a task concept or function, or a verb of analysis), an EO product ("building
 * footprints"), or EO data ("ships from Sentinel-1"). Objects alone are names of places and things in a geographic question: "the Flatiron
 * Building", "the Vessel", "ice cream".
 */
export function asksForProcessing(query: string): boolean {
  // Only what the graph lists decides whether a question is about EO processing at all.
  const facts = textFacts(query, false);
  if (facts.taskTypes.length === 0) return false;
  const namesProduct = facts.hits.some((h) => h.kind === 'product' && h.ids.some((id) => !productInfo(id)?.generic));
  return facts.explicitTask || namesProduct || ANALYSIS_VERBS_EN.test(query) || ANALYSIS_VERBS_ZH.test(query) || parseDataSources(query, {}).length > 0;
}

/** Parses a tool request; `context` is what the client says about its data (it wins over the text). */
export function parseToolRequest(query: string, context: RequestContext = {}): ParsedRequest {
  const facts = textFacts(query);
  const dataSources = parseDataSources(query, context);
  const processingLevel = context.processingLevel ?? parseLevel(query, dataSources);
  const temporal = parseTemporal(query, facts.concepts);
  const bands = [
    ...new Set([
      ...facts.hits.filter((h) => h.kind === 'band').flatMap((h) => h.ids),
      ...facts.concepts.filter((c) => !c.negated && c.kind === 'task').flatMap((c) => conceptInfo(c.id)?.bands ?? []),
    ]),
  ];
  const modalities = modalitiesOf(dataSources, facts.concepts);

  // Two acquisitions and no word that they are aligned: the user holds an image pair, not yet co-registered.
  const has = new Set([...facts.has, ...(context.available ?? [])]);
  if (temporal?.shape === 'pair' && !has.has('image_registration') && ![...has].some((h) => /coregistered|co_registered/.test(h))) {
    if (!(context.available ?? []).length) has.add('image_pair');
  }
  const lacks = facts.lacks.filter((l) => !has.has(l));
  const merged: RequestContext = {
    ...(dataSources[0] ? { dataSource: context.dataSource ?? dataSources[0] } : {}),
    ...(processingLevel ? { processingLevel } : {}),
    ...(has.size ? { available: [...has] } : {}),
    ...(lacks.length ? { lacking: lacks } : {}),
  };
  const objects = facts.concepts.filter((c) => c.kind === 'object' && !c.negated).map((c) => c.id);
  const sharedWords = [...dataSources, processingLevel ?? ''].filter(Boolean).join(' ');
  const recognised = facts.concepts.filter((c) => !c.negated).reduce((s, c) => s + c.weight, 0) + facts.taskTypes.length * 0.3 + facts.products.length * 0.5;
  return {
    query,
    lang: HAN.test(query) ? 'zh' : 'en',
    taskTypes: facts.taskTypes,
    concepts: facts.concepts,
    target: { products: facts.products, objects: [...new Set(objects)] },
    ...(temporal ? { temporal } : {}),
    ...(parseSpatial(query) ? { spatial: parseSpatial(query)! } : {}),
    ...(parsePrecision(query, facts.concepts) ? { precision: parsePrecision(query, facts.concepts)! } : {}),
    dataSources,
    ...(processingLevel ? { processingLevel } : {}),
    modalities,
    bands,
    has: [...facts.has],
    lacks,
    context: merged,
    subTasks: subTasksOf(query, sharedWords),
    expansions: expansionsOf(facts),
    confidence: Math.min(1, recognised / 2),
  };
}
