/**
 * The empty-database template: a new embedded data directory starts from a snapshot of a database that
 * PGlite initialised and that holds the extensions (postgis, vector, pg_trgm), instead of running initdb and
 * CREATE EXTENSION postgis itself. Measured on the 2-core machine: initdb ~10 s and the postgis script ~8 s
 * of CPU, against ~4 s to unpack the template. The migrations run on it as on any database.
 *
 * The template is built once by `npm run db:template` (scripts/build-db-template.ts) and is valid only for
 * the engine builds that wrote it: with other PGlite or extension versions installed it is ignored and the
 * directory is initialised the ordinary way.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { installedEngineVersions, versionMismatch, type EngineVersions } from './data-dir.ts';

export const TEMPLATE_FILE = fileURLToPath(new URL('../../seed/engine/empty-database.tar.gz', import.meta.url));
/** The engine builds that wrote the template (the same fields as a data directory's stamp). */
export const TEMPLATE_VERSIONS_FILE = fileURLToPath(new URL('../../seed/engine/empty-database.versions.json', import.meta.url));

/** The template's bytes when it exists and fits the installed engines; otherwise undefined (initdb). */
export function emptyDatabaseTemplate(installed: EngineVersions = installedEngineVersions()): Uint8Array | undefined {
  if (!existsSync(TEMPLATE_FILE) || !existsSync(TEMPLATE_VERSIONS_FILE)) return undefined;
  let written: EngineVersions;
  try {
    written = JSON.parse(readFileSync(TEMPLATE_VERSIONS_FILE, 'utf8')) as EngineVersions;
  } catch {
    return undefined;
  }
  if (versionMismatch(written, installed) !== null) return undefined;
  return readFileSync(TEMPLATE_FILE);
}
