/**
 * `npm run bench -- soak`: the started service (a child process, as in production) under a bounded, moderate,
 * mixed load, with its resident memory sampled throughout (no errors, and memory that stays flat).
 *
 *   SOAK_SECONDS      length of the measured run (default 600)
 *   SOAK_CONCURRENCY  clients sending requests back to back (default 8)
 *   SOAK_SAMPLE_MS    RSS sampling period (default 5000)
 *   DATABASE_URL      server mode: a scratch database cloned from the template, dropped afterwards;
 *                     unset: embedded mode in a scratch data directory (SOAK_PGLITE_TEMPLATE: a data directory
 *                     with the NYC data to copy instead of loading it)
 *
 * The mix: /v1/ask (every dev question plus a few more, English and Chinese), /v1/tools/search (every tool dev
 * query), and /collections items pages (bbox, name text, category, paging). Any answer that is not 2xx, and
 * any request that gets no answer, is an error, counted by route and status.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createOfflineEmbedderWithLexicons } from '../src/embedding/configured.ts';
import { loadNycData } from '../src/ingest/nyc.ts';
import { hasBuiltinTools, loadBuiltinTools } from '../src/tools/registry.ts';
import { percentile } from './ask.ts';
import { scratchServerDatabase } from './scratch.ts';

const SHARED = resolve(process.env.SRAG_SHARED_DATA ?? '../shared/data');
const EVAL = resolve(SHARED, '../eval');
const PORT = 3911;

function envInt(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

interface Request {
  route: 'ask' | 'tools' | 'items';
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/** Chinese questions beyond the two of the dev set, so that both grammars run often. */
const EXTRA_QUESTIONS = [
  '宾州车站附近的药店',
  '中央车站200米以内的咖啡馆',
  '布莱恩特公园附近有哪些餐厅？',
  '离帝国大厦最近的银行是哪一家？',
  'Where can I get a coffee near Bryant Park?',
  'Which hotels are within 300 m of Times Square?',
];

/** Bounding boxes inside the Midtown extract, from a few blocks to the whole of it. */
const BBOXES = ['-73.99,40.745,-73.98,40.755', '-73.985,40.75,-73.975,40.76', '-74.01,40.74,-73.96,40.77', '-73.98,40.74,-73.97,40.75'];
const NAME_TEXT = ['cafe', 'pizza', 'bank', 'hotel', 'deli', 'park', 'church', 'street'];
const CATEGORIES = ['cafe', 'restaurant', 'pharmacy', 'bank', 'hotel'];

function requestMix(): Request[] {
  const questions = [
    ...readFileSync(join(EVAL, 'spatial-qa.dev.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).question as string),
    ...EXTRA_QUESTIONS,
  ];
  const toolQueries = readFileSync(join(EVAL, 'tool-retrieval.dev.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { query: string; context?: { data_source?: string; processing_level?: string } });
  const mix: Request[] = [];
  for (const question of questions) mix.push({ route: 'ask', method: 'POST', path: '/v1/ask', body: { question, planner: 'offline', k: 5 } });
  for (const t of toolQueries) {
    const context = {
      ...(t.context?.data_source ? { dataSource: t.context.data_source } : {}),
      ...(t.context?.processing_level ? { processingLevel: t.context.processing_level } : {}),
    };
    mix.push({ route: 'tools', method: 'POST', path: '/v1/tools/search', body: { query: t.query, k: 10, ...(Object.keys(context).length ? { context } : {}) } });
  }
  for (const [i, bbox] of BBOXES.entries()) {
    for (const offset of [0, 100]) mix.push({ route: 'items', method: 'GET', path: `/collections/places/items?bbox=${bbox}&limit=100&offset=${offset}` });
    mix.push({ route: 'items', method: 'GET', path: `/collections/osm/items?bbox=${bbox}&q=${NAME_TEXT[i]}&limit=50` });
    mix.push({ route: 'items', method: 'GET', path: `/collections/places/items?category=${CATEGORIES[i]}&limit=200` });
  }
  mix.push({ route: 'items', method: 'GET', path: '/collections' });
  return mix;
}

/** Resident set size of a process, in MB (Linux). */
export function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return Math.round((kB / 1024) * 10) / 10;
}

/** Least-squares slope of (t, y), in y units per minute of t seconds. */
function slopePerMinute(points: { t: number; mb: number }[]): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const mt = points.reduce((s, p) => s + p.t, 0) / n;
  const my = points.reduce((s, p) => s + p.mb, 0) / n;
  const num = points.reduce((s, p) => s + (p.t - mt) * (p.mb - my), 0);
  const den = points.reduce((s, p) => s + (p.t - mt) ** 2, 0);
  return den === 0 ? 0 : Math.round((num / den) * 60 * 100) / 100;
}

function perMinuteMeans(points: { t: number; mb: number }[]): number[] {
  const minutes: number[][] = [];
  for (const p of points) (minutes[Math.floor(p.t / 60)] ??= []).push(p.mb);
  return minutes.filter(Boolean).map((m) => Math.round((m.reduce((a, b) => a + b, 0) / m.length) * 10) / 10);
}

/** A fresh database of the configured mode with the NYC data and the built-in tools; returns the env for the service. */
export async function prepareDatabase(prefix = 'srag_bench_soak'): Promise<{ env: Record<string, string>; mode: 'server' | 'embedded'; drop(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL?.trim();
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  let fresh = true;
  if (serverUrl) {
    const scratch = await scratchServerDatabase(serverUrl, `${prefix}_${process.pid}`);
    env = { DATABASE_URL: scratch.url };
    drop = scratch.drop;
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'srag-bench-soak-'));
    const template = process.env.SOAK_PGLITE_TEMPLATE;
    if (template) {
      cpSync(template, dir, { recursive: true });
      fresh = false;
    }
    env = { PGLITE_DATA_DIR: dir, DATABASE_URL: '' };
    drop = async () => rmSync(dir, { recursive: true, force: true });
  }
  const handle = await openDatabase({ databaseUrl: env.DATABASE_URL || undefined, pgliteDataDir: env.PGLITE_DATA_DIR, poolSize: 2 });
  try {
    await migrateToLatest(handle.db);
    const embedder = createOfflineEmbedderWithLexicons();
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM places WHERE source = 'osm'`.execute(handle.db);
    if (fresh || rows[0]!.n === 0) {
      await loadNycData(handle.db, embedder, {
        midtownPbf: join(SHARED, 'nyc/manhattan-midtown.osm.pbf'),
        neighborhoods: join(SHARED, 'nyc/nyc-neighborhood-boundaries.geojson'),
      }, handle.mode === 'embedded');
    }
    if (!(await hasBuiltinTools(handle.db))) await loadBuiltinTools(handle.db, embedder);
    return { env, mode: handle.mode, drop };
  } finally {
    await handle.close();
  }
}

export async function startChild(env: Record<string, string>, port = PORT): Promise<ChildProcess> {
  // node directly (not npm): the pid sampled is the service's own.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SEED: 'none',
      // One client address sends everything: the per-client limit would turn the soak into a 429 test.
      RATE_LIMIT_PER_MINUTE: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the service did not become ready within 180 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function benchSoak() {
  const seconds = envInt('SOAK_SECONDS', 600);
  const concurrency = envInt('SOAK_CONCURRENCY', 8);
  const sampleMs = envInt('SOAK_SAMPLE_MS', 5_000);
  const mix = requestMix();
  const database = await prepareDatabase();
  const child = await startChild(database.env);
  const base = `http://127.0.0.1:${PORT}`;
  try {
    // Warm-up: every request of the mix once, so the start figure is a warmed service, not a cold one.
    for (const r of mix) {
      const res = await fetch(`${base}${r.path}`, {
        method: r.method,
        ...(r.body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(r.body) } : {}),
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`warm-up: ${r.method} ${r.path} answered ${res.status}`);
    }

    const latencies: Record<string, number[]> = { ask: [], tools: [], items: [] };
    const errors: Record<string, number> = {};
    let requests = 0;
    const samples: { t: number; mb: number }[] = [];
    const started = performance.now();
    const loadStart = loadavg()[0]!;
    const sample = () => samples.push({ t: (performance.now() - started) / 1000, mb: rssMB(child.pid!) });
    sample();
    const sampler = setInterval(sample, sampleMs);
    const stopAt = started + seconds * 1000;
    let next = 0;
    const client = async () => {
      while (performance.now() < stopAt) {
        const r = mix[next++ % mix.length]!;
        const t0 = performance.now();
        let status: string;
        try {
          const res = await fetch(`${base}${r.path}`, {
            method: r.method,
            ...(r.body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(r.body) } : {}),
            signal: AbortSignal.timeout(120_000),
          });
          await res.arrayBuffer();
          status = String(res.status);
        } catch (error) {
          status = (error as Error).name === 'TimeoutError' ? 'no answer in 120 s' : `no answer (${(error as Error).message})`;
        }
        requests++;
        latencies[r.route]!.push(performance.now() - t0);
        if (!/^2\d\d$/.test(status)) {
          const key = `${r.route} ${status}`;
          errors[key] = (errors[key] ?? 0) + 1;
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, client));
    clearInterval(sampler);
    sample();
    const elapsedS = (performance.now() - started) / 1000;
    const all = Object.values(latencies).flat();
    const stats = (v: number[]) => ({
      n: v.length,
      p50: Math.round(percentile(v, 50)),
      p95: Math.round(percentile(v, 95)),
      p99: Math.round(percentile(v, 99)),
    });
    const mbs = samples.map((s) => s.mb);
    // The first minute includes caches filling (catalog snapshot, plans, JIT): the slope after it is the leak signal.
    const settled = samples.filter((s) => s.t >= Math.min(60, elapsedS / 2));
    return {
      mode: database.mode,
      seconds: Math.round(elapsedS),
      concurrency,
      requests,
      requestsPerSecond: Math.round((requests / elapsedS) * 10) / 10,
      errors: Object.values(errors).reduce((a, b) => a + b, 0),
      errorsByKind: errors,
      latencyMs: { all: stats(all), ask: stats(latencies.ask!), tools: stats(latencies.tools!), items: stats(latencies.items!) },
      rssMB: {
        start: mbs[0],
        end: mbs[mbs.length - 1],
        max: Math.max(...mbs),
        slopePerMinute: slopePerMinute(samples),
        slopePerMinuteAfterFirstMinute: slopePerMinute(settled),
        samples: samples.length,
        // Mean of each minute: a leak climbs minute after minute, garbage collection only saw-tooths.
        perMinuteMean: perMinuteMeans(samples),
      },
      loadAverage: { start: Math.round(loadStart * 100) / 100, end: Math.round(loadavg()[0]! * 100) / 100, cores: cpus().length },
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
    await database.drop();
  }
}
