import { fileURLToPath } from 'node:url';

/**
 * The EO tool catalogs of every seed: the built-in records (src/tools/catalog) and the catalogs shipped in
 * eo/ (openEO processes, Apache-2.0; Awesome Spectral Indices, MIT), read by the catalog importer.
 */
export const TOOL_CATALOGS = [
  fileURLToPath(new URL('./eo/openeo-processes', import.meta.url)),
  fileURLToPath(new URL('./eo/spectral-indices', import.meta.url)),
];
