import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readJsonLines } from './json-lines.ts';
import { sql } from 'kysely';
import { runCommand } from '../src/cli/context.ts';
import { createOfflineEmbedderWithLexicons } from '../src/embedding/configured.ts';
import { loadNycData } from '../src/ingest/nyc.ts';
import { ABLATIONS, BASELINES } from './spatial-methods.ts';
import { PIPELINE, runSpatialEval } from './harness.ts';
import { ORACLE } from './oracle-plan.ts';
import { runMemoryEvaluation } from './memory.ts';
import { renderMarkdown, renderSvg, toolSummary, type EvalReport, type SectionMeta } from './report.ts';
import { formatToolEval, readEvalLines, report as reportLine, reportRows, runToolEvaluation, withToolRegistry } from './tools.ts';
import { summarize, summaryLine, type SpatialQaItem, type SpatialSummary } from './spatial.ts';

/**
 * `npm run eval -- --only tools --set FILE [--catalog FILE]` scores any request set instead (with the
 * service, BM25 and dense side by side, per split when the lines have one); `--catalog` registers only
 * that foreign catalog (a JSON array of {id, name, description}) through POST /v1/tools. The set's table
 * is kept in the report next to the dev set's.
 *
 * `npm run eval [-- --only spatial|tools|memory] [--planner offline|llm] [--json out.json]`: runs the dev sets
 * of ../shared/eval against the configured database (loading ../shared/data/nyc when it is absent): the
 * pipeline through its real HTTP route, its ablations and the baselines on the same data, the tool search
 * and its baselines, and the workflow memory before/after a replayed run log. Writes docs/evaluation.json
 * (the sections' data; `--only` replaces one section and keeps the others), docs/evaluation.md and the plot
 * docs/evaluation.svg.
 */
const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    planner: { type: 'string', default: 'offline' },
    json: { type: 'string' },
    shared: { type: 'string', default: '../shared' },
    set: { type: 'string' },
    catalog: { type: 'string' },
  },
});
const SECTIONS = ['spatial', 'tools', 'memory'] as const;
if (values.only && !SECTIONS.includes(values.only as never)) {
  console.error(`--only must be one of ${SECTIONS.join(', ')}`);
  process.exit(2);
}
const EVAL_DIR = `${values.shared}/eval`;
const DATA_DIR = `${values.shared}/data`;
const REPORT_JSON = 'docs/evaluation.json';
const wanted = (s: (typeof SECTIONS)[number]) => !values.only || values.only === s;

const readLines = readJsonLines;

function requireFile(file: string): string {
  if (!existsSync(file)) throw new Error(`${file} not found`);
  return file;
}

const report: EvalReport = values.only && existsSync(REPORT_JSON) ? (JSON.parse(readFileSync(REPORT_JSON, 'utf8')) as EvalReport) : {};
const meta = (mode: string, embedderModel: string, planner?: string): SectionMeta => ({ at: new Date().toISOString(), mode, ...(planner ? { planner } : {}), embedder: embedderModel });

// `--set FILE`: scores the pipeline alone on any spatial QA file (a project's own set), per language, with the
// failed questions listed, and keeps its table in the report beside the dev set's (the other sections are left
// as they are). With `--only tools`, a tool request set.
if (values.set && values.only !== 'tools') {
  const file = requireFile(values.set);
  await runCommand(async ({ database, embedder }) => {
    const items = readLines<SpatialQaItem>(file);
    const byMethod = await runSpatialEval(database.db, embedder, database.mode, items, values.planner as 'offline' | 'llm', true);
    const outcomes = byMethod[PIPELINE]!;
    for (const o of outcomes) {
      if (o.spatial && o.semantic) continue;
      const item = items.find((i) => i.id === o.id)!;
      console.log(`${o.id} ${o.delivered ? '' : 'undelivered '}${o.spatial ? '' : 'spatial✗ '}${o.semantic ? '' : 'semantic✗ '}${item.question}`);
    }
    for (const lang of [...new Set(outcomes.map((o) => o.lang))]) console.log(`${lang.padEnd(4)} ${summaryLine(summarize(outcomes.filter((o) => o.lang === lang)))}`);
    console.log(summaryLine(summarize(outcomes)));
    console.log(`oracle plan: ${summaryLine(summarize(byMethod[ORACLE]!))}`);
    const kept: EvalReport = existsSync(REPORT_JSON) ? (JSON.parse(readFileSync(REPORT_JSON, 'utf8')) as EvalReport) : {};
    const byLang = Object.fromEntries([...new Set(outcomes.map((o) => o.lang))].map((lang) => [lang, summarize(outcomes.filter((o) => o.lang === lang))]));
    const section = { ...meta(database.mode, embedder.model, values.planner), set: values.set!, overall: summarize(outcomes), byLang, oracle: summarize(byMethod[ORACLE]!) };
    kept.spatialSets = { ...(kept.spatialSets ?? {}), [values.set!]: section };
    writeReport(kept);
  });
  process.exit(process.exitCode ?? 0);
}

// Spatial QA runs on the configured database; the tool and memory sections on their own in-memory registry.
if (wanted('spatial')) {
  await runCommand(async ({ database, embedder }) => {
    const file = requireFile(`${EVAL_DIR}/spatial-qa.dev.jsonl`);
    const hasOsm = await sql<{ n: number }>`SELECT count(*)::int AS n FROM places WHERE source = 'osm'`.execute(database.db);
    if (hasOsm.rows[0]!.n === 0) {
      console.error('loading ../shared/data/nyc (Midtown OSM extract + neighbourhoods)…');
      await loadNycData(database.db, embedder, {
        midtownPbf: `${DATA_DIR}/nyc/manhattan-midtown.osm.pbf`,
        neighborhoods: `${DATA_DIR}/nyc/nyc-neighborhood-boundaries.geojson`,
      }, database.mode === 'embedded');
    }
    const byMethod = await runSpatialEval(database.db, embedder, database.mode, readLines<SpatialQaItem>(file), values.planner as 'offline' | 'llm');
    const summaries: Record<string, SpatialSummary> = {};
    for (const [name, outcomes] of Object.entries(byMethod)) summaries[name] = summarize(outcomes);
    const pipeline = byMethod[PIPELINE]!;
    const groups = (key: 'type' | 'lang') => Object.fromEntries([...new Set(pipeline.map((o) => o[key]))].map((g) => [g, summarize(pipeline.filter((o) => o[key] === g))]));
    report.spatial = { ...meta(database.mode, embedder.model, values.planner), summaries, byType: groups('type'), byLang: groups('lang'), methods: [...BASELINES, ...Object.keys(ABLATIONS)] };
    for (const [name, s] of Object.entries(summaries)) console.log(`${name.padEnd(44)} ${summaryLine(s)}`);
    console.log(summaryLine(summaries[PIPELINE]!));
  });
  if (process.exitCode) process.exit();
}

try {
  const toolEmbedder = createOfflineEmbedderWithLexicons().model;
  if (wanted('tools') && values.set) {
    // Any other request set (own paraphrases, a foreign catalog): printed, and kept in the report as its
    // own table beside the dev set (keyed by the set and catalog files, so each set's last run is shown).
    const result = await runToolEvaluation(requireFile(values.set), false, values.catalog ? requireFile(values.catalog) : undefined);
    const rows = reportRows(result);
    for (const [label, r] of rows) console.log(reportLine(label, r));
    const key = [values.set, values.catalog].filter(Boolean).join(' + ');
    const catalogMeta = values.catalog ? { catalog: values.catalog } : {};
    report.toolSets = { ...(report.toolSets ?? {}), [key]: { ...meta('embedded (in-memory registry)', toolEmbedder), set: values.set, ...catalogMeta, rows: rows.map(([label, r]) => ({ label, ...toolSummary(r) })) } };
  }
  if (wanted('tools') && !values.set) {
    const tools = await runToolEvaluation(requireFile(`${EVAL_DIR}/tool-retrieval.dev.jsonl`));
    report.tools = { ...meta('embedded (in-memory registry)', toolEmbedder), system: toolSummary(tools.system), bm25: toolSummary(tools.bm25), dense: toolSummary(tools.dense) };
    console.log(`BM25   ${formatToolEval(tools.bm25)}`);
    console.log(`dense  ${formatToolEval(tools.dense)}`);
    console.log(formatToolEval(tools.system));
  }

  if (wanted('memory')) {
    const lines = readEvalLines(requireFile(`${EVAL_DIR}/tool-retrieval.dev.jsonl`));
    const result = await withToolRegistry(({ app, search }) => runMemoryEvaluation(app, lines, search));
    // Per-request scores of the held-out half are kept in the JSON, so a change can be traced to its requests.
    const phase = (p: typeof result.before) => ({ heldOut: { ...toolSummary(p.heldOut), lines: p.heldOut.lines }, related: toolSummary(p.related), unrelated: toolSummary(p.unrelated) });
    report.memory = { ...meta('embedded (in-memory registry)', toolEmbedder), result: { ...result, before: phase(result.before), after: phase(result.after) } };
    const { sizes, runs } = result;
    console.log(`memory split: history=${sizes.history} held-out=${sizes.heldOut} (related=${sizes.related} unrelated=${sizes.unrelated})`);
    console.log(`memory runs: sent=${runs.total.sent} accepted=${runs.total.accepted} rejected=${runs.total.rejected} (poisoned rejected ${runs.poisoned.rejected}/${runs.poisoned.sent}, flood accepted ${runs.flood.accepted}/${runs.flood.sent})`);
    console.log(`memory before ${formatToolEval(result.before.heldOut)} exact_seq=${result.before.heldOut.exactSequence.toFixed(3)}`);
    console.log(`memory after  ${formatToolEval(result.after.heldOut)} exact_seq=${result.after.heldOut.exactSequence.toFixed(3)}`);
  }
} catch (error) {
  process.stderr.write(`error: ${(error as Error).message}\n`);
  process.exit(1);
}

writeReport(report);

function writeReport(r: EvalReport): void {
  mkdirSync('docs', { recursive: true });
  writeFileSync(REPORT_JSON, `${JSON.stringify(r, null, 2)}\n`);
  writeFileSync('docs/evaluation.md', renderMarkdown(r));
  writeFileSync('docs/evaluation.svg', renderSvg(r));
  if (values.json) writeFileSync(values.json, `${JSON.stringify(r, null, 2)}\n`);
}
