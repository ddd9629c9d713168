/**
 * Zod schemas and types of the tool registry records. Kept apart from `tool.ts` because the knowledge
 * graph validates its port templates with the same schema, and `tool.ts` in turn uses the knowledge
 * graph: one module holding both would be an import cycle.
 */
import { z } from 'zod';

/** snake_case identifiers (task types): stable keys shared by importers, the graph and the search layer. */
export const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

export const PortTypeSchema = z.enum(['raster', 'vector', 'table', 'scalar']);
export type PortType = z.infer<typeof PortTypeSchema>;

/** How many acquisition dates a port carries: one image, a bitemporal pair, or a time series. */
export const TemporalSchema = z.enum(['single', 'pair', 'series']);
export type Temporal = z.infer<typeof TemporalSchema>;

export const ToolPortSchema = z.strictObject({
  name: z.string().min(1),
  type: PortTypeSchema,
  /** Canonical product/capability name from the knowledge graph (`surface_reflectance`, `coregistered_pair`…). */
  product: z.string().min(1).optional(),
  /** Band roles (`red`, `nir`, `swir1`, `vv`…), not sensor band names: roles are what tools agree on. */
  bands: z.array(z.string().min(1)).optional(),
  /** Minimum processing level expected (generic: `L1`, `L2`, `GRD`, `SLC`…). */
  processingLevel: z.string().min(1).optional(),
  modality: z.string().min(1).optional(),
  temporal: TemporalSchema.optional(),
  /** An input the tool can run without (a DEM that improves results, optional training data). */
  optional: z.boolean().optional(),
});
export type ToolPort = z.infer<typeof ToolPortSchema>;

/**
 * Loose on purpose: importers attach provenance (formula, reference, per-platform band names) and other
 * catalogs may add their own keys; the three named ones are what ranking may use.
 */
export const ToolAttributesSchema = z.looseObject({
  accuracy: z.union([z.string(), z.number()]).optional(),
  resolution: z.union([z.string(), z.number()]).optional(),
  speed: z.union([z.string(), z.number()]).optional(),
  /** openEO proposals and other experimental entries. */
  experimental: z.boolean().optional(),
  deprecated: z.boolean().optional(),
  formula: z.string().optional(),
  reference: z.string().optional(),
  /** Where the record came from (file, URL, catalogue name). */
  source: z.string().optional(),
  /** data source -> band role -> sensor band name (`Sentinel-2` -> `nir` -> `B8`). */
  platformBands: z.record(z.string(), z.record(z.string(), z.string())).optional(),
  categories: z.array(z.string()).optional(),
});
export type ToolAttributes = z.infer<typeof ToolAttributesSchema>;

const stringList = z.array(z.string().min(1)).default([]);

export const ToolRecordSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  description: z.string().min(1),
  catalog: z.string().min(1).default('default'),
  /** Task type, snake_case (`change_detection`, `vegetation_index`, `sar_preprocessing`…). */
  function: z.string().regex(SNAKE_CASE, 'function must be a snake_case task type'),
  inputs: z.array(ToolPortSchema).default([]),
  outputs: z.array(ToolPortSchema).default([]),
  /** Tool ids or capability/product names that must exist before this tool can run. */
  prerequisites: stringList,
  /** Tool ids that typically consume this tool's output. */
  downstream: stringList,
  modalities: stringList,
  dataSources: stringList,
  attributes: ToolAttributesSchema.default({}),
  version: z.string().min(1).default('1.0.0'),
  keywords: stringList,
  /** Names of the fields that were inferred (from text, categories, band lists) rather than given. */
  derived: stringList,
});

/** A validated record, defaults applied. */
export type ToolRecord = z.output<typeof ToolRecordSchema>;
/** What a registration may send: everything with a default may be left out. */
export type ToolRecordInput = z.input<typeof ToolRecordSchema>;

/** Validates and fills defaults; throws a ZodError naming the offending field. */
export function parseToolRecord(input: unknown): ToolRecord {
  return ToolRecordSchema.parse(input);
}
