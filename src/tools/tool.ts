/**
 * Tool records of the EO tool registry: the schema (re-exported from `schema.ts`), the derivation of
 * structured metadata from a minimal text-only registration, and port compatibility for chaining.
 */
import { spelledOutName } from './identifiers.ts';
import {
  conceptInfo,
  functionInfo,
  isGenericProduct,
  matchForms,
  normalizeForMatch,
  productAncestors,
  productInfo,
  productSatisfies,
  resolveDataSources,
  sensorByDataSource,
  type FormMatch,
} from './knowledge/index.ts';
import { isCategoryProduct } from './capability.ts';
import { ToolRecordSchema, type ToolPort, type ToolRecord, type ToolRecordInput } from './schema.ts';

export {
  PortTypeSchema,
  TemporalSchema,
  ToolAttributesSchema,
  ToolPortSchema,
  ToolRecordSchema,
  parseToolRecord,
  type PortType,
  type Temporal,
  type ToolAttributes,
  type ToolPort,
  type ToolRecord,
  type ToolRecordInput,
} from './schema.ts';

/** Task type used when nothing in the text points to a specific one. */
export const FALLBACK_FUNCTION = 'general_processing';

/** A registration that may give only id, name and description. */
export type MinimalToolInput = Pick<ToolRecordInput, 'id' | 'name' | 'description'> & Partial<ToolRecordInput>;

const DERIVABLE = ['function', 'inputs', 'outputs', 'prerequisites', 'modalities', 'dataSources', 'keywords'] as const;

interface Hit extends FormMatch {
  inName: boolean;
}

/** Longer, multi-word forms are more specific than single generic words; the name says more than prose. */
function weight(hit: Hit): number {
  const words = /\p{Script=Han}/u.test(hit.form) ? Math.max(1, hit.form.length / 2) : hit.form.split(' ').length;
  return (hit.inName ? 3 : 1) * (1 + 0.35 * (Math.min(words, 4) - 1));
}

function scoreFunctions(hits: readonly Hit[]): Map<string, number> {
  const scores = new Map<string, number>();
  const add = (f: string, w: number) => {
    if (functionInfo(f)) scores.set(f, (scores.get(f) ?? 0) + w);
  };
  for (const h of hits) {
    if (h.kind === 'concept') {
      for (const id of h.ids) {
        // The first function of a concept is its typical one; later ones are plausible alternatives.
        (conceptInfo(id)?.functions ?? []).forEach((f, rank) => add(f, weight(h) / (rank + 1)));
      }
    } else if (h.kind === 'function') {
      // Task-type vocabulary is broad ("extract", "classification"): it counts, but less than a concept.
      for (const id of h.ids) add(id, weight(h) * 0.8);
    }
  }
  return scores;
}

function pickFunction(scores: Map<string, number>): string {
  let best = FALLBACK_FUNCTION;
  let bestScore = 0;
  for (const [f, s] of scores) {
    if (s > bestScore) {
      best = f;
      bestScore = s;
    }
  }
  return best;
}

function uniq<T>(xs: Iterable<T>): T[] {
  return [...new Set(xs)];
}

/** A product that no other stands for (slope, sigma0), unlike a generic or category one (detections). */
function specificProduct(id: string): boolean {
  return !isGenericProduct(id) && !isCategoryProduct(id);
}

/** The text names the product, or a more specific one. */
function namesProduct(hits: readonly Hit[], product: string): boolean {
  return hits.some((h) => h.kind === 'product' && h.ids.some((id) => productSatisfies(id, product)));
}

/** Output product a matched concept names for the chosen task type (buildings -> building footprints). */
function conceptProduct(hits: readonly Hit[], fn: string): string | undefined {
  const typical = functionInfo(fn)?.outputs?.[0]?.product;
  // An object narrows a generic output (ships -> ship detections); where the task type's own product is
  // specific, the object's typical product (slope for terrain) is a guess unless the text names it.
  const narrows = (product: string) => !typical || isGenericProduct(typical) || (product !== typical && productSatisfies(product, typical));
  for (const h of hits) {
    if (h.kind !== 'concept') continue;
    for (const id of h.ids) {
      const c = conceptInfo(id);
      if (!c?.functions?.includes(fn) || !c.products?.[0]) continue;
      if (c.kind === 'object' && !narrows(c.products[0]) && !namesProduct(hits, c.products[0])) continue;
      return c.products[0];
    }
  }
  return undefined;
}

function derivePorts(fn: string, hits: readonly Hit[]): { inputs: ToolPort[]; outputs: ToolPort[] } {
  const template = functionInfo(fn);
  const inputs: ToolPort[] = structuredClone(template?.inputs ?? []);
  const outputs: ToolPort[] = structuredClone(template?.outputs ?? []);

  const product = conceptProduct(hits, fn);
  const info = product ? productInfo(product) : undefined;
  if (product && info && outputs[0]) {
    outputs[0] = { ...outputs[0], name: product, type: info.type, product };
  } else if (product && info && outputs.length === 0) {
    outputs.push({ name: product, type: info.type, product });
  } else {
    // The task type's typical product ("slope" for terrain analysis) is what this tool makes only when its
    // text names it: a sink filler or a viewshed is terrain analysis too, and makes no slope.
    for (const port of outputs) {
      const typical = port.product;
      if (typical && specificProduct(typical) && !namesProduct(hits, typical)) delete port.product;
    }
  }

  const firstRaster = inputs.find((p) => p.type === 'raster');
  if (firstRaster) {
    const bands = uniq(hits.filter((h) => h.kind === 'band').flatMap((h) => h.ids));
    if (bands.length > 0) firstRaster.bands = bands;
    // "time series" / "two dates" in the text override the template's temporal shape.
    const temporal = hits
      .filter((h) => h.kind === 'concept')
      .flatMap((h) => h.ids.map((id) => conceptInfo(id)))
      .find((c) => c?.kind === 'modifier' && c.temporal)?.temporal;
    if (temporal) firstRaster.temporal = temporal;
  }
  return { inputs, outputs };
}

function deriveModalities(fn: string, hits: readonly Hit[], dataSources: readonly string[]): string[] {
  const fromConcepts = hits
    .filter((h) => h.kind === 'concept')
    .flatMap((h) => h.ids.map((id) => conceptInfo(id)))
    .filter((c) => c?.kind === 'modality')
    .flatMap((c) => c?.modalities ?? []);
  // A sensor's primary modality only: "Landsat 8 images" are optical even though TIRS is on board.
  const fromSensors = dataSources.flatMap((ds) => sensorByDataSource(ds)?.modalities.slice(0, 1) ?? []);
  const found = uniq([...fromConcepts, ...fromSensors]);
  return found.length > 0 ? found : [...(functionInfo(fn)?.modalities ?? [])];
}

/**
 * Completes a minimal registration (id, name, description) into a full record: task type, ports,
 * prerequisites, modalities, data sources and keywords are inferred from the text with the knowledge
 * graph, and every inferred field is listed in `derived`. Fields the caller gave are kept as given.
 */
export function deriveToolMetadata(minimal: MinimalToolInput): ToolRecord {
  const nameHits: Hit[] = matchForms(spelledOutName(minimal.name)).map((h) => ({ ...h, inName: true }));
  const bodyText = [minimal.description, ...(minimal.keywords ?? [])].join('. ');
  const bodyHits: Hit[] = matchForms(bodyText).map((h) => ({ ...h, inName: false }));
  const all = [...nameHits, ...bodyHits];
  // A family alias inside a sensor name ("sentinel" in "Sentinel-1") must not add the whole family.
  const insideSensor = (h: Hit) =>
    all.some((o) => o.kind === 'sensor' && o.inName === h.inName && o.start <= h.start && o.end >= h.end);
  const hits = all.filter((h) => h.kind !== 'family' || !insideSensor(h));

  const fn = minimal.function ?? pickFunction(scoreFunctions(hits));
  const template = functionInfo(fn);
  const ports = derivePorts(fn, hits);

  const dataSources = uniq(
    hits.flatMap((h) => (h.kind === 'sensor' ? h.ids : h.kind === 'family' ? h.ids.flatMap((f) => resolveDataSources(f)) : [])),
  );

  const conceptRequires = hits
    .filter((h) => h.kind === 'concept')
    .flatMap((h) => h.ids.map((id) => conceptInfo(id)))
    .filter((c) => c?.functions?.[0] === fn)
    .flatMap((c) => c?.requires ?? []);
  const prerequisites = uniq([...(template?.prerequisites ?? []), ...conceptRequires]).filter((p) => p !== minimal.id);

  const keywords = uniq([
    ...(minimal.keywords ?? []),
    ...hits.filter((h) => h.kind === 'concept' || h.kind === 'product').flatMap((h) => h.ids),
    ...hits.filter((h) => h.kind !== 'sensor').map((h) => h.form),
    fn,
  ]);

  const modalities = deriveModalities(fn, hits, minimal.dataSources ?? dataSources);
  if (modalities.length > 0 && !modalities.includes('optical')) {
    // Templates default to optical imagery; a SAR-only (or thermal-only) tool reads that modality instead.
    for (const p of ports.inputs) {
      if (p.product === 'optical_image') {
        p.product = modalities[0] === 'sar' ? 'sar_image' : 'image';
        p.modality = modalities[0];
      }
    }
  }

  const derivedValues = {
    function: fn,
    inputs: ports.inputs,
    outputs: ports.outputs,
    prerequisites,
    modalities,
    dataSources,
    keywords,
  };

  const record: ToolRecordInput = { ...minimal, function: fn };
  const derived = new Set(minimal.derived ?? []);
  for (const field of DERIVABLE) {
    if (minimal[field] !== undefined) continue;
    // Each derived value has its field's type; the loop variable hides that from TypeScript.
    (record as Record<string, unknown>)[field] = derivedValues[field];
    derived.add(field);
  }
  record.derived = [...derived];
  return ToolRecordSchema.parse(record);
}

/** Lower-cased text of a record, for callers that want a single searchable string. */
export function toolSearchText(tool: ToolRecord): string {
  return normalizeForMatch([tool.name, tool.description, tool.function, ...tool.keywords].join(' '));
}

/**
 * A per-image (`single`) tool can be run on every date, so its output can feed a pair or series input;
 * a series holds any pair of its dates; multi-date outputs can be split per image. Only a pair cannot
 * stand for a time series: two dates give no trend, phenology or temporal profile.
 */
function temporalCompatible(out: ToolPort['temporal'], need: ToolPort['temporal']): boolean {
  if (!out || !need) return true;
  return !(out === 'pair' && need === 'series');
}

/**
 * Whether an output port can feed an input port when composing a chain: same port type, a product that
 * is or stands in for the required one, the required bands present, and a compatible temporal shape.
 * Unknown (absent) products, bands or temporal shapes are accepted, because generic data-cube tools
 * (openEO) do not declare them; a generic output (`optical_image`) may carry a more specific product.
 */
export function productsCompatible(output: ToolPort, input: ToolPort): boolean {
  if (output.type !== input.type) return false;
  if (output.modality && input.modality && output.modality !== input.modality) return false;
  if (output.product && input.product) {
    const exact = productSatisfies(output.product, input.product);
    const maybe = isGenericProduct(output.product) && productAncestors(input.product).includes(output.product);
    if (!exact && !maybe) return false;
  }
  if (output.bands && input.bands) {
    const have = new Set(output.bands);
    if (!input.bands.every((b) => have.has(b))) return false;
  }
  return temporalCompatible(output.temporal, input.temporal);
}
