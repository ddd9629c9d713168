/**
 * The tool-catalog importers, one per catalog format, tried in order: the first whose test accepts a path (a
 * folder or a file) or a parsed body reads it. The seed (seed/tools.ts), `npm run tools:import` and the
 * import route (POST /v1/tools:import) all go through this list, so a new format is one more importer here.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolRecord } from '../schema.ts';
import { readJsonFile, ToolImportError } from './import-error.ts';
import { importOpenEOProcesses, OPENEO_CATALOG } from './openeo.ts';
import { importSpectralIndices, SPECTRAL_INDICES_CATALOG } from './spectral-indices.ts';
import { parseToolRecords } from './tool-records.ts';

export type CatalogKind = 'openeo' | 'spectral-indices' | 'tool-records';

export interface CatalogImporter {
  readonly kind: CatalogKind;
  /** The catalog its records belong to, when the format fixes it (a tool-record file names its own). */
  readonly catalog?: string;
  /** Whether a folder holds a catalog of this format. */
  readsFolder(path: string): boolean;
  /** Whether parsed JSON (a file's content or a request body) is a catalog of this format. */
  readsData(data: unknown): boolean;
  /** The records of a path or of parsed JSON; a ToolImportError naming `where` when they are invalid. */
  read(input: unknown, where: string): ToolRecord[];
}

const isObject = (data: unknown): data is Record<string, unknown> => !!data && typeof data === 'object' && !Array.isArray(data);

export const spectralIndicesImporter: CatalogImporter = {
  kind: 'spectral-indices',
  catalog: SPECTRAL_INDICES_CATALOG,
  readsFolder: (path) => existsSync(join(path, 'spectral-indices-dict.json')),
  readsData(data) {
    if (!isObject(data)) return false;
    if ('SpectralIndices' in data) return true;
    const first = Object.values(data)[0];
    return isObject(first) && 'short_name' in first && 'formula' in first;
  },
  read: (input) => importSpectralIndices(input),
};

export const openeoImporter: CatalogImporter = {
  kind: 'openeo',
  catalog: OPENEO_CATALOG,
  readsFolder: (path) => readdirSync(path).some((f) => f.endsWith('.json')),
  readsData(data) {
    if (Array.isArray(data)) {
      const first = data[0] as Record<string, unknown> | undefined;
      return !!first && ('parameters' in first || 'returns' in first);
    }
    if (!isObject(data)) return false;
    if (Array.isArray(data.processes)) return true;
    return typeof data.id === 'string' && ('parameters' in data || 'returns' in data || 'process_graph' in data);
  },
  read: (input) => importOpenEOProcesses(input),
};

export const toolRecordsImporter: CatalogImporter = {
  kind: 'tool-records',
  readsFolder: () => false,
  readsData: (data) => Array.isArray(data) || (isObject(data) && Array.isArray(data.tools)),
  read: (input, where) => parseToolRecords(typeof input === 'string' ? readJsonFile(input, 'tool import') : input, where),
};

/** In order: the spectral-indices folder also holds JSON files, and a bare array is tool records unless it holds processes. */
export const CATALOG_IMPORTERS: readonly CatalogImporter[] = [spectralIndicesImporter, openeoImporter, toolRecordsImporter];

/** The importer of what a path holds: a folder of catalog files, or a JSON file of one of the formats. */
export function importerForPath(path: string): CatalogImporter {
  if (!existsSync(path)) throw new ToolImportError(`no such file or folder: ${path}`, path);
  if (statSync(path).isDirectory()) {
    const importer = CATALOG_IMPORTERS.find((i) => i.readsFolder(path));
    if (!importer) throw new ToolImportError(`${path} holds no JSON files`, path);
    return importer;
  }
  return importerForData(readJsonFile(path, 'tool import'), path);
}

/** The importer of parsed JSON; `where` names the file or body in the error when none reads it. */
export function importerForData(data: unknown, where: string): CatalogImporter {
  const importer = CATALOG_IMPORTERS.find((i) => i.readsData(data));
  if (!importer) throw new ToolImportError(`${where}: not an openEO process set, a spectral-indices dictionary or a tool-record file`, where);
  return importer;
}
