import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createOfflineEmbedderWithLexicons } from '../src/embedding/configured.ts';
import { loadNycData } from '../src/ingest/nyc.ts';
import { hasNycData, MIDTOWN_PBF, NYC_NEIGHBORHOODS } from './helpers/data.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Embedded mode: migrated PGlite data directories to copy, by fixture. */
    pgliteTemplates: Record<string, string>;
    /** Server mode: template databases to clone, by fixture. */
    serverTemplates: Record<string, string>;
  }
}

/** Content hash of the code that shapes the fixtures (schema, readers, descriptions, embedder, lexicons). */
function codeHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(path).update(readFileSync(path));
    }
  };
  for (const dir of ['migrations', 'src/db', 'src/ingest', 'src/embedding', 'src/lexicon', 'src/tools/catalog']) walk(resolve(dir));
  hash.update(readFileSync(resolve('src/tools/knowledge/index.ts')));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Creating a PGlite database with PostGIS takes ~20 s and loading the Midtown data much longer, so each
 * fixture (an empty migrated database; the NYC data loaded) is built once, cached by code hash, and every
 * test file starts from a copy (embedded: a data directory; server: a template database).
 */
export default async function setup(project: TestProject): Promise<void> {
  const hash = codeHash();
  if (process.env.DATABASE_URL) {
    project.provide('pgliteTemplates', {});
    project.provide('serverTemplates', await serverTemplates(process.env.DATABASE_URL, hash));
  } else {
    project.provide('serverTemplates', {});
    project.provide('pgliteTemplates', await pgliteTemplates(hash));
  }
}

async function pgliteTemplates(hash: string): Promise<Record<string, string>> {
  const cacheRoot = resolve('node_modules/.cache/spatial-rag-test');
  mkdirSync(cacheRoot, { recursive: true });
  // Old fixtures go, but not recent ones: another test run may be building or using them right now.
  for (const old of readdirSync(cacheRoot)) {
    const path = join(cacheRoot, old);
    if (!old.includes(hash) && Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { recursive: true, force: true });
  }
  const build = async (name: string, from: string | undefined, fill: (dir: string) => Promise<void>) => {
    const dir = join(cacheRoot, `${name}-${hash}`);
    if (existsSync(dir)) return dir;
    const building = `${dir}.building-${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    if (from) cpSync(from, building, { recursive: true });
    await fill(building);
    try {
      renameSync(building, dir);
    } catch (error) {
      // A concurrent run finished the same fixture first: use theirs.
      if (!existsSync(dir)) throw error;
      rmSync(building, { recursive: true, force: true });
    }
    return dir;
  };
  const empty = await build('empty', undefined, async (dir) => {
    const handle = await openDatabase({ pgliteDataDir: dir });
    await migrateToLatest(handle.db);
    await handle.close();
  });
  const templates: Record<string, string> = { empty };
  if (hasNycData) {
    templates.nyc = await build('nyc', empty, async (dir) => {
      const handle = await openDatabase({ pgliteDataDir: dir });
      await loadNycData(handle.db, createOfflineEmbedderWithLexicons(), { midtownPbf: MIDTOWN_PBF, neighborhoods: NYC_NEIGHBORHOODS }, true);
      await handle.close();
    });
  }
  return templates;
}

async function serverTemplates(url: string, hash: string): Promise<Record<string, string>> {
  const base = process.env.SRAG_TEST_TEMPLATE_DB ?? 'spatial_rag_template';
  const templates: Record<string, string> = { empty: base };
  if (!hasNycData) return templates;
  const name = `srag_fixture_nyc_${hash}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // Fixture databases of other code versions are left alone: another test run may be using them right
    // now. On a development machine, drop old ones with DROP DATABASE srag_fixture_... when they pile up.
    const exists = await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name]);
    if (exists.rowCount === 0) {
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building} TEMPLATE ${base}`);
      const target = new URL(url);
      target.pathname = `/${building}`;
      const handle = await openDatabase({ databaseUrl: target.toString(), poolSize: 2 });
      await migrateToLatest(handle.db);
      await loadNycData(handle.db, createOfflineEmbedderWithLexicons(), { midtownPbf: MIDTOWN_PBF, neighborhoods: NYC_NEIGHBORHOODS }, false);
      await handle.close();
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    }
  } finally {
    await admin.end();
  }
  templates.nyc = name;
  return templates;
}
