/**
 * `npm run bench -- load`: HTTP load with autocannon on the started service (a child process, as in
 * production: Midtown data and the built-in tools loaded, offline planner), at each concurrency of
 * LOAD_CONCURRENCY on POST /v1/ask and POST /v1/tools/search.
 *
 *   LOAD_SECONDS      length of each measured step (default 20)
 *   LOAD_CONCURRENCY  comma-separated connection counts (default 1,8,32)
 *   DATABASE_URL      server mode (a scratch database cloned from the template, dropped afterwards);
 *                     unset: embedded mode (SOAK_PGLITE_TEMPLATE: a data directory with the NYC data to copy)
 *
 * Each step also reports the CPU time per request of the service's process and, in server mode, of every
 * `postgres` process of this machine (a local server: stop other databases' work, e.g. a local replica, first).
 *
 * Bodies rotate through the dev questions (../shared/eval/spatial-qa.dev.jsonl) and the tool dev queries, so
 * caches of one request do not flatter the figures. Any error, timeout or non-2xx answer fails the benchmark
 * after the figures are printed: a throughput bought with failures is not a throughput.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { percentile } from './ask.ts';
import { prepareDatabase, rssMB, startChild } from './soak.ts';

const EVAL = resolve(process.env.SRAG_SHARED_DATA ?? '../shared/data', '../eval');
const PORT = 3912;

function jsonl<T>(file: string): T[] {
  return readFileSync(join(EVAL, file), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as T);
}

export function askBodies(): string[] {
  return jsonl<{ question: string }>('spatial-qa.dev.jsonl').map((q) => JSON.stringify({ question: q.question, planner: 'offline', k: 5 }));
}

export function toolBodies(): string[] {
  return jsonl<{ query: string; context?: { data_source?: string; processing_level?: string } }>('tool-retrieval.dev.jsonl').map((t) => {
    const context = {
      ...(t.context?.data_source ? { dataSource: t.context.data_source } : {}),
      ...(t.context?.processing_level ? { processingLevel: t.context.processing_level } : {}),
    };
    return JSON.stringify({ query: t.query, k: 10, ...(Object.keys(context).length ? { context } : {}) });
  });
}

interface Step {
  route: string;
  concurrency: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  rssMB: { before: number; max: number; after: number };
  /** CPU time per answered request: the service's process; the local PostgreSQL's processes (server mode; those that exit during the step are not counted). */
  cpuMsPerRequest: { service: number; postgres: number | null };
  loadAverage: { start: number; end: number };
}

/** Milliseconds of CPU (user + system) a process has used; 0 once it is gone. */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in USER_HZ (100)
  } catch {
    return 0;
  }
}

/** CPU used so far by each process of the local PostgreSQL server, by pid. */
function postgresCpuMs(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') byPid.set(Number(entry), cpuMs(Number(entry)));
    } catch {
      // exited meanwhile
    }
  }
  return byPid;
}

/** CPU PostgreSQL used between two readings (a process that exited in between is not counted: a lower bound). */
function postgresCpuBetween(start: Map<number, number>, end: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of end) total += ms - (start.get(pid) ?? 0);
  return total;
}

async function step(pid: number, path: string, bodies: string[], concurrency: number, seconds: number, mode: 'server' | 'embedded'): Promise<Step> {
  let next = 0;
  const latencies: number[] = [];
  const rss = [rssMB(pid)];
  const sampler = setInterval(() => rss.push(rssMB(pid)), 1000);
  const loadStart = loadavg()[0]!;
  const cpuStart = { service: cpuMs(pid), postgres: mode === 'server' ? postgresCpuMs() : new Map<number, number>() };
  let finished!: (value: autocannon.Result) => void;
  let failed!: (error: unknown) => void;
  const done = new Promise<autocannon.Result>((res, rej) => {
    finished = res;
    failed = rej;
  });
  // The callback form returns the instance (an event emitter); without a callback it is only a promise.
  const instance = autocannon({
    url: `http://127.0.0.1:${PORT}`,
    connections: concurrency,
    duration: seconds,
    // An answer can take seconds on a loaded 2-core machine at concurrency 32; autocannon's default of
    // 10 s would count slow answers as errors, which is a different finding from "the service failed".
    timeout: 60,
    requests: [
      {
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }),
      },
    ],
  }, (error, result) => (error ? failed(error) : finished(result)));
  // autocannon's own percentiles have no p95; its per-response event gives every latency.
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => latencies.push(responseTime));
  const result = await done;
  const cpuEnd = { service: cpuMs(pid), postgres: mode === 'server' ? postgresCpuMs() : new Map<number, number>() };
  clearInterval(sampler);
  rss.push(rssMB(pid));
  const round = (v: number) => Math.round(v * 10) / 10;
  const round2 = (v: number) => Math.round(v * 100) / 100;
  return {
    route: `POST ${path}`,
    concurrency,
    seconds,
    requests: result.requests.total,
    requestsPerSecond: round(result.requests.total / result.duration),
    latencyMs: {
      p50: round(percentile(latencies, 50)),
      p95: round(percentile(latencies, 95)),
      p99: round(percentile(latencies, 99)),
      max: round(Math.max(0, ...latencies)),
    },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, v]) => [code, v.count ?? 0])),
    rssMB: { before: rss[0]!, max: Math.max(...rss), after: rss[rss.length - 1]! },
    cpuMsPerRequest: {
      service: round2((cpuEnd.service - cpuStart.service) / result.requests.total),
      postgres: mode === 'server' ? round2(postgresCpuBetween(cpuStart.postgres, cpuEnd.postgres) / result.requests.total) : null,
    },
    loadAverage: { start: round(loadStart), end: round(loadavg()[0]!) },
  };
}

/**
 * Waits until the service answers a request of the route with a 2xx. When a step ends, autocannon drops the
 * requests in flight, but the service finishes their work (and holds their slots in the cap on concurrent
 * expensive requests): measured in embedded mode, the next step then got hundreds of 503 "busy" answers that
 * belonged to the previous one.
 */
async function settle(path: string, body: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${PORT}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.arrayBuffer();
    if (res.ok) return;
    if (Date.now() > deadline) throw new Error(`load: POST ${path} still answers ${res.status} 120 s after the previous step`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

export async function benchLoad() {
  const seconds = Number(process.env.LOAD_SECONDS ?? 20);
  const levels = (process.env.LOAD_CONCURRENCY ?? '1,8,32').split(',').map(Number);
  const database = await prepareDatabase('srag_bench_load');
  const child = await startChild(database.env, PORT);
  const steps: Step[] = [];
  try {
    const routes: [string, string[]][] = [['/v1/ask', askBodies()], ['/v1/tools/search', toolBodies()]];
    // Warm-up: every body once, so that the first step does not pay for cold caches and JIT.
    for (const [path, bodies] of routes) {
      for (const body of bodies) {
        const res = await fetch(`http://127.0.0.1:${PORT}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`warm-up: POST ${path} answered ${res.status} for ${body}`);
      }
    }
    for (const [path, bodies] of routes) {
      for (const concurrency of levels) {
        await settle(path, bodies[0]!);
        const s = await step(child.pid!, path, bodies, concurrency, seconds, database.mode);
        const cpu = `CPU/request ${s.cpuMsPerRequest.service} ms service${s.cpuMsPerRequest.postgres === null ? '' : `, ${s.cpuMsPerRequest.postgres} ms PostgreSQL`}`;
        console.log(`  ${s.route} c=${concurrency}: ${s.requestsPerSecond} req/s, p50/p95/p99 ${s.latencyMs.p50}/${s.latencyMs.p95}/${s.latencyMs.p99} ms, errors ${s.errors}, timeouts ${s.timeouts}, non-2xx ${s.non2xx} ${JSON.stringify(s.statusCodes)}, RSS max ${s.rssMB.max} MB, ${cpu}, load ${s.loadAverage.start}→${s.loadAverage.end}`);
        steps.push(s);
      }
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
    await database.drop();
  }
  const failed = steps.filter((s) => s.errors + s.timeouts + s.non2xx > 0);
  const result = { mode: database.mode, cores: cpus().length, steps };
  if (failed.length) {
    throw new Error(`load: ${failed.length} step(s) with errors, timeouts or non-2xx answers:\n${JSON.stringify(result, null, 2)}`);
  }
  return result;
}
