/** Paths of the shared real data (outside the repo; tests skip when it is missing). */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export const SHARED = process.env.SPATIAL_RAG_SHARED_DATA ?? '/work/shared/data';
export const MIDTOWN_PBF = join(SHARED, 'nyc/manhattan-midtown.osm.pbf');
export const NEIGHBORHOODS = join(SHARED, 'nyc/nyc-neighborhood-boundaries.geojson');
export const WIKIVOYAGE = join(SHARED, 'world/wikivoyage-destinations.geojson');

export const hasMidtown = existsSync(MIDTOWN_PBF);
export const hasNeighborhoods = existsSync(NEIGHBORHOODS);
export const hasWikivoyage = existsSync(WIKIVOYAGE);

/** Explains a skip in the test name, since vitest only says "skipped". */
export function needs(path: string): string {
  return existsSync(path) ? '' : ` (SKIPPED: ${path} not found)`;
}

let tempDir: string | null = null;
let counter = 0;

// Registered in every test file that imports this module (vitest isolates modules per file).
afterAll(() => {
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  tempDir = null;
});

/** Writes a temporary file and returns its path; the folder is removed after the test file. */
export function tempFile(name: string, content: string | Buffer): string {
  if (!tempDir) {
    const dir = mkdtempSync(join(tmpdir(), 'ingest-test-'));
    tempDir = dir;
  }
  const sub = join(tempDir, String(counter++));
  mkdirSync(sub);
  const path = join(sub, name);
  writeFileSync(path, content);
  return path;
}
