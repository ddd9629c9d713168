/**
 * The signals of one candidate against a need: output, band and name fit, whether it can run on the data,
 * and complementarity (what the request context does to the tool).
 */
import { spelledOutName } from '../identifiers.ts';
import { isCategoryProduct, specificOutputs } from '../capability.ts';
import type { CatalogSnapshot } from '../catalog-cache.ts';
import { functionInfo, isGenericProduct, productInfo, productSatisfies, sensorBandFor, sensorByDataSource } from '../knowledge/index.ts';
import { lexicalTerms } from '../lexical.ts';
import { missingChainForState, prerequisiteStatus, type ContextState, type RequestContext } from '../prerequisites.ts';
import type { Weighted } from '../request/index.ts';
import type { Temporal, ToolRecord } from '../schema.ts';
import { producerOf } from '../workflow.ts';
import type { Need, Scored } from './types.ts';

/**
 * Output fit of a tool that makes an asked category itself rather than one of its named members: on the
 * tuning halves 0.9 and 0.6 measure the same and 0.4 gains one request and loses another; with 0.6 a bare
 * "vegetation index" gets NDVI rather than whichever of two hundred indices the n-grams favour.
 */
const UNNAMED_MEMBER_FIT = 0.6;

export function outputFit(tool: ToolRecord, products: readonly Weighted[]): number {
  if (products.length === 0) return 0;
  const outs = tool.outputs.map((o) => o.product).filter((p): p is string => !!p);
  let best = 0;
  for (const want of products) {
    // "scenes", "imagery": every raster tool makes an image; that says nothing about the task.
    if (isGenericProduct(want.id)) continue;
    let fit = 0;
    // Any member of an asked category fits ("a vegetation index"); the members the graph names (NDVI) are
    // the usual choice, ahead of the two hundred indices that only say they are one.
    if (outs.some((o) => productSatisfies(o, want.id))) fit = isCategoryProduct(want.id) && outs.includes(want.id) ? UNNAMED_MEMBER_FIT : 1;
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
export function bandFit(tool: ToolRecord, bands: readonly string[], rarity: ReadonlyMap<string, number>): number {
  if (bands.length === 0) return 0;
  const have = new Set(tool.inputs.flatMap((p) => p.bands ?? []));
  if (have.size === 0) return 0;
  const total = bands.reduce((sum, b) => sum + (rarity.get(b) ?? 1), 0);
  return bands.filter((b) => have.has(b)).reduce((sum, b) => sum + (rarity.get(b) ?? 1), 0) / total;
}

export function bandRarity(tools: readonly ToolRecord[], bands: readonly string[]): Map<string, number> {
  const withBands = tools.filter((t) => t.inputs.some((p) => p.bands?.length));
  const out = new Map<string, number>();
  for (const b of bands) {
    const df = withBands.filter((t) => t.inputs.some((p) => p.bands?.includes(b))).length;
    out.set(b, Math.log(1 + (withBands.length + 1) / (df + 1)));
  }
  return out;
}

/** The words of a tool's name and of its id, once per tool record (records live as long as their catalog snapshot). */
const nameTermCache = new WeakMap<ToolRecord, string[][]>();

function nameTerms(tool: ToolRecord): string[][] {
  let terms = nameTermCache.get(tool);
  if (!terms) {
    const texts = [spelledOutName(tool.name), tool.id.replace(/^index:/, '').replace(/[_:]+/g, ' ')];
    terms = texts.map((text) => [...lexicalTerms(text).keys()].filter((t) => !t.includes('_')));
    nameTermCache.set(tool, terms);
  }
  return terms;
}

/**
 * Share of the words of a tool's name, or of its id, that the user typed: "load the collection" covers
 * "Load a collection"; "MNDWI" covers `index:MNDWI` whatever the long name.
 */
export function nameCoverage(tool: ToolRecord, typed: ReadonlySet<string>): number {
  let best = 0;
  for (const terms of nameTerms(tool)) {
    if (terms.length) best = Math.max(best, terms.filter((t) => typed.has(t)).length / terms.length);
  }
  return best;
}

/** Can the tool be run on this data at all? A SAR tool on optical data, an index needing a band the sensor lacks: no. */
export function incompatibility(tool: ToolRecord, need: Need, dataModalities: readonly string[]): string | undefined {
  if (tool.modalities.length > 0 && dataModalities.length > 0 && !tool.modalities.some((m) => dataModalities.includes(m) || m === 'vector' || m === 'dem')) {
    const usable = need.modalities.length > 0 && tool.modalities.some((m) => need.modalities.includes(m));
    if (!usable) return `works on ${tool.modalities.join('/')} data, not ${dataModalities.join('/')}`;
  }
  const required = tool.inputs.filter((p) => !p.optional).flatMap((p) => p.bands ?? []);
  const absent = required.filter((b) => need.absentBands.includes(b));
  if (absent.length) return `the data has no ${absent.join(', ')} band`;
  // Bands read from a tool's description are a guess ("such as NDVI" in a generic band-math tool); those
  // of its formula are what it reads.
  const outside = need.onlyBands.length && typeof tool.attributes.formula === 'string' ? required.filter((b) => !need.onlyBands.includes(b)) : [];
  if (outside.length) return `the data has only the ${need.onlyBands.join(', ')} bands`;
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

export function label(id: string): string {
  return productInfo(id)?.en[0] ?? functionInfo(id)?.en[0] ?? id.replace(/^index:/, '').replace(/_/g, ' ');
}

/** Missing prerequisites as tool ids (a capability or product name is replaced by a tool that provides it). */
export function missingAsToolIds(tool: ToolRecord, state: ContextState, snapshot: CatalogSnapshot, relevance: ReadonlyMap<string, number>): string[] {
  const chain = missingChainForState(tool, state, snapshot.lookup);
  const ids = chain.map((name) => (snapshot.lookup(name) ? name : (producerOf(name, snapshot, relevance)?.id ?? name)));
  return [...new Set(ids)].filter((id) => id !== tool.id);
}

/** What making none of the kind of product a question asks for costs a tool (complementarity, -1..1). */
const ASKED_KIND_PENALTY = 0.3;

export function complementarity(s: Scored, state: ContextState, explicit: ReadonlySet<string>, _ctx: RequestContext, snapshot: CatalogSnapshot, relevance: ReadonlyMap<string, number>, need: Need): void {
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
  // "Which index…?": a tool that makes no index is not what the question asks for, whatever it maps.
  if (need.askedProducts.length && !tool.outputs.some((o) => o.product && need.askedProducts.some((p) => productSatisfies(o.product!, p)))) {
    c -= ASKED_KIND_PENALTY;
    s.notes.push(`makes no ${need.askedProducts.map(label).join(' or ')}`);
  }
  const tp = temporalPenalty(tool, need.temporal);
  if (tp) {
    c -= tp;
    s.notes.push(`expects ${tool.inputs.find((p) => p.temporal)?.temporal} data`);
  }
  if (tool.attributes.deprecated) c -= 0.3;
  s.complementarity = c;
}
