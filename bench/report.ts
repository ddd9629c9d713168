/**
 * Renders docs/performance.md from bench/results.json: one table per benchmark, the latest run of each, with
 * when and under which load it was measured. `npm run bench` rewrites the page after every run;
 * `npm run bench -- report` only re-renders it. History is in git, not in the page.
 */
import { writeFileSync } from 'node:fs';

// biome-ignore lint/suspicious/noExplicitAny: results.json holds each benchmark's own shape; every read is guarded.
type Json = Record<string, any>;
interface Percentiles {
  p50?: number;
  p95?: number;
  p99?: number;
}

const num = (v: unknown, digits = 0): string =>
  typeof v === 'number' && Number.isFinite(v) ? v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–';
const ms = (p: Percentiles | undefined, digits = 1): string => (p ? `${num(p.p50, digits)} / ${num(p.p95, digits)}` : '–');
const when = (r: Json): string => (typeof r.measuredAt === 'string' ? r.measuredAt.slice(0, 16).replace('T', ' ') : '–');
const load = (l: unknown): string => {
  if (Array.isArray(l)) return num(l[0], 1);
  if (l && typeof l === 'object') {
    const { start, end } = l as { start?: number; end?: number };
    return start === undefined ? '–' : `${num(start, 1)}–${num(end, 1)}`;
  }
  return '–';
};

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** Entries of one benchmark (`name` or `name:mode[:variant]`), in a stable order. */
function entries(results: Json, name: string): Array<[string, Json]> {
  return Object.entries(results)
    .filter(([key]) => key === name || key.startsWith(`${name}:`))
    .sort(([a], [b]) => a.localeCompare(b)) as Array<[string, Json]>;
}

function startup(results: Json): string | undefined {
  const r = results.startup as Json | undefined;
  if (!r) return undefined;
  return table(
    ['embedded start, to the first 200 on /readyz', 'seconds', 'measured (UTC)'],
    [
      ['cold (new data directory: initdb, extensions, migrations; SEED=none)', num(r.coldStartMs / 1000, 1), when(r)],
      ['warm (existing data directory)', num(r.warmStartMs / 1000, 1), when(r)],
      ...(r.firstRunSeededMs
        ? [
            ['first run of a fresh clone (default SEED: the seed sets of seed/, target ≤ 60 s)', num(r.firstRunSeededMs / 1000, 1), when(r)],
            ['warm, after it', num(r.warmStartSeededMs / 1000, 1), when(r)],
          ]
        : []),
    ],
  );
}

function askStages(results: Json): string | undefined {
  const rows = entries(results, 'ask').map(([, r]) => {
    const s = r.stagesMs ?? {};
    const first = r.firstSeenStagesMs?.total;
    return [r.mode ?? '–', ms(s.plan), ms(s.resolve), ms(s.embed), ms(s.sql), ms(s.rank), ms(s.answer), `**${ms(s.total)}**`, ms(first), load(r.loadAverage), when(r)];
  });
  if (!rows.length) return undefined;
  return table(['mode', 'plan', 'resolve', 'embed', 'SQL', 'rank', 'answer', 'total', 'total, first time', 'load avg', 'measured (UTC)'], rows);
}

function askAgainst(results: Json): string | undefined {
  const rows = entries(results, 'ask-against').map(([, r]) => [r.mode ?? '–', r.variant ?? '–', ms(r.thisMs), ms(r.otherMs), `**${num(r.p50Ratio, 2)}**`, num(r.requests), load(r.loadAverage), when(r)]);
  if (!rows.length) return undefined;
  return table(['mode', 'other checkout', 'this p50 / p95 ms', 'other p50 / p95 ms', 'p50 ratio', 'questions asked (each)', 'load avg', 'measured (UTC)'], rows);
}

function ingest(results: Json): string | undefined {
  const rows = entries(results, 'ingest').map(([, r]) => [
    r.mode ?? '–',
    `${num(r.features)} (${r.file ?? '–'})`,
    `**${num(r.featuresPerSecond?.median)}** (${num(r.featuresPerSecond?.min)}–${num(r.featuresPerSecond?.max)}), ${num(r.runs)} runs`,
    num((r.ms?.median ?? NaN) / 1000, 1),
    num(r.peakRssMB?.median),
    when(r),
  ]);
  if (!rows.length) return undefined;
  return table(['mode', 'features', 'features/s: median (min–max)', 'seconds', 'peak RSS MB', 'measured (UTC)'], rows);
}

function tools(results: Json): string | undefined {
  const rows = entries(results, 'tools').map(([, r]) => [r.mode ?? '–', num(r.tools), `${num(r.p50Ms, 1)} / ${num(r.p95Ms, 1)}`, load(r.loadAverage), when(r)]);
  if (!rows.length) return undefined;
  return table(['mode', 'registered tools', 'search p50 / p95 ms', 'load avg', 'measured (UTC)'], rows);
}

function httpLoad(results: Json): string | undefined {
  const rows = entries(results, 'load').flatMap(([, r]) =>
    (r.steps as Json[] | undefined ?? []).map((s) => [
      `${s.route}, ${r.mode}`,
      num(s.concurrency),
      `**${num(s.requestsPerSecond, 1)}**`,
      `${num(s.latencyMs?.p50, 1)} / ${num(s.latencyMs?.p95, 1)} / ${num(s.latencyMs?.p99, 1)}`,
      `${num(s.errors)}, ${num(s.timeouts)}, ${num(s.non2xx)}`,
      num(s.rssMB?.max),
      load(s.loadAverage),
      when(r),
    ]),
  );
  if (!rows.length) return undefined;
  return table(['route, mode', 'clients', 'requests/s', 'latency p50 / p95 / p99 ms', 'errors, timeouts, non-2xx', 'service RSS max MB', 'load avg', 'measured (UTC)'], rows);
}

function soak(results: Json): string | undefined {
  const rows = entries(results, 'soak').map(([, r]) => [
    r.mode ?? '–',
    `${num(r.seconds)} s, ${num(r.concurrency)} clients`,
    num(r.requests),
    `**${num(r.errors)}**`,
    `${num(r.latencyMs?.all?.p50)} / ${num(r.latencyMs?.all?.p95)} / ${num(r.latencyMs?.all?.p99)}`,
    `${num(r.rssMB?.start, 1)} → ${num(r.rssMB?.end, 1)} (max ${num(r.rssMB?.max, 1)})`,
    load(r.loadAverage),
    when(r),
  ]);
  if (!rows.length) return undefined;
  return table(['mode', 'length', 'requests', 'errors', 'latency p50 / p95 / p99 ms', 'RSS MB start → end', 'load avg', 'measured (UTC)'], rows);
}

function scale(results: Json): string | undefined {
  // The newest run of each (mode, size), whichever series it came from.
  const latest = new Map<string, { run: Json; at: Json }>();
  for (const [, r] of entries(results, 'scale')) {
    for (const run of (r.runs as Json[] | undefined) ?? []) {
      const key = `${run.mode ?? r.mode}:${String(run.size).padStart(12, '0')}`;
      const seen = latest.get(key);
      if (!seen || String(r.measuredAt) > String(seen.at.measuredAt)) latest.set(key, { run, at: r });
    }
  }
  const rows = [...latest.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, { run, at }]) => [
      `${num(run.size)}, ${run.mode ?? at.mode}`,
      num(run.places?.vectors),
      `${num(run.ingest?.featuresPerSecond)} (${num((run.ingest?.ms ?? NaN) / 1000, 1)} s)`,
      `**${num(run.ask?.answeredMs?.p50, 1)} / ${num(run.ask?.answeredMs?.p95, 1)}**`,
      `${num(run.raw?.answeredMs?.p50, 1)} / ${num(run.raw?.answeredMs?.p95, 1)}`,
      num(run.raw?.overheadRatioP50, 1),
      num(run.peakRssMB),
      run.explain?.shardsTouched ? `${num(run.explain.shardsTouched.max)} of ${num(run.explain.shardsTouched.shardsOfPlaces)}` : '–',
      load(run.ask?.loadAverage),
      when(at),
    ]);
  if (!rows.length) return undefined;
  return table(['places, mode', 'vectors', 'ingest features/s (time)', '/v1/ask p50 / p95 ms (answered)', 'hand-written SQL p50 / p95 ms', 'pipeline ÷ SQL', 'peak RSS MB', 'shards read (Citus, most)', 'load avg', 'measured (UTC)'], rows);
}

const SECTIONS: Array<[title: string, intro: string, render: (r: Json) => string | undefined]> = [
  ['Start-up', '`npm run bench -- startup`: the service started as a child process on a new, then an existing, data directory.', startup],
  [
    'Question pipeline',
    '`npm run bench -- ask`: the 40 dev questions on Midtown, offline planner, in process; p50 / p95 ms per stage, steady state (5 rounds after a first one), and the total for each question the first time (resolved names not cached).',
    askStages,
  ],
  [
    'Question pipeline against another commit',
    '`ASK_AGAINST=DIR npm run bench -- ask-against`: the same questions through this checkout\'s pipeline and through the one of another checkout DIR, in one process on one database, alternating question by question, so that the ratio holds whatever else loads the machine (`ASK_MAX_RATIO` makes a larger one fail). The other checkout here is 9a65d5e, the last commit before the question-understanding work.',
    askAgainst,
  ],
  ['Ingest', '`BENCH_RUNS=3 npm run bench -- ingest`: the Midtown `.osm.pbf` into a fresh database; the benchmark fails if any feature is missing.', ingest],
  ['EO tool search', '`npm run bench -- tools`: `POST /v1/tools/search` with a large registered catalog.', tools],
  ['HTTP load', '`npm run bench -- load`: autocannon against the started service (a child process), per route and number of clients.', httpLoad],
  ['Soak', '`npm run bench -- soak`: a mix of questions (English and Chinese), tool searches and OGC items for 10 minutes; memory must stay flat.', soak],
  [
    'Scale',
    '`SCALE_SIZES=100k,1m npm run bench -- scale`: the NYC data plus tiled copies of the Midtown extract, loaded by the project\'s loader, then every dev question; the hand-written SQL column is each question as one spatial + tag + vector query over its gold reference (no planning or ranking). EXPLAIN of every candidate query must show no sequential scan on `places`. `SCALE_CITUS=100k` (with `CITUS_DATABASE_URL`, `CITUS_ADMIN_URL`) adds the same on a Citus coordinator and its workers, with the shards each candidate query reads ([operations.md](operations.md#distributed-mode-citus)).',
    scale,
  ],
];

export function renderPerformanceDoc(results: Json): string {
  const parts = [
    '# Performance',
    '',
    'Generated by `npm run bench` from [bench/results.json](../bench/results.json) (do not edit by hand): the latest',
    'run of each benchmark. Speed targets live here, never in timed unit tests. Measured on the 2-core',
    'development machine, often shared with other jobs: read the figures as upper bounds, and compare a change',
    'with a run of the old code under the same load. How the service scales out is in',
    '[operations.md](operations.md#scale-out).',
  ];
  for (const [title, intro, render] of SECTIONS) {
    const body = render(results);
    if (body) parts.push('', `## ${title}`, '', intro, '', body);
  }
  return `${parts.join('\n')}\n`;
}

export function writePerformanceDoc(results: Json): void {
  writeFileSync(new URL('../docs/performance.md', import.meta.url), renderPerformanceDoc(results));
}
