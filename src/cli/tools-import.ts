import { parseArgs } from 'node:util';
import { loadBuiltinTools, importToolCatalogs } from '../tools/registry.ts';
import { runCommand } from './context.ts';

const usage = `usage: npm run tools:import -- <path>... [--builtin]
  <path>: an openEO processes folder (its *.json and proposals/), one process file, a saved
          GET /processes response, the Awesome Spectral Indices folder or spectral-indices-dict.json,
          or a JSON file of tool records ([{id, name, description, ...}] or {catalog, tools: [...]}).
  --builtin: (re)load the built-in domain catalog as well.
  Each path is one transaction; ids owned by another catalog are skipped and reported.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { builtin: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
});
if (values.help || (positionals.length === 0 && !values.builtin)) {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}

await runCommand(async ({ database, embedder }) => {
  if (values.builtin) {
    const report = await loadBuiltinTools(database.db, embedder);
    console.log(`built-in domain catalog: ${report.written} tools (${report.ms} ms)`);
  }
  for (const report of await importToolCatalogs(database.db, embedder, positionals)) {
    console.log(`${report.path} (${report.kind}): ${report.read} read, ${report.written} written (${report.ms} ms)`);
    for (const s of report.skipped) console.log(`  skipped ${s.id}: already registered by catalog '${s.ownedBy}'`);
  }
});
