/** The spatial and precision slots, the data sources and the processing level named in a request. */
import { bandRoleFor, canonicalDataSource, conceptInfo, findLevel, knowledgeGraph, matchForms, normalizeForMatch, resolveDataSources, sensorByDataSource } from '../knowledge/index.ts';
import type { RequestContext } from '../prerequisites.ts';
import type { ConceptHit, PrecisionSlot, SpatialSlot } from './types.ts';
import { HAN } from './wording.ts';

const NOT_PLACES = /^(?:sentinel|landsat|gaofen|modis|spot|pleiades|worldview|planet|copernicus|srtm|geojson|geotiff|dem|ndvi|the|a|an|my|its|their|this)\b/i;

export function parseSpatial(query: string): SpatialSlot | undefined {
  const lower = query.toLowerCase();
  const bbox = /\b(?:bounding box|bbox|lat\/lon|latitude|longitude|lat-lon)\b/.exec(lower);
  if (bbox) return { kind: 'bbox', text: bbox[0] };
  const zones = /\b(?:per (?:field|parcel|polygon|district|region|county|province|zone)|field polygons?|polygons?|geojson|shapefile|field boundaries|parcels|administrative (?:units|boundaries))\b|地块|行政区|分区/.exec(lower);
  if (zones) return { kind: 'zones', text: zones[0] };
  for (const m of query.matchAll(/\b(?:over|around|in|near|across|for|of|covering)\s+(?:the\s+)?((?:[A-Z][\p{L}'-]+)(?:\s+(?:[A-Z][\p{L}'-]+|valley|river|basin|delta|mountains|region|province|county|city|plain|lake))*)/gu)) {
    const name = m[1]!;
    if (NOT_PLACES.test(name) || /^[A-Z0-9-]{2,}$/.test(name) || matchForms(name, ['sensor', 'family']).length > 0) continue;
    return { kind: 'place', text: name };
  }
  const grid = /\b(?:grid|pixel grid|target resolution)\b/.exec(lower);
  if (grid) return { kind: 'grid', text: grid[0] };
  const zh = /研究区|感兴趣区|流域|全省|全市|全国/.exec(query);
  if (zh) return { kind: 'place', text: zh[0] };
  return undefined;
}

/** A number and a unit of length; not an area ("5 km²") nor the start of a word ("10 mins"). */
const GROUND_DISTANCE = /(\d+(?:\.\d+)?)\s*(cm|km|m|metres?|meters?|米)(?![²2a-z])/gu;

/** The ground distances written in a text, in metres, with their unit and words ("10 m", "0.5米"). */
function groundDistances(query: string): { metres: number; unit: string; text: string }[] {
  return [...query.toLowerCase().matchAll(GROUND_DISTANCE)].map((m) => ({ metres: Number(m[1]) * (m[2] === 'cm' ? 0.01 : m[2] === 'km' ? 1000 : 1), unit: m[2]!, text: m[0] }));
}

/** Two different ground resolutions in metres named in one request ("the 10 m and 30 m layers"): data to be put on one grid. */
export function twoResolutions(query: string): boolean {
  return new Set(groundDistances(query).filter((d) => d.unit !== 'cm' && d.unit !== 'km').map((d) => d.metres)).size >= 2;
}

export function parsePrecision(query: string, concepts: readonly ConceptHit[]): PrecisionSlot | undefined {
  const text: string[] = [];
  const values: number[] = [];
  for (const d of groundDistances(query)) {
    if (d.metres > 0 && d.metres <= 5000) {
      values.push(d.metres);
      text.push(d.text);
    }
  }
  const vhr = concepts.find((c) => conceptInfo(c.id)?.resolution && c.kind === 'modifier');
  if (vhr) text.push(vhr.form);
  const accuracy = /\b(?:accuracy|accurate|precise|precision|error)\b[^.,;]*/i.exec(query);
  if (accuracy) text.push(accuracy[0].trim());
  if (text.length === 0) return undefined;
  const resolutionM = values.length ? Math.min(...values) : undefined;
  const cls = vhr ? conceptInfo(vhr.id)?.resolution : resolutionM !== undefined && resolutionM <= 1 ? 'very high resolution (<= 1 m)' : undefined;
  return { resolutionM, class: cls, text };
}

export function parseDataSources(query: string, context: RequestContext): string[] {
  const out: string[] = [];
  if (context.dataSource) out.push(...resolveDataSources(context.dataSource).slice(0, 1), ...(canonicalDataSource(context.dataSource) ? [] : [context.dataSource]));
  const hits = matchForms(query, ['sensor', 'family']);
  for (const h of hits) {
    // "Sentinel" inside "Sentinel-2" must not add the whole family.
    if (h.kind === 'family' && hits.some((o) => o.kind === 'sensor' && o.start <= h.start && o.end >= h.end)) continue;
    for (const id of h.kind === 'sensor' ? h.ids : h.ids.flatMap((f) => resolveDataSources(f).slice(0, 1))) if (!out.includes(id)) out.push(id);
  }
  return out;
}

/** Level aliases that look like codes: common words ("sensor", "mosaic") never set a level from prose. */
const CODE_LIKE = /^(?=.*[a-z])(?=.*\d).{2,}$|^(?:grd|grdh|slc|rtc|nrb|card4l)$/;

interface LevelAlias {
  id: string;
  alias: string;
  sensor?: string;
  re: RegExp;
}

const levelAliasCache = new Map<string, LevelAlias[]>();

/** Code-like level aliases of a sensor ('' = the generic table), compiled once. */
function levelAliases(sensor: string): LevelAlias[] {
  const cached = levelAliasCache.get(sensor);
  if (cached) return cached;
  const levels = sensor ? (sensorByDataSource(sensor)?.levels ?? []) : knowledgeGraph().genericLevels;
  const out: LevelAlias[] = [];
  for (const l of levels) {
    for (const raw of [...l.en, ...(l.zh ?? [])]) {
      const alias = normalizeForMatch(raw);
      if (!HAN.test(alias) && !CODE_LIKE.test(alias)) continue;
      // "sigma0" names a product the RTC level does not deliver as such: it says the data is calibrated,
      // not which product level it is. ("GRD" is both a level and the product that level delivers: kept.)
      const products = matchForms(alias, ['product']).filter((h) => h.end - h.start === alias.length).flatMap((h) => h.ids);
      if (products.length && !products.some((p) => l.provides.includes(p))) continue;
      // Boundaries are Latin letters and digits only: "高分一号L1A影像" names L1A.
      const re = HAN.test(alias) ? new RegExp(escapeRe(alias)) : new RegExp(`(?<![\\p{Script=Latin}\\p{N}])${escapeRe(alias)}(?![\\p{Script=Latin}\\p{N}])`, 'u');
      out.push({ id: l.id, alias, ...(sensor ? { sensor } : {}), re });
    }
  }
  levelAliasCache.set(sensor, out);
  return out;
}

/** The processing level named in the text for one of the data sources (or generically). */
export function parseLevel(query: string, dataSources: readonly string[]): string | undefined {
  const norm = ` ${normalizeForMatch(query).replace(/[()（）,，。;；]/g, ' ')} `;
  const candidates = [...dataSources.filter((d) => sensorByDataSource(d)).flatMap((d) => levelAliases(sensorByDataSource(d)!.dataSource)), ...levelAliases('')];
  let best: LevelAlias | undefined;
  for (const c of candidates) {
    if (c.re.test(norm) && (!best || c.alias.length > best.alias.length || (c.alias.length === best.alias.length && c.sensor && !best.sensor))) best = c;
  }
  if (!best) return undefined;
  return best.sensor ? best.id : (findLevel(dataSources[0], best.alias)?.id ?? best.id);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Bands spelled as a word of the one-letter band codes of Awesome Spectral Indices ("RGB" is red, green,
 * blue; "NRG" near-infrared, red, green), with where each word starts. Only capitals, three or four
 * distinct codes, so acronyms that merely hold such letters (SAR, DEM, NDVI) are not read.
 */
export function spelledBands(query: string): { ids: string[]; start: number }[] {
  const out: { ids: string[]; start: number }[] = [];
  for (const m of query.matchAll(/\b[A-Z]{3,4}\b/g)) {
    const letters = [...m[0]];
    const roles = letters.map((c) => bandRoleFor(c));
    if (new Set(letters).size === letters.length && roles.every((r): r is string => !!r)) out.push({ ids: roles, start: m.index });
  }
  return out;
}

/** "B8A", "b11": a band designator of the data's sensor. */
const BAND_CODE = /\bB(\d{1,2}A?)\b/gi;
/** "bands 2, 6 and 7", "band 8", 第4波段, 波段4, "4、5波段". */
const BAND_NUMBERS_EN = /\bbands?\s+(\d{1,2}a?(?:\s*(?:,|and|&|\/|\+|or)\s*\d{1,2}a?)*)\b/gi;
const BAND_NUMBERS_ZH = /第?(\d{1,2}(?:\s*[、,，和与及]\s*\d{1,2})*)\s*波段|波段\s*(\d{1,2}(?:\s*[、,，和与及]\s*\d{1,2})*)/gu;

/**
 * Bands named by their number on the one sensor the data comes from ("MODIS bands 2, 6 and 7" are
 * near-infrared and the two shortwave-infrared bands; "Sentinel-2 B8 and B11"), read from the sensor's
 * band table. Several sensors, or none, leave the numbers unread: band 5 is red edge on one, NIR on another.
 */
export function numberedBands(query: string, dataSources: readonly string[]): string[] {
  if (dataSources.length !== 1) return [];
  const sensor = sensorByDataSource(dataSources[0]!);
  const table = sensor?.bands;
  if (!table) return [];
  const codes = [
    ...[...query.matchAll(BAND_CODE)].map((m) => m[1]!),
    ...[...query.matchAll(BAND_NUMBERS_EN), ...query.matchAll(BAND_NUMBERS_ZH)].flatMap((m) => (m[1] ?? m[2] ?? '').match(/\d{1,2}a?/gi) ?? []),
  ].map((n) => `B${n.toUpperCase()}`);
  return Object.entries(table)
    .filter(([, code]) => codes.includes(code.toUpperCase()))
    .map(([role]) => role);
}
