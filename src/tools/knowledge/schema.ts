/**
 * The shape of the Earth-observation knowledge graph (`../catalog/knowledge-graph.json`): zod schemas of
 * its tables (task types, products, capabilities, band roles, sensors and levels, concepts) and the types
 * read from them. The graph itself is data; graph.ts loads it.
 */
import { z } from 'zod';
import { PortTypeSchema, SNAKE_CASE, TemporalSchema, ToolPortSchema } from '../schema.ts';

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
  /**
   * Words of a spectral index's own name that make it this product rather than the more general one it
   * satisfies ("Floating Algae Index" among the water indices is an algae index).
   */
  namedBy: z.array(z.string()).optional(),
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
  /**
   * Domain-catalog tool ids that serve the concept; the first leads it in the ranking. The one that does it
   * is the first whose task type is one of `functions` (`mainToolOf`): what a user holds who says the task
   * is done.
   */
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
  /** For an object: the task concept that says how it is doing (cropland: vegetation monitoring). */
  condition: z.string().optional(),
  /**
   * For an object: the task concept that measures one property of it, by the property's WordNet name
   * (the attribute of the adjectives that describe it: "wetness" for dry, parched, moist).
   */
  conditions: z.record(z.string(), z.string()).optional(),
  /**
   * For an object: an OpenStreetMap field whose option labels are kinds of it, added to its forms at load
   * (`crop`: barley, sugar beets, 大麦 are cropland).
   */
  osmField: z.string().optional(),
});

export const GraphSchema = z.strictObject({
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

export type SensorEntry = z.infer<typeof SensorSchema>;
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
