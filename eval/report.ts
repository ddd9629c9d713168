/**
 * The evaluation report: Markdown (docs/evaluation.md) and the SVG plot (docs/evaluation.svg) rendered
 * from the sections' data (docs/evaluation.json), so that `--only X` re-runs one section and the report
 * still shows the others as they were last measured (each section says when and how).
 */
import { PIPELINE } from './harness.ts';
import { ORACLE } from './oracle-plan.ts';
import type { MemoryEvalReport, MemoryPhase } from './memory.ts';
import { renderBarChart, type BarPanel } from './svg.ts';
import type { SpatialSummary } from './spatial.ts';
import type { ToolEvalResult } from './tools.ts';

export interface SectionMeta {
  at: string;
  mode: string;
  planner?: string;
  embedder: string;
}

export interface SpatialSection extends SectionMeta {
  summaries: Record<string, SpatialSummary>;
  byType: Record<string, SpatialSummary>;
  byLang: Record<string, SpatialSummary>;
  methods: string[];
}

export type ToolSummary = Omit<ToolEvalResult, 'lines'>;

export interface ToolsSection extends SectionMeta {
  system: ToolSummary;
  bm25: ToolSummary;
  dense: ToolSummary;
}

export interface MemorySection extends SectionMeta {
  result: Omit<MemoryEvalReport, 'before' | 'after'> & { before: MemoryPhaseSummary; after: MemoryPhaseSummary };
}

/** A memory phase in the report: summaries, with the per-request scores of the held-out half. */
export type MemoryPhaseSummary = Record<keyof MemoryPhase, ToolSummary> & { heldOut: ToolSummary & { lines: ToolEvalResult['lines'] } };

/** A request set of the project's own (`--set FILE [--catalog FILE]`): each method, on all lines and per split. */
export interface ToolSetSection extends SectionMeta {
  set: string;
  catalog?: string;
  rows: (ToolSummary & { label: string })[];
}

/** A spatial QA set of the project's own (`--set FILE`): the pipeline overall, per language, and the oracle plan. */
export interface SpatialSetSection extends SectionMeta {
  set: string;
  overall: SpatialSummary;
  byLang: Record<string, SpatialSummary>;
  oracle: SpatialSummary;
}

export interface EvalReport {
  spatial?: SpatialSection;
  /** Keyed by the set file. */
  spatialSets?: Record<string, SpatialSetSection>;
  tools?: ToolsSection;
  /** Keyed by the set file (and catalog file). */
  toolSets?: Record<string, ToolSetSection>;
  memory?: MemorySection;
}

export const TOOL_METHODS = [
  ['this service (semantic + complementarity, workflows)', 'system'],
  ['BM25 over tool texts', 'bm25'],
  ['dense similarity only', 'dense'],
] as const;

/** A ToolEvalResult without its per-line scores (what the report keeps). */
export function toolSummary(r: ToolEvalResult): ToolSummary {
  const { lines: _lines, ...rest } = r;
  return rest;
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const f3 = (x: number) => x.toFixed(3);
const produced = (s: SectionMeta) => `Measured ${s.at.slice(0, 10)}, ${s.mode} mode${s.planner ? `, planner ${s.planner}` : ''}, embedder ${s.embedder}.`;

function spatialMarkdown(s: SpatialSection): string[] {
  const md = ['## Spatial QA (`spatial-qa.dev.jsonl`, top-1 unless noted)', '', produced(s), '', '| method | delivery | spatial | semantic | both | p@5 | r@5 |', '|---|---|---|---|---|---|---|'];
  for (const [name, x] of Object.entries(s.summaries)) md.push(`| ${name} | ${pct(x.delivery)} | ${pct(x.spatial)} | ${pct(x.semantic)} | ${pct(x.both)} | ${f3(x.precisionAt5)} | ${f3(x.recallAt5)} |`);
  md.push('', `Mean latency of the pipeline through HTTP: ${s.summaries[PIPELINE]!.latencyMs.toFixed(1)} ms.`, '');
  md.push('| Spatial-RAG by | group | delivery | spatial | semantic | both | p@5 |', '|---|---|---|---|---|---|---|');
  for (const [key, groups] of [['type', s.byType], ['lang', s.byLang]] as const) {
    for (const [g, x] of Object.entries(groups)) md.push(`| ${key} | ${g} | ${pct(x.delivery)} | ${pct(x.spatial)} | ${pct(x.semantic)} | ${pct(x.both)} | ${f3(x.precisionAt5)} |`);
  }
  if (s.summaries[ORACLE]) {
    md.push(
      '',
      `Oracle plan: the pipeline given, for each question, the plan built from its gold fields (reference point, or the area, street or route by its gold name and kind; spatial function; distance; tags) instead of planning it (\`eval/oracle-plan.ts\`). The gap between the pipeline and this row is planning error, the ceiling an LLM planner could reach; what this row misses is retrieval and ranking.`,
    );
  }
  md.push('', `Baselines and ablations: ${s.methods.join('; ')}. They share the plan, the references and the candidate pool of the pipeline, so only the ranking differs (naive RAG has no spatial SQL at all).`, '');
  return md;
}

function toolsMarkdown(s: ToolsSection): string[] {
  const md = ['## EO tool retrieval (`tool-retrieval.dev.jsonl`)', '', produced(s), '', '| method | hit@1 | MRR@5 | NDCG@5 | recall@5 | completeness@5 | chain recall@10 | chain order | exact sequence | sequence (all) | exec |', '|---|---|---|---|---|---|---|---|---|---|---|'];
  for (const [name, key] of TOOL_METHODS) {
    const r = s[key];
    md.push(`| ${name} | ${f3(r.hit1)} | ${f3(r.mrr5)} | ${f3(r.ndcg5)} | ${f3(r.recall5 ?? 0)} | ${f3(r.complete5 ?? 0)} | ${f3(r.chainRecall10)} | ${r.counts.chainOrder ? f3(r.chainOrder) : '–'} | ${key === 'system' ? f3(r.exactSequence) : '–'} | ${key === 'system' ? f3(r.sequenceMatch) : '–'} | ${r.counts.exec ? f3(r.exec) : '–'} |`);
  }
  md.push('', `Exact sequence: over the ${s.system.counts.chain} requests with a gold chain, the proposed workflow (or the top tool alone) is the chain step for step, functional equivalents allowed. Sequence (all): over every request, against the gold chain or else the \`executable_requires\` prerequisites followed by any gold tool (this project's extension of the shared definitions). The baselines propose no workflow.`, '');
  return md;
}

const SET_METHODS: Record<string, string> = {
  system: 'this service',
  bm25: 'BM25 over the stored tool texts',
  'bm25-ref': 'BM25 reference (name + description, k1 1.5, b 0.75)',
  dense: 'dense similarity only',
};

function spatialSetsMarkdown(sets: Record<string, SpatialSetSection>): string[] {
  const md = [
    "## Spatial QA on the project's own sets",
    '',
    'Produced by `npm run eval -- --set FILE` (see `eval/sets/README.md`), pipeline through HTTP. The own check set was split once into a tuning half (its failures looked at while developing) and a check half (scored only to report).',
    '',
    '| set | questions | delivery | spatial | semantic | both | p@5 | oracle plan both | measured |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const key of Object.keys(sets).sort()) {
    const s = sets[key]!;
    const name = s.set.split('/').pop()!.replace(/\.jsonl(\.gz)?$/, '');
    const row = (label: string, x: SpatialSummary, oracle?: SpatialSummary) =>
      `| ${label} | ${x.n} | ${pct(x.delivery)} | ${pct(x.spatial)} | ${pct(x.semantic)} | ${pct(x.both)} | ${f3(x.precisionAt5)} | ${oracle ? pct(oracle.both) : '–'} | ${s.at.slice(0, 10)} |`;
    md.push(row(name, s.overall, s.oracle));
    for (const [lang, x] of Object.entries(s.byLang).sort()) md.push(row(`${name}, ${lang}`, x));
  }
  md.push('');
  return md;
}

function toolSetsMarkdown(sets: Record<string, ToolSetSection>): string[] {
  const md = [
    '## EO tool retrieval on the project\'s own sets',
    '',
    'Produced by `npm run eval -- --only tools --set FILE [--catalog FILE]` (one table per set; see `eval/sets/README.md`). The paraphrase set was split once into a tuning half (its failures looked at while developing) and a check half (scored only to report); the foreign catalog is registered by `id`, `name` and `description` only, and its lines carry their split.',
    '',
    '| set | method | n | hit@1 | MRR@5 | NDCG@5 | recall@5 | chain recall@10 | measured |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  const keys = Object.keys(sets).sort();
  for (const key of keys) {
    const s = sets[key]!;
    const name = s.set.split('/').pop()!.replace(/\.jsonl$/, '');
    for (const r of s.rows) {
      const [method, split] = r.label.replace(/\]$/, '').split('[');
      const label = `${SET_METHODS[method!] ?? method}${split ? ` (${split} lines)` : ''}`;
      md.push(`| ${name} | ${label} | ${r.n} | ${f3(r.hit1)} | ${f3(r.mrr5)} | ${f3(r.ndcg5)} | ${f3(r.recall5 ?? 0)} | ${r.counts.chain ? f3(r.chainRecall10) : '–'} | ${s.at.slice(0, 10)} |`);
    }
  }
  md.push('');
  return md;
}

/** "tdev-10 NDCG@5 1.000 → 0.920; …" for every held-out request whose scores differ before and after. */
function metricChanges(before: ToolEvalResult['lines'], after: ToolEvalResult['lines']): string {
  const metrics = [['hit@1', 'hit1'], ['MRR@5', 'mrr5'], ['NDCG@5', 'ndcg5'], ['exact sequence', 'exactSequence'], ['sequence', 'sequenceMatch'], ['chain recall@10', 'chainRecall10'], ['exec', 'exec']] as const;
  const out: string[] = [];
  for (const a of after) {
    const b = before.find((x) => x.id === a.id);
    if (!b) continue;
    const moved = metrics.filter(([, k]) => (a[k] ?? 0) !== (b[k] ?? 0)).map(([label, k]) => `${label} ${f3(b[k] ?? 0)} → ${f3(a[k] ?? 0)}`);
    if (moved.length) out.push(`${a.id} ${moved.join(', ')}`);
  }
  return out.join('; ');
}

function memoryMarkdown(s: MemorySection): string[] {
  const m = s.result;
  const row = (label: string, r: ToolSummary) => `| ${label} | ${r.n} | ${f3(r.hit1)} | ${f3(r.mrr5)} | ${f3(r.ndcg5)} | ${r.counts.chain ? f3(r.exactSequence) : '–'} | ${f3(r.sequenceMatch)} | ${r.counts.chain ? f3(r.chainRecall10) : '–'} | ${r.counts.exec ? f3(r.exec) : '–'} |`;
  const md = [
    '## Workflow memory: before and after replaying a run log (`tool-retrieval.dev.jsonl`)',
    '',
    produced(s),
    '',
    `Protocol (see "Memory protocol" below): seed ${m.seed}; history half ${m.sizes.history} requests (${m.historyIds.join(', ')}), held-out half ${m.sizes.heldOut} requests (${m.sizes.related} of a task type present in the history, ${m.sizes.unrelated} of a task type absent from it; ${m.sizes.chains} with a gold chain).`,
    '',
    '| held-out requests | n | hit@1 | MRR@5 | NDCG@5 | exact sequence (gold chains) | sequence (all) | chain recall@10 | exec |',
    '|---|---|---|---|---|---|---|---|---|',
    row('all, before', m.before.heldOut),
    row('all, after', m.after.heldOut),
    row('related task types, before', m.before.related),
    row('related task types, after', m.after.related),
    row('unrelated task types, before', m.before.unrelated),
    row('unrelated task types, after', m.after.unrelated),
    '',
    `Rankings changed by the memory: ${m.changed.related.length} of ${m.sizes.related} related held-out requests${m.changed.related.length ? ` (${m.changed.related.join(', ')})` : ''}; ${m.changed.unrelated.length} of ${m.sizes.unrelated} unrelated ones${m.changed.unrelated.length ? ` (${m.changed.unrelated.join(', ')})` : ''}.`,
    '',
    `Held-out requests whose metrics moved: ${metricChanges(m.before.heldOut.lines, m.after.heldOut.lines) || 'none'}.`,
    '',
    '| runs replayed through `POST /v1/runs` | sent | accepted | rejected by the gate |',
    '|---|---|---|---|',
  ];
  for (const kind of ['success', 'failure-then-fix', 'failure', 'poisoned', 'flood', 'total'] as const) {
    const c = m.runs[kind];
    md.push(`| ${kind} | ${c.sent} | ${c.accepted} | ${c.rejected} |`);
  }
  md.push('', `Memory after the replay: ${m.memory.workflows} workflows, ${m.memory.experiences} experiences, ${m.memory.sops} SOPs.`, '');
  return md;
}

const PROTOCOL = `### Memory protocol

\`../shared/eval\` has no run log, so the harness builds one from the tool dev set without touching the
answers it evaluates. The 40 requests are shuffled with a fixed seed (mulberry32) and dealt into two halves,
each request going to the half that holds fewer requests of its task type (the task type \`POST /v1/runs\`
itself assigns: the request parser's strongest one), so task types with two or more requests land on both
sides. Only the **history** half feeds the log: its gold chain (or its prerequisites then its first gold tool)
as a successful run; for multi-step ones also a failure-then-fix run (the second step fails because the
first was skipped, then both run); for every other history request a failed run of the highest-ranked
non-gold tool the empty-memory service returned for it; then five poisoned runs aimed at promoting a wrong
tool (unknown tool, injected instructions in the request and in the answer, an oversized answer, a tool
repeated beyond the limit) and a flood of ten identical failures from one client. Every run goes through
the real \`POST /v1/runs\` route, gate included. The **held-out** half is scored with an empty memory
(before) and after the replay; its requests whose task type never occurs in the history show whether
unrelated requests are left alone. Exact sequence counts only requests with a gold chain; sequence (all)
counts every request, against its gold chain or else its prerequisites followed by a gold tool (the sequence
the history's successful runs report). Requests parsed into several sub-tasks ("… then …") are composed
clause by clause and take no memory prior: a gold-chain request parsed that way cannot move.
`;

export function renderMarkdown(report: EvalReport): string {
  const md = ['# Evaluation', '', 'Produced by `npm run eval` (`-- --only spatial|tools|memory` re-measures one section and keeps the others).', '', '![Methods side by side](evaluation.svg)', ''];
  if (report.spatial) md.push(...spatialMarkdown(report.spatial));
  if (report.spatialSets && Object.keys(report.spatialSets).length) md.push(...spatialSetsMarkdown(report.spatialSets));
  if (report.tools) md.push(...toolsMarkdown(report.tools));
  if (report.toolSets && Object.keys(report.toolSets).length) md.push(...toolSetsMarkdown(report.toolSets));
  if (report.memory) md.push(...memoryMarkdown(report.memory), PROTOCOL);
  return `${md.join('\n')}\n`;
}

export function renderSvg(report: EvalReport): string {
  const panels: BarPanel[] = [];
  if (report.spatial) {
    panels.push({
      title: 'Spatial QA: both-pass and p@5 (spatial-qa.dev.jsonl)',
      series: ['both', 'p@5'],
      rows: Object.entries(report.spatial.summaries).map(([label, s]) => ({ label, values: [s.both, s.precisionAt5] })),
    });
  }
  if (report.tools) {
    panels.push({
      title: 'EO tool retrieval: MRR@5 and NDCG@5 (tool-retrieval.dev.jsonl)',
      series: ['MRR@5', 'NDCG@5'],
      rows: TOOL_METHODS.map(([label, key]) => ({ label, values: [report.tools![key].mrr5, report.tools![key].ndcg5] })),
    });
  }
  if (report.memory) {
    const m = report.memory.result;
    const metric = (label: string, get: (r: ToolSummary) => number | null) => ({ label, values: [get(m.before.heldOut), get(m.after.heldOut)] });
    panels.push({
      title: `Workflow memory: held-out half (n=${m.sizes.heldOut}) before and after the run log`,
      series: ['before', 'after'],
      rows: [
        metric('hit@1', (r) => r.hit1),
        metric('MRR@5', (r) => r.mrr5),
        metric('NDCG@5', (r) => r.ndcg5),
        metric('exact sequence (gold chains)', (r) => (r.counts.chain ? r.exactSequence : null)),
        metric('sequence (all)', (r) => r.sequenceMatch),
        metric('chain recall@10', (r) => (r.counts.chain ? r.chainRecall10 : null)),
      ],
    });
  }
  return renderBarChart(panels, { title: 'Spatial-RAG evaluation (dev sets)' });
}
