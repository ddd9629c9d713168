/**
 * Imports the Awesome Spectral Indices catalogue (`spectral-indices-dict.json`, with `bands.json` and
 * `constants.json` when available) as one tool per index, id `index:<short_name>` with the case kept.
 * Band codes are turned into band roles so that an index can be matched with any sensor carrying
 * those bands, not only the platforms the catalogue lists.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import {
  bandRoleFor,
  bandRoleInfo,
  functionInfo,
  knowledgeGraph,
  matchForms,
  productInfo,
  productSatisfies,
  sensorBandFor,
  sensorsWithBands,
  type SensorInfo,
} from '../knowledge/index.ts';
import { ToolRecordSchema, type ToolPort, type ToolRecord } from '../schema.ts';
import { readJsonFile, ToolImportError } from './import-error.ts';

export const SPECTRAL_INDICES_CATALOG = 'spectral-indices';

export interface SpectralIndicesImportOptions {
  /** `bands.json` content or path; by default read beside the dictionary file when importing from disk. */
  bands?: unknown;
  /** `constants.json` content or path; same default. */
  constants?: unknown;
  catalog?: string;
  version?: string;
}

const IndexSchema = z.looseObject({
  short_name: z.string().min(1),
  long_name: z.string().min(1),
  application_domain: z.string().min(1),
  bands: z.array(z.string()),
  formula: z.string(),
  platforms: z.array(z.string()).default([]),
  reference: z.string().optional(),
  contributor: z.string().optional(),
  date_of_addition: z.string().optional(),
});
type SpectralIndex = z.infer<typeof IndexSchema>;

const BandsSchema = z.record(
  z.string(),
  z.looseObject({
    common_name: z.string().optional(),
    long_name: z.string().optional(),
    platforms: z.record(z.string(), z.looseObject({ band: z.string().optional() })).optional(),
  }),
);
type BandsFile = z.infer<typeof BandsSchema>;

const ConstantsSchema = z.record(z.string(), z.looseObject({ description: z.string().optional(), default: z.unknown().optional() }));
type ConstantsFile = z.infer<typeof ConstantsSchema>;

const readJson = (file: string): unknown => readJsonFile(file, 'spectral-indices import');

function loadSide<T>(value: unknown, schema: z.ZodType<T>, fallbackFile: string | undefined, label: string): T | undefined {
  let raw = value;
  let source = label;
  if (typeof raw === 'string') {
    source = raw;
    raw = readJson(raw);
  } else if (raw === undefined && fallbackFile && existsSync(fallbackFile)) {
    source = fallbackFile;
    raw = readJson(fallbackFile);
  }
  if (raw === undefined) return undefined;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ToolImportError(`spectral-indices import: invalid ${label} in ${source}: ${z.prettifyError(parsed.error)}`, source);
  return parsed.data;
}

// ---------------------------------------------------------------------------------------------------
// Domain knowledge applied to each index

/** Application domain -> task type. Unknown domains become `<domain>_index`. */
const DOMAIN_FUNCTIONS: Record<string, string> = {
  vegetation: 'vegetation_index',
  water: 'water_index',
  burn: 'burn_index',
  urban: 'urban_index',
  snow: 'snow_index',
  soil: 'soil_index',
  radar: 'radar_index',
  clouds: 'cloud_index',
  cloud: 'cloud_index',
  // Kernel indices are kernelised vegetation indices (kNDVI, kEVI, kVARI).
  kernel: 'vegetation_index',
};

function functionForDomain(domain: string): string {
  const known = DOMAIN_FUNCTIONS[domain.toLowerCase()];
  if (known) return known;
  const slug = domain.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
  return /^[a-z]/.test(slug) ? `${slug}_index` : 'spectral_index';
}

/** Band codes that are SAR polarisations: not in bands.json, but bands all the same. */
const POLARISATIONS = new Set(['VV', 'VH', 'HH', 'HV']);

/**
 * Band roles an index needs. Kernel indices encode band pairs in their codes (`kNR` = k(NIR, Red)),
 * and formula constants (`L`, `g`, `alpha`) are not bands.
 */
function rolesOf(index: SpectralIndex, bands: BandsFile | undefined, constants: ConstantsFile | undefined): string[] {
  const roles: string[] = [];
  const add = (r: string | undefined) => {
    if (r && !roles.includes(r)) roles.push(r);
  };
  const roleOfCode = (code: string): string | undefined => {
    if (constants && code in constants) return undefined;
    if (POLARISATIONS.has(code)) return code.toLowerCase();
    const common = bands?.[code]?.common_name;
    return (common ? bandRoleFor(common) : undefined) ?? (bands && !(code in bands) ? undefined : bandRoleFor(code));
  };
  for (const code of index.bands) {
    const direct = roleOfCode(code);
    if (direct) {
      add(direct);
      continue;
    }
    const kernel = /^k([A-Z][A-Z0-9]?)([A-Z][A-Z0-9]?)$/.exec(code);
    if (kernel) {
      for (const part of [kernel[1]!, kernel[2]!]) add(roleOfCode(part));
    }
  }
  return roles;
}

function isOpticalRole(role: string): boolean {
  return !POLARISATIONS.has(role.toUpperCase());
}

function isThermalRole(role: string): boolean {
  return role.startsWith('thermal');
}

/** Sensors of the knowledge graph that an ASI platform name (or bands.json platform key) designates. */
function sensorsForPlatform(platform: string): SensorInfo[] {
  return knowledgeGraph().sensors.filter((s) => s.asiPlatforms.includes(platform) || s.asiBandKeys.includes(platform));
}

/** Band names per data source, from bands.json when it knows the platform, else from the graph. */
function platformBandsFor(
  codes: readonly string[],
  roles: readonly string[],
  sensors: readonly SensorInfo[],
  bands: BandsFile | undefined,
): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const sensor of sensors) {
    const table: Record<string, string> = {};
    for (const role of roles) {
      const code = codes.find((c) => c === role.toUpperCase() || bands?.[c]?.common_name === bandRoleInfo(role)?.stac[0]);
      const fromFile = code ? sensor.asiBandKeys.map((k) => bands?.[code]?.platforms?.[k]?.band).find(Boolean) : undefined;
      const name = fromFile ?? sensorBandFor(sensor, role);
      if (name) table[role] = name;
    }
    if (Object.keys(table).length === roles.length && roles.length > 0) out[sensor.dataSource] = table;
  }
  return out;
}

/**
 * `index:NDVI` outputs `ndvi` when the graph knows that product; else a narrower product of the domain's
 * one whose words the index's name uses (`namedBy`: the "Floating Algae Index" is an algae index);
 * else the domain's index product.
 */
function outputProduct(index: SpectralIndex, fn: string): string {
  const own = index.short_name.toLowerCase();
  if (productInfo(own) && !productInfo(own)?.generic) return own;
  const fromFn = functionInfo(fn)?.outputs[0]?.product;
  if (!fromFn) return 'spectral_index';
  const name = ` ${index.long_name.toLowerCase().replace(/[^a-z]+/g, ' ')} `;
  const narrower = knowledgeGraph().products.find((p) => p.id !== fromFn && productSatisfies(p.id, fromFn) && p.namedBy?.some((w) => name.includes(` ${w} `)));
  return narrower?.id ?? fromFn;
}

/** "near-infrared, red and blue" from band roles, for the prose description. */
function readableBands(roles: readonly string[]): string {
  const names = roles.map((r) => (bandRoleInfo(r)?.en[0] ?? r).replace(/ band$/, ''));
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : (names[0] ?? '');
}

function describe(index: SpectralIndex, roles: readonly string[], constants: ConstantsFile | undefined): string {
  const domain = index.application_domain.toLowerCase();
  const consts = (constants ? index.bands.filter((b) => b in constants) : []).map((c) => {
    const info = constants?.[c];
    const dflt = info?.default === null || info?.default === undefined ? '' : ` (default ${String(info.default)})`;
    return `${c} = ${info?.description ?? 'constant'}${dflt}`;
  });
  const sentences = [
    `${index.long_name} (${index.short_name}) is a ${domain} spectral index computed as ${index.formula}.`,
    roles.length > 0 ? `It uses the ${readableBands(roles)} bands${consts.length ? `, with ${consts.join('; ')}` : ''}.` : '',
    index.platforms.length > 0 ? `Defined for ${index.platforms.join(', ')}.` : '',
    index.reference ? `Reference: ${index.reference}.` : '',
  ];
  return sentences.filter(Boolean).join(' ');
}

function toTool(index: SpectralIndex, bands: BandsFile | undefined, constants: ConstantsFile | undefined, options: SpectralIndicesImportOptions): ToolRecord {
  const fn = functionForDomain(index.application_domain);
  const roles = rolesOf(index, bands, constants);
  const radar = fn === 'radar_index' || roles.some((r) => !isOpticalRole(r));
  const thermal = roles.some(isThermalRole);
  const cloud = fn === 'cloud_index';
  const modality = radar ? 'sar' : 'optical';

  // Reflective indices are only comparable on surface reflectance; cloud indices work on TOA data;
  // radar indices need calibrated backscatter, since DN ratios differ from sigma0 ratios.
  const inputProduct = radar ? 'sigma0' : cloud ? 'toa_reflectance' : 'surface_reflectance';
  const level = radar ? undefined : cloud ? 'L1' : 'L2';
  const prerequisites = radar ? ['sar_calibration'] : cloud ? ['radiometric_calibration'] : ['atmospheric_correction'];

  const listed = [...new Set(index.platforms.flatMap(sensorsForPlatform))];
  // Any sensor carrying the required bands can compute the index (NDVI from Gaofen-2 or SPOT-7).
  const capable = roles.length > 0 ? sensorsWithBands(roles, modality) : [];
  const sensors = [...new Set([...listed, ...capable])];
  const dataSources = [...new Set([...listed.map((s) => s.dataSource), ...capable.map((s) => s.dataSource)])];
  const extended = capable.some((s) => !listed.includes(s));

  const input: ToolPort = { name: 'bands', type: 'raster', product: inputProduct, modality, temporal: 'single' };
  if (roles.length > 0) input.bands = roles;
  if (level) input.processingLevel = level;
  const output: ToolPort = { name: index.short_name, type: 'raster', product: outputProduct(index, fn), modality, temporal: 'single' };

  const fnInfo = functionInfo(fn);
  const conceptHits = matchForms(index.long_name, ['concept']).flatMap((h) => h.ids);
  const keywords = [
    index.short_name,
    index.short_name.toLowerCase(),
    index.long_name.toLowerCase(),
    'spectral index',
    index.application_domain,
    ...(fnInfo ? [...fnInfo.en, ...fnInfo.zh] : []),
    ...roles,
    ...index.platforms,
    ...conceptHits,
    ...(thermal ? ['thermal'] : []),
  ];
  const derived = ['function', 'inputs', 'outputs', 'prerequisites', 'downstream', 'modalities', 'keywords'];
  if (extended) derived.push('dataSources');

  const record = {
    id: `index:${index.short_name}`,
    name: index.long_name,
    description: describe(index, roles, constants),
    catalog: options.catalog ?? SPECTRAL_INDICES_CATALOG,
    function: fn,
    inputs: [input],
    outputs: [output],
    prerequisites,
    downstream: [...(fnInfo?.downstream ?? [])],
    modalities: radar ? ['sar'] : thermal ? ['optical', 'thermal'] : ['optical'],
    dataSources,
    attributes: {
      formula: index.formula,
      ...(index.reference ? { reference: index.reference } : {}),
      platformBands: platformBandsFor(index.bands, roles, sensors, bands),
      applicationDomain: index.application_domain,
      source: 'awesome-spectral-indices',
    },
    version: options.version ?? '1.0.0',
    keywords: [...new Set(keywords.filter(Boolean))],
    derived,
  };
  const parsed = ToolRecordSchema.safeParse(record);
  if (!parsed.success) {
    throw new ToolImportError(`spectral-indices import: index ${index.short_name} gives an invalid tool: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/**
 * Imports every index of an Awesome Spectral Indices dictionary. `input` is the dictionary (parsed, with
 * or without its `SpectralIndices` wrapper), the path of `spectral-indices-dict.json`, or the folder that
 * holds it; `bands.json`/`constants.json` beside the file are used when present.
 */
export function importSpectralIndices(input: unknown, options: SpectralIndicesImportOptions = {}): ToolRecord[] {
  let raw = input;
  let dir: string | undefined;
  let source = 'input';
  if (typeof input === 'string') {
    if (!existsSync(input)) throw new ToolImportError(`spectral-indices import: no such file or folder: ${input}`, input);
    const file = statSync(input).isDirectory() ? join(input, 'spectral-indices-dict.json') : input;
    dir = dirname(file);
    source = file;
    raw = readJson(file);
  }
  const dict = raw && typeof raw === 'object' && 'SpectralIndices' in raw ? (raw as { SpectralIndices: unknown }).SpectralIndices : raw;
  if (!dict || typeof dict !== 'object' || Array.isArray(dict)) {
    throw new ToolImportError(`spectral-indices import: ${source} is not a spectral-indices dictionary`, source);
  }
  const bands = loadSide(options.bands, BandsSchema, dir && join(dir, 'bands.json'), 'bands.json');
  const constants = loadSide(options.constants, ConstantsSchema, dir && join(dir, 'constants.json'), 'constants.json');
  return Object.entries(dict as Record<string, unknown>).map(([key, value]) => {
    const parsed = IndexSchema.safeParse(value);
    if (!parsed.success) {
      throw new ToolImportError(`spectral-indices import: entry ${key} in ${source}: ${z.prettifyError(parsed.error)}`, source);
    }
    return toTool(parsed.data, bands, constants, options);
  });
}
