/**
 * The request channel: a tool request in English or Chinese parsed into slots (task type, target object
 * and product, temporal constraint with resolved dates, spatial constraint, data source, processing
 * level, precision), enriched from the knowledge graph, split into sub-tasks when it asks for several
 * steps, and merged with the client's context (what the user's data already is, and is not).
 */
import { bandRoleIds, conceptInfo, findSensor, functionInfo, normalizeForMatch, productInfo, sensorByDataSource } from '../knowledge/index.ts';
import type { RequestContext } from '../prerequisites.ts';
import { subTasksOf } from './clauses.ts';
import { namedBands, textFacts, type TextFacts } from './facts.ts';
import { numberedBands, parseDataSources, parseLevel, parsePrecision, parseSpatial, spelledBands } from './slots.ts';
import { parseTemporal } from './temporal.ts';
import type { ConceptHit, ParsedRequest } from './types.ts';
import { HAN, negatedAt, onlyAt } from './wording.ts';

export type { ConceptHit, GlossedWord, ParsedRequest, PrecisionSlot, SpatialSlot, SubTask, TemporalSlot, Weighted } from './types.ts';
export { isExplicitSequence, splitClauses } from './clauses.ts';
export { containerTerms, inSetting, matchFormsLoose, settingOnlyTerms, statedObjectTerms } from './facts.ts';
export { asksForSubset, bufferDistance, pointCount } from './wording.ts';
export { parseLevel, parsePrecision, parseSpatial, twoResolutions } from './slots.ts';
export { parseTemporal } from './temporal.ts';
export { withoutAlternatives, withoutRelativeTime, withoutYesNoQuestions } from './wording.ts';

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

/** The band without its number: swir1 and swir2 are of one family. */
const bandFamily = (role: string) => role.replace(/\d+$/, '');

/** Parses a tool request; `context` is what the client says about its data (it wins over the text). */
export function parseToolRequest(query: string, context: RequestContext = {}): ParsedRequest {
  const facts = textFacts(query);
  const dataSources = parseDataSources(query, context);
  const processingLevel = context.processingLevel ?? parseLevel(query, dataSources);
  const temporal = parseTemporal(query, facts.concepts);
  const norm = normalizeForMatch(query);
  const named = [
    ...namedBands(norm, facts.hits).map((h) => ({ ids: h.ids, negated: negatedAt(norm, h.start), only: onlyAt(norm, h.start, h.end) })),
    ...spelledBands(query).map((h) => {
      const before = normalizeForMatch(query.slice(0, h.start));
      const around = before + normalizeForMatch(query.slice(h.start));
      return { ids: h.ids, negated: negatedAt(before, before.length), only: onlyAt(around, before.length, before.length + h.ids.length) };
    }),
  ];
  const absentBands = [...new Set(named.filter((h) => h.negated).flatMap((h) => h.ids))];
  // Data said to have only some bands ("only RGB", 只有RGB) has none of the others. A band named without
  // its number ("the shortwave-infrared bands") stands for its whole family (swir1, swir2).
  const held = named.filter((h) => !h.negated).flatMap((h) => h.ids.map(bandFamily));
  const onlyBands = named.some((h) => h.only && !h.negated) ? bandRoleIds().filter((b) => held.includes(bandFamily(b))) : [];
  const bands = [
    ...new Set([
      ...named.filter((h) => !h.negated).flatMap((h) => h.ids),
      ...numberedBands(query, dataSources),
      ...facts.concepts.filter((c) => !c.negated && c.kind === 'task').flatMap((c) => conceptInfo(c.id)?.bands ?? []),
    ]),
  ].filter((b) => !absentBands.includes(b));
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
    absentBands,
    onlyBands,
    askedProducts: facts.asked,
    has: [...facts.has],
    lacks,
    context: merged,
    subTasks: subTasksOf(query, sharedWords),
    expansions: expansionsOf(facts),
    coverage: facts.coverage,
    glossed: facts.glossed,
    confidence: Math.min(1, recognised / 2),
  };
}
