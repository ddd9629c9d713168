/**
 * Imports openEO process definitions as tool records. The process JSON is the same whether it comes
 * from the openeo-processes repository (one file per process, proposals in `proposals/`) or from a live
 * back end's `GET /processes`, so one importer serves both. openEO ids are kept as tool ids.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { bandRoleFor, conceptInfo, functionInfo, matchForms, productAncestors } from '../knowledge/index.ts';
import { ToolRecordSchema, type ToolPort, type ToolRecord } from '../schema.ts';
import { readJsonFile, ToolImportError } from './import-error.ts';

export const OPENEO_CATALOG = 'openeo';

export interface OpenEOImportOptions {
  catalog?: string;
  version?: string;
  /** Read `proposals/` of a folder (default true). */
  includeProposals?: boolean;
}

const ProcessSchema = z.looseObject({
  id: z.string().regex(/^\w+$/, 'openEO process ids are word characters'),
  summary: z.string().optional(),
  description: z.string().optional(),
  categories: z.array(z.string()).optional(),
  parameters: z.array(z.looseObject({ name: z.string(), description: z.string().optional(), schema: z.unknown(), optional: z.boolean().optional(), default: z.unknown().optional() })).optional(),
  returns: z.looseObject({ description: z.string().optional(), schema: z.unknown() }).optional(),
  experimental: z.boolean().optional(),
  deprecated: z.boolean().optional(),
});
type Process = z.infer<typeof ProcessSchema>;

interface Located {
  process: unknown;
  source: string;
  /** Found under a `proposals` folder: experimental even if the flag is missing. */
  proposal: boolean;
}

const readJson = (file: string): unknown => readJsonFile(file, 'openEO import');

function jsonFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

/** Flattens a folder, a file, a `GET /processes` body, an array or a single process into processes. */
function locate(input: unknown, options: OpenEOImportOptions): Located[] {
  if (typeof input === 'string') {
    if (!existsSync(input)) throw new ToolImportError(`openEO import: no such file or folder: ${input}`, input);
    if (statSync(input).isDirectory()) {
      const out: Located[] = jsonFiles(input).flatMap((f) => locate(readJson(f), options).map((l) => ({ ...l, source: f })));
      const proposals = join(input, 'proposals');
      if (options.includeProposals !== false && existsSync(proposals) && statSync(proposals).isDirectory()) {
        for (const f of jsonFiles(proposals)) {
          out.push(...locate(readJson(f), options).map((l) => ({ ...l, source: f, proposal: true })));
        }
      }
      return out;
    }
    return locate(readJson(input), options).map((l) => ({ ...l, source: input, proposal: basename(join(input, '..')) === 'proposals' }));
  }
  if (Array.isArray(input)) return input.map((p, i) => ({ process: p, source: `[${i}]`, proposal: false }));
  if (input && typeof input === 'object' && Array.isArray((input as { processes?: unknown }).processes)) {
    return (input as { processes: unknown[] }).processes.map((p, i) => ({ process: p, source: `processes[${i}]`, proposal: false }));
  }
  return [{ process: input, source: 'input', proposal: false }];
}

// ---------------------------------------------------------------------------------------------------
// Ports from JSON schemas

/** openEO subtypes that configure a process rather than carry data into it. */
const OPTION_SUBTYPES = new Set([
  'process-graph', 'temporal-interval', 'temporal-intervals', 'bounding-box', 'band-name', 'band-names',
  'collection-id', 'epsg-code', 'wkt2-definition', 'proj-definition', 'output-format', 'output-format-options',
  'input-format', 'input-format-options', 'uri', 'file-path', 'file-paths', 'udf-code', 'udf-runtime',
  'udf-runtime-version', 'kernel', 'date', 'date-time', 'time', 'year', 'duration', 'chunk-size',
  'metadata-filter', 'workspace-id', 'job-id', 'batch-job-id', 'ogcapi-process-id', 'stac',
]);

type Kind = ToolPort['type'];
interface SchemaShape {
  kind: Kind;
  bands?: boolean;
  temporal?: boolean;
}

const KIND_RANK: Record<Kind, number> = { raster: 4, vector: 3, table: 2, scalar: 1 };

function alternatives(schema: unknown): Record<string, unknown>[] {
  if (Array.isArray(schema)) return schema.flatMap(alternatives);
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  const nested = [s.anyOf, s.oneOf].filter(Array.isArray) as unknown[][];
  if (nested.length > 0) return nested.flat().flatMap(alternatives);
  return [s];
}

function typesOf(s: Record<string, unknown>): string[] {
  const t = s.type;
  return Array.isArray(t) ? t.map(String) : typeof t === 'string' ? [t] : [];
}

/** Data kind of one schema alternative, or undefined for options and nulls. */
function shapeOf(s: Record<string, unknown>): SchemaShape | undefined {
  const subtype = typeof s.subtype === 'string' ? s.subtype : undefined;
  if (subtype && OPTION_SUBTYPES.has(subtype)) return undefined;
  if (subtype === 'datacube' || subtype === 'raster-cube' || subtype === 'vector-cube') {
    const dims = Array.isArray(s.dimensions) ? (s.dimensions as { type?: string }[]).map((d) => d.type) : [];
    const vector = subtype === 'vector-cube' || (dims.includes('geometry') && !dims.includes('spatial'));
    return { kind: vector ? 'vector' : 'raster', bands: dims.includes('bands'), temporal: dims.includes('temporal') };
  }
  if (subtype === 'geojson') return { kind: 'vector' };
  if (subtype === 'labeled-array') return { kind: 'table' };
  const types = typesOf(s);
  if (types.includes('array')) {
    const itemAlts = alternatives(s.items);
    const items = itemAlts.map(shapeOf).filter((x): x is SchemaShape => !!x);
    const cube = items.find((i) => i.kind === 'raster' || i.kind === 'vector');
    if (cube) return cube;
    // A list of band names, years or other option strings configures the process; a list of values is data.
    return items.length > 0 || itemAlts.length === 0 ? { kind: 'table' } : undefined;
  }
  if (types.some((t) => t === 'number' || t === 'integer' || t === 'boolean')) return { kind: 'scalar' };
  // "Any data type" (no type at all) is a value of any kind: treat as a scalar operand.
  if (types.length === 0 && !subtype && !('properties' in s)) return { kind: 'scalar' };
  return undefined;
}

function shapeOfSchema(schema: unknown): SchemaShape | undefined {
  const shapes = alternatives(schema).map(shapeOf).filter((x): x is SchemaShape => !!x);
  // The richest alternative decides: a parameter taking "raster cube or number" is a raster input.
  return shapes.sort((a, b) => KIND_RANK[b.kind] - KIND_RANK[a.kind])[0];
}

/**
 * The most specific non-generic product named in a text (a port description): a product that stands in
 * for another one named too wins ("normalized radar backscatter" over "backscatter"), then the longer form.
 */
function productIn(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const candidates = matchForms(text, ['product']).flatMap((h) =>
    h.ids.filter((id) => !GENERIC_FOR_OPENEO.has(id)).map((id) => ({ id, length: h.end - h.start })),
  );
  candidates.sort((a, b) => productAncestors(b.id).length - productAncestors(a.id).length || b.length - a.length);
  return candidates[0]?.id;
}

/**
 * Products too vague to tag an openEO port with: every data cube "is" an image or raster, and words such
 * as "slope" or "aspect" occur in generic math descriptions.
 */
const GENERIC_FOR_OPENEO = new Set([
  'image', 'optical_image', 'sar_image', 'image_pair', 'image_time_series', 'categorical_map', 'classification_map',
  'spectral_index', 'slope', 'aspect', 'zones', 'detections', 'composite', 'mosaic', 'coherence', 'dem',
]);

function bandRolesIn(text: string | undefined): string[] {
  if (!text) return [];
  return [...new Set(matchForms(text, ['band']).flatMap((h) => h.ids))];
}

function port(name: string, shape: SchemaShape, description: string | undefined, extra: Partial<ToolPort> = {}): ToolPort {
  const p: ToolPort = { name, type: shape.kind };
  if (shape.kind === 'raster') {
    const product = productIn(description);
    if (product) p.product = product;
    if (shape.temporal) p.temporal = 'series';
  }
  return { ...p, ...extra };
}

function inputPorts(process: Process): ToolPort[] {
  const params = process.parameters ?? [];
  // Band-name parameters with a default (`nir`, `red`) say which band roles the data must carry.
  const defaultBands = params
    .filter((p) => alternatives(p.schema).some((s) => s.subtype === 'band-name') && typeof p.default === 'string')
    .map((p) => bandRoleFor(String(p.default)))
    .filter((b): b is string => !!b);
  const ports: ToolPort[] = [];
  for (const param of params) {
    if (param.name === 'context') continue;
    const shape = shapeOfSchema(param.schema);
    if (!shape) continue;
    // Optional numbers and flags are settings; optional cubes/geometries are still data.
    if (shape.kind === 'scalar' && param.optional) continue;
    const extra: Partial<ToolPort> = {};
    // A cube or geometry parameter that accepts null (no spatial filter, no mask) can be left without
    // data; a nullable number is still an operand (null propagates through openEO math).
    const nullable = shape.kind !== 'scalar' && alternatives(param.schema).some((a) => typesOf(a).includes('null'));
    if (param.optional || nullable) extra.optional = true;
    if (shape.kind === 'raster' && shape.bands) {
      const roles = [...new Set([...defaultBands, ...bandRolesIn(param.description)])];
      if (roles.length > 0) extra.bands = roles;
    }
    ports.push(port(param.name, shape, param.description, extra));
  }
  return ports;
}

function outputPorts(process: Process): ToolPort[] {
  const returns = process.returns;
  if (!returns) return [];
  const shape = shapeOfSchema(returns.schema);
  if (!shape) return [];
  const p: ToolPort = { name: 'result', type: shape.kind };
  if (shape.kind === 'raster') {
    // The summary ("Create cloud masks", "CARD4L compliant SAR NRB generation") often names the product
    // more precisely than the return description.
    const product = productIn(`${returns.description ?? ''}. ${process.summary ?? ''}`);
    if (product) p.product = product;
    if (shape.temporal) p.temporal = 'series';
  }
  return [p];
}

// ---------------------------------------------------------------------------------------------------
// Task type from categories

type Rule = [test: (cats: Set<string>, text: string) => boolean, fn: string | ((text: string) => string)];

/**
 * Ordered: specific categories first. `optical`/`ard` only say "optical pre-processing", so the text
 * decides between atmospheric correction and cloud detection.
 */
const CATEGORY_RULES: Rule[] = [
  [(c) => c.has('vegetation indices'), 'vegetation_index'],
  [(c) => c.has('math > indices'), 'spectral_index'],
  [(c) => c.has('sar'), 'sar_preprocessing'],
  [(c) => c.has('optical') || c.has('ard'), (t) => textFunction(t, ['preprocessing_cloud', 'preprocessing_atmospheric']) ?? 'preprocessing_atmospheric'],
  [(c) => c.has('udf'), 'udf'],
  [(c) => c.has('import'), 'data_access'],
  [(c) => c.has('export') || c.has('stac'), 'export'],
  [(c) => c.has('vector'), 'vector_processing'],
  [(c) => c.has('reproject'), 'resampling'],
  [(c) => c.has('aggregate'), (t) => (/\btemporal|calendar|period/.test(t) ? 'temporal_aggregation' : 'statistics')],
  [(c) => c.has('climatology'), 'climatology'],
  [(c) => c.has('math > image filter'), 'spatial_filter'],
  [(c) => c.has('masks') && c.has('cubes'), 'masking'],
  [(c) => c.has('cubes') && c.has('reducer'), 'reduction'],
  [(c) => c.has('filter') && c.has('cubes'), 'subsetting'],
  [(c) => c.has('math > statistics'), 'statistics'],
  [(c) => c.has('logic') || c.has('comparison'), 'logic'],
  [(c) => c.has('arrays') || c.has('sorting'), 'array'],
  [(c) => c.has('texts'), 'text'],
  [(c) => c.has('date & time'), 'datetime'],
  [(c) => [...c].some((x) => x === 'math' || x.startsWith('math >')), 'math'],
  [(c) => c.has('development'), 'utility'],
  [(c) => c.has('cubes'), 'cube_manipulation'],
];

/** The task type a text talks about most, optionally among `allowed` (longer forms weigh more). */
function textFunction(text: string, allowed?: readonly string[]): string | undefined {
  const scores = new Map<string, number>();
  for (const h of matchForms(text, ['concept', 'function'])) {
    for (const id of h.ids) {
      // A concept counts for its typical task type only: its other links are weaker alternatives.
      const fns = h.kind === 'function' ? [id] : (conceptInfo(id)?.functions?.slice(0, 1) ?? []);
      for (const f of fns) if (!allowed || allowed.includes(f)) scores.set(f, (scores.get(f) ?? 0) + h.form.length);
    }
  }
  return [...scores.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** Task types that only say what kind of values a process handles, not what EO task it serves. */
const GENERIC_FUNCTIONS = new Set(['math', 'array', 'logic', 'text', 'datetime', 'utility', 'cube_manipulation']);

/**
 * The task type a process's own name says, when it says one clearly: a multi-word form in the id or
 * summary ("Curve fitting" is time-series analysis even though openEO files it under arrays and math).
 */
function namedFunction(process: Process): string | undefined {
  const text = `${process.id.replace(/_/g, ' ')}. ${process.summary ?? ''}`.toLowerCase();
  const strong = matchForms(text, ['concept', 'function']).filter((h) => h.form.includes(' ') && h.form.length >= 8);
  if (strong.length === 0) return undefined;
  const fn = textFunction(strong.map((h) => h.form).join('. '));
  return fn && !GENERIC_FUNCTIONS.has(fn) ? fn : undefined;
}

function functionFor(process: Process): string {
  const cats = new Set((process.categories ?? []).map((c) => c.toLowerCase()));
  const text = `${process.id.replace(/_/g, ' ')}. ${process.summary ?? ''}. ${firstParagraph(process.description)}`.toLowerCase();
  for (const [test, fn] of CATEGORY_RULES) {
    if (!test(cats, text)) continue;
    const byCategory = typeof fn === 'string' ? fn : fn(text);
    return GENERIC_FUNCTIONS.has(byCategory) ? (namedFunction(process) ?? byCategory) : byCategory;
  }
  // A back end's own process with unfamiliar categories: fall back to what its text talks about.
  return textFunction(text) ?? 'general_processing';
}

const CATEGORY_MODALITIES: Record<string, string> = { optical: 'optical', sar: 'sar', vector: 'vector' };

// ---------------------------------------------------------------------------------------------------
// Text

function firstParagraph(text: string | undefined): string {
  return (text ?? '').split(/\n\s*\n/)[0] ?? '';
}

/** Markdown-light plain text: ``proc()`` references and `code` become words, links their label. */
function plain(text: string): string {
  return text
    .replace(/``(\w+)\(\)``/g, '$1()')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
    .replace(/\*+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first paragraphs up to about `max` characters, cut at a sentence end. */
function shortDescription(text: string | undefined, max = 600): string {
  const paragraphs = (text ?? '').split(/\n\s*\n/).map(plain).filter(Boolean);
  let out = '';
  for (const p of paragraphs) {
    if (out && out.length + p.length > max) break;
    out = out ? `${out} ${p}` : p;
  }
  if (out.length <= max) return out;
  const cut = out.slice(0, max);
  const end = cut.lastIndexOf('. ');
  return end > max / 3 ? cut.slice(0, end + 1) : `${cut.trimEnd()}…`;
}

/**
 * What a process can be told to do is in its parameters: `extent` of subtype temporal-interval makes a
 * temporal filter, `projection` of subtype epsg-code a reprojection. Parameter names and subtypes (as
 * words) are kept as keywords; `data`, `context` and one-letter operands say nothing.
 */
function parameterWords(process: Process): string[] {
  const words: string[] = [];
  for (const param of process.parameters ?? []) {
    if (param.name === 'data' || param.name === 'context' || param.name.length < 3) continue;
    words.push(param.name.replace(/_/g, ' '));
    for (const alt of alternatives(param.schema)) {
      if (typeof alt.subtype === 'string' && !['datacube', 'raster-cube', 'vector-cube', 'process-graph'].includes(alt.subtype)) {
        words.push(alt.subtype.replace(/-/g, ' '));
      }
    }
  }
  return words;
}

function keywordsFor(process: Process, fn: string, experimental: boolean): string[] {
  const cats = (process.categories ?? []).flatMap((c) => c.split('>').map((x) => x.trim().toLowerCase()));
  const idWords = process.id.split('_').filter((w) => w.length > 1);
  const text = `${process.summary ?? ''}. ${firstParagraph(process.description)}`;
  const concepts = matchForms(text, ['concept', 'product']).flatMap((h) => h.ids);
  const kw = [process.id, ...idWords, ...cats, fn, ...concepts, ...parameterWords(process), 'openeo'];
  if (experimental) kw.push('experimental', 'proposal');
  return [...new Set(kw.filter(Boolean))];
}

// ---------------------------------------------------------------------------------------------------

function toTool(located: Located, options: OpenEOImportOptions): ToolRecord {
  const parsed = ProcessSchema.safeParse(located.process);
  if (!parsed.success) {
    throw new ToolImportError(`openEO import: ${located.source} is not an openEO process: ${z.prettifyError(parsed.error)}`, located.source);
  }
  const p = parsed.data;
  const experimental = p.experimental === true || located.proposal;
  const fn = functionFor(p);
  const template = functionInfo(fn);
  const modalities = [
    ...new Set([
      ...(p.categories ?? []).map((c) => CATEGORY_MODALITIES[c.toLowerCase()]).filter((m): m is string => !!m),
      ...(template?.modalities ?? []),
    ]),
  ];
  const attributes: ToolRecord['attributes'] = { categories: p.categories ?? [], source: located.source };
  if (experimental) attributes.experimental = true;
  if (p.deprecated) attributes.deprecated = true;
  const record = {
    id: p.id,
    name: p.summary?.trim() || p.id,
    description: shortDescription(p.description) || p.summary || p.id,
    catalog: options.catalog ?? OPENEO_CATALOG,
    function: fn,
    inputs: inputPorts(p),
    outputs: outputPorts(p),
    // Domain knowledge of the task type (an index needs surface reflectance) applies to openEO too.
    prerequisites: [...(template?.prerequisites ?? [])],
    downstream: [],
    modalities,
    dataSources: [],
    attributes,
    version: options.version ?? '1.0.0',
    keywords: keywordsFor(p, fn, experimental),
    derived: ['function', 'inputs', 'outputs', 'prerequisites', 'modalities', 'keywords'],
  };
  const result = ToolRecordSchema.safeParse(record);
  if (!result.success) {
    throw new ToolImportError(`openEO import: ${located.source} (${p.id}) gives an invalid tool: ${z.prettifyError(result.error)}`, located.source);
  }
  return result.data;
}

/**
 * Imports openEO processes from a folder path (its `*.json` plus `proposals/*.json`), a single process
 * file path, a `GET /processes` response (`{processes, links}`), an array of processes or one process
 * object. Throws `ToolImportError` naming the file for unreadable or invalid JSON and non-process data;
 * a process id appearing twice keeps the stable (non-proposal) version.
 */
export function importOpenEOProcesses(input: unknown, options: OpenEOImportOptions = {}): ToolRecord[] {
  const tools = new Map<string, ToolRecord>();
  for (const located of locate(input, options)) {
    const tool = toTool(located, options);
    const existing = tools.get(tool.id);
    if (existing && !existing.attributes.experimental) continue;
    tools.set(tool.id, tool);
  }
  return [...tools.values()];
}
