/**
 * The tool channel's text: a capability text rendered from a tool's structured metadata (what it takes,
 * what it makes, where it sits in a pipeline, its neighbours) plus the knowledge-graph vocabulary that
 * names the same things, in English and Chinese. This text is what gets embedded, so a tool registered
 * with a terse English description is still found by "计算叶面积指数" or by the product it outputs.
 */
import {
  bandRoleInfo,
  eoConceptEntries,
  functionInfo,
  isGenericProduct,
  isKindForm,
  productAncestors,
  productInfo,
  productSatisfies,
  capabilityInfo,
  knowledgeGraph,
  matchForms,
  type EoConcept,
} from './knowledge/index.ts';
import { spelledOutName } from './identifiers.ts';
import type { ToolPort, ToolRecord } from './schema.ts';

/** What the text needs to know about a linked tool. */
export interface NeighbourInfo {
  id: string;
  name: string;
  function?: string;
}

export type NeighbourLookup = (id: string) => NeighbourInfo | undefined;

/** Products a tool makes, closed under "satisfies": a tool making `ndvi` also makes a `vegetation_index`. */
export function producesOf(tool: Pick<ToolRecord, 'outputs'>): string[] {
  const out = new Set<string>();
  for (const port of tool.outputs) {
    if (port.product) for (const p of productAncestors(port.product)) out.add(p);
  }
  return [...out];
}

/** The non-generic products a tool makes (not closed): what it is specifically for. */
export function specificOutputs(tool: Pick<ToolRecord, 'outputs'>): string[] {
  return [...new Set(tool.outputs.map((p) => p.product).filter((p): p is string => !!p && !isGenericProduct(p)))];
}

/**
 * Concepts of the knowledge graph that describe a tool: those that list it among their tools, and
 * those whose wanted product the tool makes (a tool making `flood_extent` serves "flood mapping"
 * whichever catalog it comes from).
 */
export function conceptsOfTool(tool: Pick<ToolRecord, 'id' | 'name' | 'outputs'>): EoConcept[] {
  const outputs = specificOutputs(tool);
  // A name that names one kind of a thing (a wheat index) is not about the thing in general: a request
  // that names that kind finds it by its words.
  const named = new Set(
    matchForms(`${spelledOutName(tool.name)} . ${humanise(tool.id)}`, ['concept']).flatMap((h) => h.ids.filter((id) => !isKindForm(id, h.form))),
  );
  return eoConceptEntries().filter((c) => {
    if (c.kind === 'modifier' || c.kind === 'modality') return false;
    // A concept the tool's own name says ("Curve fitting", "Merge two data cubes") describes it.
    if (named.has(c.id)) return true;
    const main = c.products?.[0];
    // Linked by product only when the product is specific: a "vegetation index" concept does not make
    // every one of two hundred indices about red edge or greenness.
    if (main && !isGenericProduct(main) && !isCategoryProduct(main) && outputs.some((o) => productSatisfies(o, main))) return true;
    // A concept's first listed tool leads it in the ranking, even where it is the chain's first step rather
    // than the tool that does the task (co-registration for deforestation): the tool that does it instead
    // (mainToolOf) was measured and lost requests (eval/sets/README.md).
    return c.tools?.[0] === tool.id;
  });
}

let childCounts: Map<string, number> | undefined;

/** A product that several more specific products stand in for (vegetation_index, change_map). */
export function isCategoryProduct(id: string): boolean {
  if (!childCounts) {
    childCounts = new Map();
    for (const p of knowledgeGraph().products) for (const parent of p.satisfies) childCounts.set(parent, (childCounts.get(parent) ?? 0) + 1);
  }
  return (childCounts.get(id) ?? 0) >= 2;
}

function humanise(id: string): string {
  return id.replace(/^index:/, '').replace(/[_:]+/g, ' ').trim();
}

/** A readable name for a prerequisite: a registered tool's name, else the graph's own words. */
export function nameOf(id: string, lookup: NeighbourLookup): string {
  return lookup(id)?.name ?? capabilityInfo(id)?.en[0] ?? productInfo(id)?.en[0] ?? humanise(id);
}

function describePort(port: ToolPort): string {
  const product = port.product ? (productInfo(port.product)?.en[0] ?? humanise(port.product)) : humanise(port.name);
  const details: string[] = [];
  if (port.bands?.length) details.push(`${port.bands.map((b) => bandRoleInfo(b)?.en[0] ?? b).join(', ')} bands`);
  if (port.temporal === 'pair') details.push('two dates');
  if (port.temporal === 'series') details.push('time series');
  if (port.processingLevel) details.push(`level ${port.processingLevel}`);
  if (port.modality) details.push(port.modality);
  if (port.optional) details.push('optional');
  return details.length ? `${product} (${details.join('; ')}) [${port.type}]` : `${product} [${port.type}]`;
}

function sentence(label: string, items: readonly string[]): string {
  return items.length ? `${label}: ${items.join('; ')}.` : '';
}

/**
 * Renders the capability text. Order matters little to a bag-of-features embedder, but the text is also
 * shown to people (GET /v1/tools/{id}), so it reads as prose: identity, role, ports, pipeline, vocabulary.
 */
export function renderCapabilityText(tool: ToolRecord, lookup: NeighbourLookup = () => undefined): string {
  const fn = functionInfo(tool.function);
  const concepts = conceptsOfTool(tool);
  const outputs = specificOutputs(tool);
  const vocabularyEn = new Set<string>();
  const vocabularyZh = new Set<string>();
  for (const c of concepts) {
    c.en.slice(0, 4).forEach((f) => vocabularyEn.add(f));
    c.zh.slice(0, 3).forEach((f) => vocabularyZh.add(f));
  }
  for (const p of outputs) {
    productInfo(p)?.en.slice(0, 2).forEach((f) => vocabularyEn.add(f));
    productInfo(p)?.zh.slice(0, 2).forEach((f) => vocabularyZh.add(f));
  }
  if (fn) {
    fn.zh.slice(0, 2).forEach((f) => vocabularyZh.add(f));
  }
  const parts = [
    `${spelledOutName(tool.name)}.`,
    tool.description,
    fn ? `Task type: ${fn.en[0] ?? tool.function} (${fn.description.replace(/\.$/, '')}).` : `Task type: ${humanise(tool.function)}.`,
    sentence('Takes', tool.inputs.map(describePort)),
    sentence('Produces', tool.outputs.map(describePort)),
    sentence('Requires first', tool.prerequisites.map((p) => nameOf(p, lookup))),
    sentence('Typically followed by', tool.downstream.map((d) => nameOf(d, lookup))),
    sentence('Modalities', tool.modalities),
    tool.dataSources.length ? `Data sources: ${tool.dataSources.slice(0, 12).join(', ')}.` : '',
    sentence('Also known as', [...vocabularyEn]),
    vocabularyZh.size ? `${[...vocabularyZh].join('，')}。` : '',
    sentence('Keywords', tool.keywords.filter((k) => !/^[a-z0-9]+(?:_[a-z0-9]+)+$/.test(k) || k === tool.id).slice(0, 30)),
  ];
  return parts.filter(Boolean).join(' ');
}

/** Text fields for the lexical index, with how much a match in each counts. */
export function lexicalFields(tool: ToolRecord): { text: string; weight: number }[] {
  const concepts = conceptsOfTool(tool);
  const outputs = specificOutputs(tool);
  const vocabulary = [
    ...concepts.flatMap((c) => [...c.en.slice(0, 6), ...c.zh.slice(0, 4)]),
    ...outputs.flatMap((p) => [...(productInfo(p)?.en ?? []), ...(productInfo(p)?.zh ?? [])]),
    ...(functionInfo(tool.function)?.zh ?? []),
  ];
  return [
    { text: spelledOutName(tool.name), weight: 3 },
    { text: humanise(tool.id), weight: 2 },
    { text: tool.keywords.join(' , '), weight: 1 },
    { text: tool.description, weight: 1 },
    { text: vocabulary.join(' , '), weight: 0.5 },
    // What the tool can be given ("geometries", "reducer", "target band"): a request names its inputs too.
    { text: tool.inputs.map((p) => humanise(p.name)).join(' , '), weight: 0.5 },
  ];
}

/** Concept ids linked to a tool (for explanations). */
export function conceptIdsOfTool(tool: Pick<ToolRecord, 'id' | 'name' | 'outputs'>): string[] {
  return conceptsOfTool(tool).map((c) => c.id);
}

