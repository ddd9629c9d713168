import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { runCommand } from '../src/cli/context.ts';
import { loadNycData } from '../src/ingest/nyc.ts';
import { ABLATIONS, BASELINES } from './spatial-methods.ts';
import { runSpatialEval } from './harness.ts';
import { formatToolEval, runToolEvaluation } from './tools.ts';
import { summarize, summaryLine, type SpatialQaItem, type SpatialSummary } from './spatial.ts';

/**
 * `npm run eval [-- --only spatial|tools] [--planner offline|llm] [--json out.json]`: runs the dev sets of
 * ../shared/eval against the configured database (loading ../shared/data/nyc when it is absent), the
 * pipeline through its real HTTP route, its ablations and the baselines on the same data, and writes
 * docs/evaluation.md.
 */
const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    planner: { type: 'string', default: 'offline' },
    json: { type: 'string' },
    shared: { type: 'string', default: '../shared' },
  },
});
const EVAL_DIR = `${values.shared}/eval`;
const DATA_DIR = `${values.shared}/data`;

function readLines<T>(file: string): T[] {
  return readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as T);
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

await runCommand(async ({ database, embedder, config }) => {
  const report: Record<string, unknown> = { planner: values.planner, mode: database.mode, at: new Date().toISOString() };
  const markdown: string[] = ['# Evaluation', '', `Produced by \`npm run eval\` (${database.mode} mode, planner ${values.planner}, embedder ${embedder.model}).`, ''];

  if (!values.only || values.only === 'spatial') {
    const file = `${EVAL_DIR}/spatial-qa.dev.jsonl`;
    if (!existsSync(file)) throw new Error(`${file} not found`);
    const hasOsm = await sql<{ n: number }>`SELECT count(*)::int AS n FROM places WHERE source = 'osm'`.execute(database.db);
    if (hasOsm.rows[0]!.n === 0) {
      console.error('loading ../shared/data/nyc (Midtown OSM extract + neighbourhoods)…');
      await loadNycData(database.db, embedder, {
        midtownPbf: `${DATA_DIR}/nyc/manhattan-midtown.osm.pbf`,
        neighborhoods: `${DATA_DIR}/nyc/nyc-neighborhood-boundaries.geojson`,
      }, database.mode === 'embedded');
    }
    const items = readLines<SpatialQaItem>(file);
    const byMethod = await runSpatialEval(database.db, embedder, database.mode, items, values.planner as 'offline' | 'llm');
    const summaries: Record<string, SpatialSummary> = {};
    for (const [name, outcomes] of Object.entries(byMethod)) summaries[name] = summarize(outcomes);
    const pipeline = byMethod['Spatial-RAG (HTTP)']!;
    const groups = (key: 'type' | 'lang') => [...new Set(pipeline.map((o) => o[key]))].map((g) => [g, summarize(pipeline.filter((o) => o[key] === g))] as const);
    report.spatial = { summaries, byType: Object.fromEntries(groups('type')), byLang: Object.fromEntries(groups('lang')) };

    markdown.push('## Spatial QA (`spatial-qa.dev.jsonl`, top-1 unless noted)', '', '| method | delivery | spatial | semantic | both | p@5 | r@5 |', '|---|---|---|---|---|---|---|');
    for (const [name, s] of Object.entries(summaries)) {
      markdown.push(`| ${name} | ${pct(s.delivery)} | ${pct(s.spatial)} | ${pct(s.semantic)} | ${pct(s.both)} | ${s.precisionAt5.toFixed(3)} | ${s.recallAt5.toFixed(3)} |`);
    }
    markdown.push('', `Mean latency of the pipeline through HTTP: ${summaries['Spatial-RAG (HTTP)']!.latencyMs.toFixed(1)} ms.`, '');
    markdown.push('| Spatial-RAG by | group | delivery | spatial | semantic | both | p@5 |', '|---|---|---|---|---|---|---|');
    for (const key of ['type', 'lang'] as const) {
      for (const [g, s] of groups(key)) markdown.push(`| ${key} | ${g} | ${pct(s.delivery)} | ${pct(s.spatial)} | ${pct(s.semantic)} | ${pct(s.both)} | ${s.precisionAt5.toFixed(3)} |`);
    }
    markdown.push('', `Baselines and ablations: ${[...BASELINES, ...Object.keys(ABLATIONS)].join('; ')}. They share the plan, the references and the candidate pool of the pipeline, so only the ranking differs (naive RAG has no spatial SQL at all).`, '');
    for (const [name, s] of Object.entries(summaries)) console.log(`${name.padEnd(44)} ${summaryLine(s)}`);
    console.log(summaryLine(summaries['Spatial-RAG (HTTP)']!));
  }

  if (!values.only || values.only === 'tools') {
    const file = `${EVAL_DIR}/tool-retrieval.dev.jsonl`;
    if (!existsSync(file)) throw new Error(`${file} not found`);
    // The tool evaluation uses its own in-memory registry of the three catalogs, so the numbers do not
    // depend on what the configured database happens to hold.
    const tools = await runToolEvaluation(file);
    report.tools = { system: { ...tools.system, lines: undefined }, bm25: { ...tools.bm25, lines: undefined }, dense: { ...tools.dense, lines: undefined } };
    const f = (x: number) => x.toFixed(3);
    markdown.push('## EO tool retrieval (`tool-retrieval.dev.jsonl`)', '', '| method | hit@1 | MRR@5 | NDCG@5 | chain recall@10 | chain order | exec |', '|---|---|---|---|---|---|---|');
    for (const [name, r] of [['this service (semantic + complementarity, workflows)', tools.system], ['BM25 over tool texts', tools.bm25], ['dense similarity only', tools.dense]] as const) {
      markdown.push(`| ${name} | ${f(r.hit1)} | ${f(r.mrr5)} | ${f(r.ndcg5)} | ${f(r.chainRecall10)} | ${r.counts.chainOrder ? f(r.chainOrder) : '–'} | ${r.counts.exec ? f(r.exec) : '–'} |`);
    }
    markdown.push('');
    console.log(`BM25   ${formatToolEval(tools.bm25)}`);
    console.log(`dense  ${formatToolEval(tools.dense)}`);
    console.log(formatToolEval(tools.system));
  }

  mkdirSync('docs', { recursive: true });
  writeFileSync('docs/evaluation.md', `${markdown.join('\n')}\n`);
  if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  void config;
});
