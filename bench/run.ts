import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { benchAsk } from './ask.ts';
import { benchAskAgainst } from './ask-against.ts';
import { benchIngest } from './ingest.ts';
import { benchLoad } from './load.ts';
import { benchMcp } from './mcp.ts';
import { benchScale } from './scale.ts';
import { benchSoak } from './soak.ts';
import { benchStartup } from './startup.ts';
import { writePerformanceDoc } from './report.ts';
import { benchToolSearch } from './tools.ts';

/**
 * `npm run bench [-- NAME...]`: runs the named benchmarks (all by default), merges results into
 * bench/results.json and renders docs/performance.md from it (`npm run bench -- report` renders only).
 */
const benches: Record<string, () => Promise<unknown>> = {
  startup: benchStartup,
  ask: benchAsk,
  // Not in the default run: it needs a second checkout (ASK_AGAINST).
  'ask-against': benchAskAgainst,
  ingest: benchIngest,
  tools: () => benchToolSearch(),
  // Not in the default run either: it spawns `npm run mcp` and asks every question three ways.
  mcp: () => benchMcp(),
  // Not in the default run: they take minutes (SOAK_SECONDS, LOAD_SECONDS per step, SCALE_SIZES).
  soak: benchSoak,
  load: benchLoad,
  scale: benchScale,
};
const DEFAULT_BENCHES = ['startup', 'ask', 'ingest', 'tools'];

const requested = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = requested.length ? requested.filter((n) => n !== 'report') : DEFAULT_BENCHES;
const unknown = names.filter((n) => !benches[n]);
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(benches).join(', ')}`);
  process.exit(2);
}

const file = new URL('./results.json', import.meta.url);
const results: Record<string, unknown> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
for (const name of names) {
  console.log(`bench ${name}…`);
  const result = await benches[name]!();
  // Results are kept per database mode where a benchmark reports one, and per variant where it names one
  // (the scale series: one entry per mode and size, so a 1M run does not overwrite the 100k figures).
  const { mode, variant } = result as { mode?: string; variant?: string };
  const key = [name, mode, variant].filter(Boolean).join(':');
  results[key] = { ...(result as object), measuredAt: new Date().toISOString(), node: process.version };
  console.log(JSON.stringify(result, null, 2));
}
if (names.length) {
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log('written to bench/results.json');
}
writePerformanceDoc(results);
console.log('rendered docs/performance.md');
