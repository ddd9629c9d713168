/**
 * The Earth-observation knowledge graph (`catalog/knowledge-graph.json`) and the lookups built on it:
 * task concepts with English/Chinese surface forms, products and which product satisfies which,
 * processing capabilities, band roles, sensors and what each processing level already provides.
 *
 * The graph is data so that domain experts can extend it without touching code; everything here only
 * interprets it. Nothing in it is keyed to particular questions: it is general EO knowledge.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Concept } from '../lexicon/types.ts';
import { PortTypeSchema, SNAKE_CASE, TemporalSchema, ToolPortSchema } from './schema.ts';

const GRAPH_URL = new URL('./catalog/knowledge-graph.json', import.meta.url);

const forms = { en: z.array(z.string().min(1)), zh: z.array(z.string().min(1)) };

const FunctionSchema = z.strictObject({
  id: z.string().regex(SNAKE_CASE),
  ...forms,
  description: z.string(),
  modalities: z.array(z.string()),
  /** Typical ports of a tool of this task type: the template used when a registration gives none. */
  inputs: z.array(ToolPortSchema),
  outputs: z.array(ToolPortSchema),
  prerequisites: z.array(z.string()),
  downstream: z.array(z.string()),
});

const ProductSchema = z.strictObject({
  id: z.string().regex(SNAKE_CASE),
  type: PortTypeSchema,
  /** Generic products (`optical_image`, `image_pair`) name a family, not something a tool proves it made. */
  generic: z.boolean().optional(),
  /** Products this one can stand in for (`sigma0_filtered` satisfies `sigma0`). */
  satisfies: z.array(z.string()),
  modality: z.string().optional(),
  temporal: TemporalSchema.optional(),
  ...forms,
});

const CapabilitySchema = z.strictObject({
  id: z.string().regex(SNAKE_CASE),
  /**
   * `level`: a correction that a processing level may already include (judged from the processing level
   * or from products in hand); `product`: only judged from the products the user says they have.
   */
  kind: z.enum(['level', 'product']),
  ...forms,
  /** Products whose presence proves the capability was applied. */
  evidencedBy: z.array(z.string()),
  /** Capabilities that are necessarily done when this one is (surface reflectance implies calibration). */
  implies: z.array(z.string()),
});

const BandRoleSchema = z.strictObject({
  id: z.string(),
  ...forms,
  /** STAC `eo:common_name` values. */
  stac: z.array(z.string()),
  /** Awesome Spectral Indices band codes. */
  asi: z.array(z.string()),
  wavelengthNm: z.tuple([z.number(), z.number()]).optional(),
  /** Roles a sensor may offer instead (narrow NIR for NIR). */
  fallback: z.array(z.string()).optional(),
});

const LevelSchema = z.strictObject({
  id: z.string(),
  en: z.array(z.string()),
  zh: z.array(z.string()).optional(),
  description: z.string(),
  inherits: z.string().optional(),
  provides: z.array(z.string()),
});

const SensorSchema = z.strictObject({
  id: z.string(),
  dataSource: z.string(),
  inherits: z.string().optional(),
  ...forms,
  platform: z.string().optional(),
  instrument: z.string().optional(),
  modalities: z.array(z.string()).optional(),
  resolutionM: z.number().optional(),
  revisitDays: z.number().optional(),
  description: z.string().optional(),
  bands: z.record(z.string(), z.string()).optional(),
  bandResolutionM: z.record(z.string(), z.number()).optional(),
  asiPlatforms: z.array(z.string()).optional(),
  asiBandKeys: z.array(z.string()).optional(),
  /** Products the source delivers whatever the level (a DEM is a DEM). */
  products: z.array(z.string()).optional(),
  levels: z.array(LevelSchema).optional(),
});

const FamilySchema = z.strictObject({ id: z.string(), ...forms, members: z.array(z.string()) });

const ConceptSchema = z.strictObject({
  id: z.string().regex(SNAKE_CASE),
  kind: z.enum(['task', 'object', 'modality', 'modifier']),
  ...forms,
  /** Task types the concept points to, most typical first. */
  functions: z.array(z.string()).optional(),
  products: z.array(z.string()).optional(),
  /** Domain-catalog tool ids that serve the concept. */
  tools: z.array(z.string()).optional(),
  /** A typical ordered workflow of tool ids. */
  chain: z.array(z.string()).optional(),
  modalities: z.array(z.string()).optional(),
  /** Prerequisites the task normally needs (tool ids or capability names). */
  requires: z.array(z.string()).optional(),
  dataSources: z.array(z.string()).optional(),
  bands: z.array(z.string()).optional(),
  resolution: z.string().optional(),
  temporal: TemporalSchema.optional(),
});

const GraphSchema = z.strictObject({
  version: z.number(),
  about: z.string(),
  functions: z.array(FunctionSchema),
  products: z.array(ProductSchema),
  capabilities: z.array(CapabilitySchema),
  bandRoles: z.array(BandRoleSchema),
  families: z.array(FamilySchema),
  sensors: z.array(SensorSchema),
  genericLevels: z.array(LevelSchema),
  concepts: z.array(ConceptSchema),
});

export type FunctionInfo = z.infer<typeof FunctionSchema>;
export type ProductInfo = z.infer<typeof ProductSchema>;
export type CapabilityInfo = z.infer<typeof CapabilitySchema>;
export type BandRole = z.infer<typeof BandRoleSchema>;
export type LevelInfo = z.infer<typeof LevelSchema>;
export type FamilyInfo = z.infer<typeof FamilySchema>;
export type EoConcept = z.infer<typeof ConceptSchema>;
/** A sensor with `inherits` resolved: every field a sibling mission shares is filled in. */
export type SensorInfo = z.infer<typeof SensorSchema> & {
  modalities: string[];
  bands: Record<string, string>;
  levels: LevelInfo[];
  asiPlatforms: string[];
  asiBandKeys: string[];
  products: string[];
};
export type KnowledgeGraph = Omit<z.infer<typeof GraphSchema>, 'sensors'> & { sensors: SensorInfo[] };

let cached: KnowledgeGraph | undefined;

function resolveSensors(raw: z.infer<typeof SensorSchema>[]): SensorInfo[] {
  const byId = new Map(raw.map((s) => [s.id, s]));
  const resolve = (s: z.infer<typeof SensorSchema>, seen: Set<string>): z.infer<typeof SensorSchema> => {
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

/** The parsed, validated graph (read once). Throws with the zod issue path if the JSON is malformed. */
export function knowledgeGraph(): KnowledgeGraph {
  if (cached) return cached;
  const parsed = GraphSchema.parse(JSON.parse(readFileSync(GRAPH_URL, 'utf8')));
  cached = { ...parsed, sensors: resolveSensors(parsed.sensors) };
  return cached;
}

// ---------------------------------------------------------------------------------------------------
// Indexes

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
function aliasKey(name: string): string {
  return normalizeForMatch(name).replace(/[\s\-_./]+/g, '');
}

function idx(): Indexes {
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

// ---------------------------------------------------------------------------------------------------
// Bands

/**
 * Band role of a band code or name: Awesome-Spectral-Indices codes (`N`, `S1`, `RE1`), STAC common
 * names (`nir08`, `swir16`), role ids themselves, or polarisations (`VV`). Undefined for constants.
 */
export function bandRoleFor(codeOrName: string): string | undefined {
  const i = idx();
  return (
    i.bandByAsi.get(codeOrName) ??
    i.bandByStac.get(codeOrName.toLowerCase()) ??
    (i.bandRoles.has(codeOrName.toLowerCase()) ? codeOrName.toLowerCase() : undefined)
  );
}

export function bandRoleInfo(role: string): BandRole | undefined {
  return idx().bandRoles.get(role);
}

/** The sensor band that serves a role, trying the role's fallbacks (Landsat 8 has narrow NIR only). */
export function sensorBandFor(sensor: SensorInfo, role: string): string | undefined {
  const direct = sensor.bands[role];
  if (direct) return direct;
  for (const alt of idx().bandRoles.get(role)?.fallback ?? []) {
    if (sensor.bands[alt]) return sensor.bands[alt];
  }
  return undefined;
}

/** Sensors that carry every role (optionally only of one modality): who can compute a given index. */
export function sensorsWithBands(roles: readonly string[], modality?: string): SensorInfo[] {
  if (roles.length === 0) return [];
  return knowledgeGraph().sensors.filter(
    (s) => (!modality || s.modalities.includes(modality)) && roles.every((r) => sensorBandFor(s, r) !== undefined),
  );
}

// ---------------------------------------------------------------------------------------------------
// Sensors and processing levels

/** The sensor a free-form name designates (`S2`, `哨兵二号`, `Landsat 8`, `GF-2`), if any. */
export function findSensor(name: string | undefined): SensorInfo | undefined {
  if (!name) return undefined;
  const key = aliasKey(name);
  const i = idx();
  const direct = i.sensorByKey.get(key);
  if (direct) return direct;
  // "Sentinel-2 MSI L2A", "Landsat 8 OLI/TIRS": the longest sensor alias the name starts with.
  let best: SensorInfo | undefined;
  let bestLen = 0;
  for (const [k, s] of i.sensorByKey) {
    if (k.length > bestLen && k.length >= 3 && key.startsWith(k)) {
      best = s;
      bestLen = k.length;
    }
  }
  return best;
}

/**
 * Canonical data-source names for a free-form name: one for a sensor, all members for a family
 * (`Landsat` -> Landsat-8, Landsat-9, …), empty when unknown.
 */
export function resolveDataSources(name: string | undefined): string[] {
  if (!name) return [];
  const s = findSensor(name);
  if (s) return [s.dataSource];
  const family = idx().familyByKey.get(aliasKey(name));
  return family ? [...family.members] : [];
}

/** Canonical data-source name (`s2` -> `Sentinel-2`), or undefined when the name is unknown. */
export function canonicalDataSource(name: string | undefined): string | undefined {
  return resolveDataSources(name)[0];
}

export function sensorByDataSource(dataSource: string): SensorInfo | undefined {
  return idx().sensorByDataSource.get(dataSource) ?? findSensor(dataSource);
}

function levelMatches(level: LevelInfo, key: string): boolean {
  return aliasKey(level.id) === key || level.en.some((a) => aliasKey(a) === key) || (level.zh ?? []).some((a) => aliasKey(a) === key);
}

function resolvedProvides(levels: readonly LevelInfo[], level: LevelInfo, seen = new Set<string>()): string[] {
  if (seen.has(level.id)) return [];
  seen.add(level.id);
  const parent = level.inherits ? levels.find((l) => l.id === level.inherits) : undefined;
  const inherited = parent ? resolvedProvides(levels, parent, seen) : [];
  return [...new Set([...inherited, ...level.provides])];
}

/**
 * The processing level a name designates for a sensor (`L2` for Landsat is L2SP), falling back to the
 * generic level table when the sensor is unknown or does not list that name.
 */
export function findLevel(sensor: string | undefined, level: string | undefined): (LevelInfo & { sensor?: string }) | undefined {
  if (!level) return undefined;
  const key = aliasKey(level);
  const candidates: SensorInfo[] = [];
  const s = findSensor(sensor);
  if (s) candidates.push(s);
  else for (const ds of resolveDataSources(sensor)) { const m = sensorByDataSource(ds); if (m) candidates.push(m); }
  for (const c of candidates) {
    const found = c.levels.find((l) => levelMatches(l, key));
    if (found) return { ...found, provides: resolvedProvides(c.levels, found), sensor: c.dataSource };
  }
  const generic = knowledgeGraph().genericLevels;
  const found = generic.find((l) => levelMatches(l, key));
  return found ? { ...found, provides: resolvedProvides(generic, found) } : undefined;
}

/**
 * What data of `sensor` at processing `level` already has: capabilities (corrections applied, named
 * like the tools that apply them) and products, closed under evidence and implication. Empty when the
 * level is unknown. Sensor-wide products (a DEM source delivers `dem`) are included.
 */
export function levelProvides(sensor: string | undefined, level: string | undefined): string[] {
  const s = findSensor(sensor);
  const base = [...(s?.products ?? [])];
  const l = findLevel(sensor, level);
  if (l) base.push(...l.provides);
  if (base.length === 0) return [];
  return [...capabilityClosure(base)];
}

// ---------------------------------------------------------------------------------------------------
// Surface-form matching

/** Lower case, accents and apostrophes removed, dashes unified, spaces collapsed: both forms and texts. */
export function normalizeForMatch(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['\u2018\u2019`]/g, '')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, ' ');
}

export type FormKind = 'concept' | 'function' | 'product' | 'capability' | 'sensor' | 'family' | 'band';

export interface FormMatch {
  kind: FormKind;
  /** Ids carrying the form (several when a form is listed under more than one entry). */
  ids: string[];
  form: string;
  start: number;
  end: number;
}

interface CompiledKind {
  /** Latin-script forms, whole words, longest first. */
  words?: RegExp;
  /** Forms containing Han characters, substrings, longest first. */
  chars?: RegExp;
  byForm: Map<string, string[]>;
}

const HAN = /\p{Script=Han}/u;
const WORD_CHAR = '[\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}\\p{N}]';
let compiled: Map<FormKind, CompiledKind> | undefined;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compileKind(entries: { id: string; forms: string[] }[]): CompiledKind {
  const byForm = new Map<string, string[]>();
  for (const e of entries) {
    for (const raw of e.forms) {
      const form = normalizeForMatch(raw).trim();
      if (!form) continue;
      const ids = byForm.get(form) ?? [];
      if (!ids.includes(e.id)) ids.push(e.id);
      byForm.set(form, ids);
    }
  }
  const all = [...byForm.keys()].sort((a, b) => b.length - a.length);
  const words = all.filter((f) => !HAN.test(f));
  const chars = all.filter((f) => HAN.test(f));
  return {
    // A regex alternation tries alternatives in order, so longest-first gives leftmost-longest matches.
    // An optional plural ending lets "buildings" match "building" without stemming every form.
    // Word boundaries are alphabetic-script letters and digits only: in Chinese text a Latin form sits
    // directly against Han characters ("计算NDVI"), which must not hide it.
    words: words.length
      ? new RegExp(`(?<!${WORD_CHAR})(?:${words.map(escapeRe).join('|')})(?:s|es)?(?!${WORD_CHAR})`, 'gu')
      : undefined,
    chars: chars.length ? new RegExp(chars.map(escapeRe).join('|'), 'gu') : undefined,
    byForm,
  };
}

function compiledKinds(): Map<FormKind, CompiledKind> {
  if (compiled) return compiled;
  const g = knowledgeGraph();
  const both = (x: { en: string[]; zh: string[] }) => [...x.en, ...x.zh];
  compiled = new Map<FormKind, CompiledKind>([
    ['concept', compileKind(g.concepts.map((c) => ({ id: c.id, forms: both(c) })))],
    ['function', compileKind(g.functions.map((f) => ({ id: f.id, forms: both(f) })))],
    ['product', compileKind(g.products.map((p) => ({ id: p.id, forms: both(p) })))],
    ['capability', compileKind(g.capabilities.map((c) => ({ id: c.id, forms: both(c) })))],
    ['sensor', compileKind(g.sensors.map((s) => ({ id: s.dataSource, forms: [...both(s), s.dataSource] })))],
    ['family', compileKind(g.families.map((f) => ({ id: f.id, forms: both(f) })))],
    ['band', compileKind(g.bandRoles.map((b) => ({ id: b.id, forms: both(b) })))],
  ]);
  return compiled;
}

function lookupForm(byForm: Map<string, string[]>, text: string): [string, string[]] | undefined {
  for (const candidate of [text, text.replace(/es$/, ''), text.replace(/s$/, '')]) {
    const ids = byForm.get(candidate);
    if (ids) return [candidate, ids];
  }
  return undefined;
}

/**
 * Surface forms of the graph found in a text, per kind, leftmost-longest and non-overlapping within a
 * kind (a product and a concept may cover the same words). Offsets refer to the normalised text.
 */
export function matchForms(text: string, kinds?: readonly FormKind[]): FormMatch[] {
  const norm = normalizeForMatch(text);
  const out: FormMatch[] = [];
  for (const [kind, c] of compiledKinds()) {
    if (kinds && !kinds.includes(kind)) continue;
    for (const re of [c.words, c.chars]) {
      if (!re) continue;
      for (const m of norm.matchAll(re)) {
        const hit = lookupForm(c.byForm, m[0]);
        if (hit) out.push({ kind, ids: hit[1], form: hit[0], start: m.index, end: m.index + m[0].length });
      }
    }
  }
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

// ---------------------------------------------------------------------------------------------------
// Request context

/** Suffixes that only tell two items of the same kind apart (`_t1`, `_2020`, `_pre`, `_a`). */
const DATE_SUFFIX = /(?:_(?:t\d+|\d{1,4}|pre|post|before|after|old|new|early|late|first|second|start|end|ref|reference|a|b))+$/;

const IMAGE_WORDS = new Set(['image', 'images', 'scene', 'scenes', 'img', 'raster', 'tile', 'tiles', 'imagery', 'data']);

/**
 * Maps the free-form ids a client lists as `available` (`landcover_map_t1`, `scene_2020`, `sigma0_db`,
 * `coregistered_pair`) to graph names (products and capabilities). Two items of the same product make a
 * pair: two images are an `image_pair` (not yet co-registered), two land-cover maps are still
 * `landcover_map`. Unrecognised items are returned unchanged so that exact tool-id matches still work.
 */
export function normalizeAvailable(items: readonly string[] | undefined): string[] {
  if (!items) return [];
  const i = idx();
  const out = new Set<string>();
  const counts = new Map<string, number>();
  for (const raw of items) {
    const key = normalizeForMatch(raw).trim().replace(/[\s-]+/g, '_');
    if (!key) continue;
    const stripped = key.replace(DATE_SUFFIX, '') || key;
    let found: string | undefined;
    for (const cand of [key, stripped]) {
      if (i.products.has(cand) || i.capabilities.has(cand)) {
        found = cand;
        break;
      }
      if (IMAGE_WORDS.has(cand)) {
        found = 'image';
        break;
      }
    }
    if (!found) {
      const hits = matchForms(stripped.replace(/_/g, ' '), ['product', 'capability']);
      const best = hits.sort((a, b) => b.end - b.start - (a.end - a.start))[0];
      found = best?.ids[0];
    }
    const name = found ?? key;
    out.add(name);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  for (const [name, n] of counts) {
    if (n >= 2 && productSatisfies(name, 'image')) out.add('image_pair');
  }
  return [...out];
}
