import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { checkDrops, loadCheckQueries, runToolCheck, type CheckReport, DEFAULT_CHECK_QUERIES } from './tool-check.ts';
import { countTools } from '../src/tools/repository.ts';
import { runCommand } from '../src/cli/context.ts';

const usage = `usage: npm run tools:check [-- --queries FILE] [--file .data/tools-check.json] [--accept]
  Re-runs the standard tool queries and compares with the last stored result.
  Exit 1 when a query got worse; the stored baseline is then kept (use --accept to replace it).`;

const { values } = parseArgs({
  options: {
    queries: { type: 'string' },
    file: { type: 'string', default: '.data/tools-check.json' },
    accept: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}

await runCommand(async ({ database, embedder }) => {
  if ((await countTools(database.db)) === 0) {
    throw new Error('no tools are registered: run `npm run seed` or `npm run tools:import` first');
  }
  const current = await runToolCheck(database.db, embedder, loadCheckQueries(values.queries ?? DEFAULT_CHECK_QUERIES));
  const s = current.summary;
  console.log(`tools-check: hit@1=${s.hit1.toFixed(3)} mrr@10=${s.mrr10.toFixed(3)} missing_flagged=${s.missingOk.toFixed(3)} n=${s.n} tools=${current.tools}`);
  const file = values.file;
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CheckReport) : undefined;
  const drops = previous ? checkDrops(previous, current) : [];
  for (const d of drops) console.log(`DROP ${d}`);
  if (previous && drops.length === 0) console.log(`no drop against ${file} (${previous.at})`);
  if (!previous || drops.length === 0 || values.accept) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(current, null, 2)}\n`);
    console.log(`${previous ? 'updated' : 'stored'} ${file}`);
  }
  if (drops.length > 0 && !values.accept) process.exitCode = 1;
});
