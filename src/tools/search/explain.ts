/** What is returned per tool and for the request: the `why`, the parsed summary, a clarifying question. */
import { spelledOutName } from '../identifiers.ts';
import type { CatalogSnapshot } from '../catalog-cache.ts';
import { functionInfo, productSatisfies } from '../knowledge/index.ts';
import { lexicalTerms } from '../lexical.ts';
import type { ParsedRequest } from '../request/index.ts';
import { label } from './fit.ts';
import type { Clarification, Need, ParsedSummary, Scored, ToolHit } from './types.ts';

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
    const docWords = new Set(lexicalTerms(`${spelledOutName(s.tool.name)} ${s.tool.id.replace(/[_:]/g, ' ')} ${s.tool.keywords.join(' ')}`).keys());
    // Only words that counted: a word set aside (the name of a thing asked about in its state) is not a reason.
    const counted = (t: string) => !s.aspects || (s.aspects.get(t) ?? 0) > 0;
    const shared = (t: string) => !t.includes('_') && docWords.has(t) && counted(t);
    const typed = [...lexicalTerms(need.text).keys()].filter(shared);
    // A Chinese word found through the sense chosen for it: "fill (补)".
    const glossed = need.glosses.flatMap((g) => g.words.filter((w) => [...lexicalTerms(w).keys()].some(shared)).map((w) => `${w} (${g.text})`));
    const words = [...typed, ...glossed].slice(0, 4);
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

export function toHit(s: Scored, parsed: ParsedRequest, snapshot: CatalogSnapshot, need: Need): ToolHit {
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
    absentBands: parsed.absentBands,
    onlyBands: parsed.onlyBands,
    has: parsed.has,
    lacks: parsed.lacks,
    subTasks: parsed.subTasks.map((s) => s.text),
    expansions: parsed.expansions,
    confidence: round(parsed.confidence),
  };
}

export function clarificationFor(parsed: ParsedRequest, ranked: Scored[]): Clarification | undefined {
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
