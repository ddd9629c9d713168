/**
 * Bands, sensors and processing levels of the knowledge graph: which band serves a role on a sensor,
 * which sensor a free-form name designates, and what a processing level already provides.
 */
import { aliasKey, capabilityClosure, idx, knowledgeGraph } from './graph.ts';
import type { BandRole, LevelInfo, SensorInfo } from './schema.ts';

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

/** Every band role the graph knows. */
export function bandRoleIds(): string[] {
  return [...idx().bandRoles.keys()];
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
