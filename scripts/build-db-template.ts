/**
 * Builds the empty-database template of seed/engine/ (see src/db/template.ts): a new embedded database with
 * the extensions the migrations create, as PGlite's gzipped dumpDataDir, and the engine versions that wrote it.
 * Run it again after upgrading @electric-sql/pglite, pglite-postgis or pglite-pgvector (until then a new data
 * directory is initialised the ordinary way, slower).
 *
 *   npm run db:template
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { installedEngineVersions } from '../src/db/data-dir.ts';
import { TEMPLATE_FILE, TEMPLATE_VERSIONS_FILE } from '../src/db/template.ts';

const dir = mkdtempSync(join(tmpdir(), 'srag-template-'));
try {
  // Never from an older template: the directory is initialised by PGlite itself.
  rmSync(TEMPLATE_FILE, { force: true });
  const database = await openDatabase({ pgliteDataDir: join(dir, 'db') });
  // The C functions of the extensions are looked up when first called, not one by one while the
  // extension script creates them (pg_dump's restores do the same).
  await sql`SET check_function_bodies = off`.execute(database.db);
  for (const extension of ['postgis', 'vector', 'pg_trgm']) await sql`CREATE EXTENSION IF NOT EXISTS ${sql.id(extension)}`.execute(database.db);
  const snapshot = await database.dumpDataDir!();
  await database.close();
  writeFileSync(TEMPLATE_FILE, snapshot);
  writeFileSync(TEMPLATE_VERSIONS_FILE, `${JSON.stringify(installedEngineVersions(), null, 2)}\n`);
  console.log(`${TEMPLATE_FILE}: ${(snapshot.length / 2 ** 20).toFixed(1)} MiB`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
