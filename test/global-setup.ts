import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDatabase } from '../src/db/database.ts';
import type { TestProject } from 'vitest/node';
import { migrateToLatest } from '../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

/**
 * Embedded mode: creating a PGlite database and loading PostGIS takes ~20 s, a warm start ~5 s. So the
 * migrated database is built once, cached under node_modules/.cache keyed by the migrations' content,
 * and every test file starts from a copy of it.
 */
export default async function setup(project: TestProject): Promise<void> {
  if (process.env.DATABASE_URL) return;
  const migrationsDir = resolve('migrations');
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsDir).sort()) hash.update(file).update(readFileSync(join(migrationsDir, file)));
  const cacheRoot = resolve('node_modules/.cache/spatial-rag-test');
  const dir = join(cacheRoot, `pglite-${hash.digest('hex').slice(0, 16)}`);
  if (!existsSync(dir)) {
    mkdirSync(cacheRoot, { recursive: true });
    const building = `${dir}.building-${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    const handle = await openDatabase({ pgliteDataDir: building });
    await migrateToLatest(handle.db);
    await handle.close();
    renameSync(building, dir);
  }
  project.provide('pgliteTemplate', dir);
}
