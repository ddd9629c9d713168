import { parseArgs } from 'node:util';
import { loadDomainCatalog } from '../tools/catalog/domain.ts';
import { loadBuiltinTools, importToolCatalogs, readCatalog } from '../tools/registry.ts';
import { runCommand } from './context.ts';
import { sendTools, targetService } from './service-client.ts';

const usage = `usage: npm run tools:import -- <path>... [--builtin]
  <path>: an openEO processes folder (its *.json and proposals/), one process file, a saved
          GET /processes response, the Awesome Spectral Indices folder or spectral-indices-dict.json,
          or a JSON file of tool records ([{id, name, description, ...}] or {catalog, tools: [...]}).
  --builtin: (re)load the built-in domain catalog as well.
  --url: send the records to that running service (POST /v1/tools:import). Without it, a service holding
         the embedded data directory is found through the directory's lock and used.
  Each path is one transaction; ids owned by another catalog are skipped and reported.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { builtin: { type: 'boolean', default: false }, url: { type: 'string' }, help: { type: 'boolean', default: false } },
});
if (values.help || (positionals.length === 0 && !values.builtin)) {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}

/** Through the running service: each path read here, its records imported there in one transaction. */
async function importThroughService(url: string): Promise<void> {
  try {
    if (values.builtin) {
      const report = await sendTools(url, loadDomainCatalog());
      console.log(`built-in domain catalog: ${report.written} tools (${report.ms} ms)`);
    }
    for (const path of positionals) {
      const { kind, tools } = readCatalog(path);
      const report = await sendTools(url, tools);
      console.log(`${path} (${kind}): ${report.read} read, ${report.written} written (${report.ms} ms)`);
      for (const s of report.skipped) console.log(`  skipped ${s.id}: already registered by catalog '${s.ownedBy}'`);
    }
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}

const serviceUrl = targetService(values.url);
if (serviceUrl) await importThroughService(serviceUrl);
else await runCommand(async ({ database, embedder }) => {
  if (values.builtin) {
    const report = await loadBuiltinTools(database.db, embedder);
    console.log(`built-in domain catalog: ${report.written} tools (${report.ms} ms)`);
  }
  for (const report of await importToolCatalogs(database.db, embedder, positionals)) {
    console.log(`${report.path} (${report.kind}): ${report.read} read, ${report.written} written (${report.ms} ms)`);
    for (const s of report.skipped) console.log(`  skipped ${s.id}: already registered by catalog '${s.ownedBy}'`);
  }
});
