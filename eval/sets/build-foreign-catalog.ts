/**
 * Regenerates foreign-catalog.tools.json from the openEO process specifications (../shared/data/eo):
 * every process under a fresh id (`proc_NNNN`, numbered in an order that hides the openEO id) with only
 * its summary as the name and its description. The registry has never seen these ids, so the knowledge
 * graph's links by tool id do not apply: the check measures retrieval on a catalog the project does not
 * know. `source` records the openEO process for attribution; it is never sent to the service.
 *
 *   npx tsx eval/sets/build-foreign-catalog.ts [../shared/data/eo/openeo-processes]
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Process {
  id: string;
  summary?: string;
  description?: string;
}

export interface ForeignTool {
  id: string;
  name: string;
  description: string;
  source: string;
}

function processesIn(dir: string): Process[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Process);
}

/** A stable order unrelated to the openEO ids' alphabetical order. */
function shuffleKey(id: string): string {
  return createHash('sha256').update(`foreign-catalog:${id}`).digest('hex');
}

export function buildForeignCatalog(dir: string): ForeignTool[] {
  const all = [...processesIn(dir), ...processesIn(join(dir, 'proposals'))].filter((p) => p.summary && p.description);
  all.sort((a, b) => (shuffleKey(a.id) < shuffleKey(b.id) ? -1 : 1));
  return all.map((p, i) => ({ id: `proc_${String(i + 1).padStart(4, '0')}`, name: p.summary!, description: p.description!.trim(), source: `openeo-processes:${p.id}` }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = process.argv[2] ?? fileURLToPath(new URL('../../../shared/data/eo/openeo-processes', import.meta.url));
  const tools = buildForeignCatalog(dir);
  writeFileSync(fileURLToPath(new URL('./foreign-catalog.tools.json', import.meta.url)), `${JSON.stringify(tools, null, 1)}\n`);
  console.log(`${tools.length} tools`);
}
