/**
 * The Earth-observation knowledge graph (`../catalog/knowledge-graph.json`) loaded, indexed, and the lookups
 * of concepts, task types, products and capabilities built on it (which product satisfies which).
 *
 * The graph is data so that domain experts can extend it without touching code; everything here only
 * interprets it. Nothing in it is keyed to particular questions: it is general EO knowledge.
 */
import { readFileSync } from 'node:fs';
import type { Concept } from '../../lexicon/types.ts';
import { fieldOptionNames } from '../../lexicon/presets.ts';
import { normalizeForMatch } from './normalize.ts';
import { GraphSchema, type BandRole, type CapabilityInfo, type EoConcept, type FamilyInfo, type FunctionInfo, type KnowledgeGraph, type ProductInfo, type SensorEntry, type SensorInfo } from './schema.ts';

const GRAPH_URL = new URL('../catalog/knowledge-graph.json', import.meta.url);
let cached: KnowledgeGraph | undefined;

function resolveSensors(raw: SensorEntry[]): SensorInfo[] {
  const byId = new Map(raw.map((s) => [s.id, s]));
  const resolve = (s: SensorEntry, seen: Set<string>): SensorEntry => {
    if (!s.inherits) return s;
    if (seen.has(s.id)) throw new Error(`knowledge graph: sensor inheritance cycle at ${s.id}`);
    const parentRaw = byId.get(s.inherits);
    if (!parentRaw) throw new Error(`knowledge graph: sensor ${s.id} inherits unknown ${s.inherits}`);
    const parent = resolve(parentRaw, new Set([...seen, s.id]));
    // Per-band resolutions belong to the band table: do not inherit them under a different band table.
    const bandResolutionM = s.bandResolutionM ?? (s.bands ? undefined : parent.bandResolutionM);
    return { ...parent, ...s, bandResolutionM, inherits: undefined };
  };
  return raw.map((s) => {
    const r = resolve(s, new Set());
    return {
      ...r,
      modalities: r.modalities ?? [],
      bands: r.bands ?? {},
      levels: r.levels ?? [],
      asiPlatforms: r.asiPlatforms ?? [],
      asiBandKeys: r.asiBandKeys ?? [],
      products: r.products ?? [],
    };
  });
}

/**
 * Concepts with the option labels of their OSM field added to their forms. A label that is already a form
 * of another concept stays that concept's (the crop "Grass" is grassland), and a one-character Chinese label
 * (草, 茶) is left out: forms are matched inside longer words, and one character is part of too many.
 */
function withFieldOptions(concepts: EoConcept[]): EoConcept[] {
  const taken = new Set(concepts.flatMap((c) => [...c.en, ...c.zh].map((f) => normalizeForMatch(f))));
  return concepts.map((c) => {
    if (!c.osmField) return c;
    const options = fieldOptionNames(c.osmField);
    const fresh = (forms: string[], minLength: number) => [...new Set(forms.filter((f) => [...f].length >= minLength && !taken.has(normalizeForMatch(f))))];
    return { ...c, en: [...c.en, ...fresh(options.en, 3)], zh: [...c.zh, ...fresh(options.zh, 2)] };
  });
}

/**
 * Whether `form` names one kind of the concept rather than the concept (barley, wheat for cropland): an
 * option of the concept's OSM field, in English or Chinese.
 */
export function isKindForm(conceptId: string, form: string): boolean {
  const kinds = kindFormsOf(conceptId);
  const key = normalizeForMatch(form);
  return kinds.has(key) || kinds.has(`${key}s`);
}

const kindForms = new Map<string, Set<string>>();

function kindFormsOf(conceptId: string): Set<string> {
  let kinds = kindForms.get(conceptId);
  if (!kinds) {
    const field = conceptInfo(conceptId)?.osmField;
    const options = field ? fieldOptionNames(field) : { en: [], zh: [] };
    kinds = new Set([...options.en, ...options.zh].map((o) => normalizeForMatch(o)));
    kindForms.set(conceptId, kinds);
  }
  return kinds;
}

/** The parsed, validated graph (read once). Throws with the zod issue path if the JSON is malformed. */
export function knowledgeGraph(): KnowledgeGraph {
  if (cached) return cached;
  const parsed = GraphSchema.parse(JSON.parse(readFileSync(GRAPH_URL, 'utf8')));
  cached = { ...parsed, concepts: withFieldOptions(parsed.concepts), sensors: resolveSensors(parsed.sensors) };
  return cached;
}

// ---------------------------------------------------------------------------------------------------
interface Indexes {
  functions: Map<string, FunctionInfo>;
  products: Map<string, ProductInfo>;
  capabilities: Map<string, CapabilityInfo>;
  concepts: Map<string, EoConcept>;
  bandByAsi: Map<string, string>;
  bandByStac: Map<string, string>;
  bandRoles: Map<string, BandRole>;
  sensorByKey: Map<string, SensorInfo>;
  familyByKey: Map<string, FamilyInfo>;
  sensorByDataSource: Map<string, SensorInfo>;
}

let indexes: Indexes | undefined;

/** Key for alias lookups: case, spaces, hyphens, underscores and dots do not distinguish names. */
export function aliasKey(name: string): string {
  return normalizeForMatch(name).replace(/[\s\-_./]+/g, '');
}

/** The lookup tables built from the graph (once). */
export function idx(): Indexes {
  if (indexes) return indexes;
  const g = knowledgeGraph();
  const sensorByKey = new Map<string, SensorInfo>();
  const sensorByDataSource = new Map<string, SensorInfo>();
  for (const s of g.sensors) {
    sensorByDataSource.set(s.dataSource, s);
    for (const name of [s.id, s.dataSource, ...s.en, ...s.zh]) {
      const key = aliasKey(name);
      if (key && !sensorByKey.has(key)) sensorByKey.set(key, s);
    }
  }
  const familyByKey = new Map<string, FamilyInfo>();
  for (const f of g.families) for (const name of [f.id, ...f.en, ...f.zh]) familyByKey.set(aliasKey(name), f);
  const bandByAsi = new Map<string, string>();
  const bandByStac = new Map<string, string>();
  for (const b of g.bandRoles) {
    for (const code of b.asi) bandByAsi.set(code, b.id);
    for (const name of b.stac) bandByStac.set(name, b.id);
  }
  indexes = {
    functions: new Map(g.functions.map((f) => [f.id, f])),
    products: new Map(g.products.map((p) => [p.id, p])),
    capabilities: new Map(g.capabilities.map((c) => [c.id, c])),
    concepts: new Map(g.concepts.map((c) => [c.id, c])),
    bandByAsi,
    bandByStac,
    bandRoles: new Map(g.bandRoles.map((b) => [b.id, b])),
    sensorByKey,
    familyByKey,
    sensorByDataSource,
  };
  return indexes;
}

// ---------------------------------------------------------------------------------------------------
// Concepts, functions, products, capabilities

/** Task/object/modality concepts with their surface forms, for the request parser and the embedder. */
export function eoConcepts(): Concept[] {
  return knowledgeGraph().concepts.map((c) => ({ id: c.id, en: [...c.en], zh: [...c.zh] }));
}

/** The full concept entries with their links to task types, products, tools and chains. */
export function eoConceptEntries(): EoConcept[] {
  return knowledgeGraph().concepts;
}

export function conceptInfo(id: string): EoConcept | undefined {
  return idx().concepts.get(id);
}

/** Sensors as concepts (`sentinel-2` -> `Sentinel-2`, `哨兵二号`), for recognising data sources in text. */
export function sensorConcepts(): Concept[] {
  return knowledgeGraph().sensors.map((s) => ({ id: s.id, en: [...s.en], zh: [...s.zh] }));
}

/** Task types as concepts: their id is the `function` value of tool records. */
export function functionConcepts(): Concept[] {
  return knowledgeGraph().functions.map((f) => ({ id: f.id, en: [...f.en], zh: [...f.zh] }));
}

export function functionInfo(id: string): FunctionInfo | undefined {
  return idx().functions.get(id);
}

export function productInfo(id: string): ProductInfo | undefined {
  return idx().products.get(id);
}

export function capabilityInfo(id: string): CapabilityInfo | undefined {
  return idx().capabilities.get(id);
}

/** A name a prerequisite may use besides a tool id: a capability or a product of the graph. */
export function isKnownCapabilityName(name: string): boolean {
  return idx().capabilities.has(name) || idx().products.has(name);
}

/** Every product `product` can stand in for, itself first, following `satisfies` transitively. */
export function productAncestors(product: string): string[] {
  return [...ancestorSet(product)];
}

/** Memoised: the graph is read once and never changes, and ranking asks this thousands of times. */
const ancestorCache = new Map<string, ReadonlySet<string>>();

function ancestorSet(product: string): ReadonlySet<string> {
  const cached = ancestorCache.get(product);
  if (cached) return cached;
  const out = new Set<string>();
  const queue = [product];
  while (queue.length > 0) {
    const p = queue.shift()!;
    if (out.has(p)) continue;
    out.add(p);
    for (const s of idx().products.get(p)?.satisfies ?? []) queue.push(s);
  }
  if (ancestorCache.size < 100_000) ancestorCache.set(product, out);
  return out;
}

/** True when `have` is `need` or can stand in for it (`sigma0_filtered` satisfies `sigma0`). */
export function productSatisfies(have: string, need: string): boolean {
  return have === need || ancestorSet(have).has(need);
}

export function isGenericProduct(id: string): boolean {
  return idx().products.get(id)?.generic === true;
}

/**
 * Capabilities established by a set of capability/product names: a product evidences the capability
 * that produces it (`surface_reflectance` -> `atmospheric_correction`), and capabilities imply others
 * (`atmospheric_correction` -> `radiometric_calibration`). Returns the inputs plus what they establish.
 */
export function capabilityClosure(items: Iterable<string>): Set<string> {
  const out = new Set<string>(items);
  const caps = knowledgeGraph().capabilities;
  let grew = true;
  while (grew) {
    grew = false;
    for (const cap of caps) {
      if (out.has(cap.id)) continue;
      const evidenced = [...out].some((have) => cap.evidencedBy.some((e) => productSatisfies(have, e)));
      if (evidenced) {
        out.add(cap.id);
        grew = true;
      }
    }
    for (const c of [...out]) {
      for (const implied of idx().capabilities.get(c)?.implies ?? []) {
        if (!out.has(implied)) {
          out.add(implied);
          grew = true;
        }
      }
    }
  }
  return out;
}
