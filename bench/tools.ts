/**
 * Search latency with a large registry: the three real catalogs plus synthetic tools up to `total`
 * (default 10,000), then the standard check queries searched repeatedly. Server mode when
 * DATABASE_URL is set (a scratch database is created from the test template and dropped afterwards),
 * embedded in-memory PGlite otherwise. Hooked into `npm run bench -- tools`.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createOfflineEmbedderWithLexicons } from '../src/embedding/configured.ts';
import { catalogSnapshot } from '../src/tools/catalog-cache.ts';
import { loadCheckQueries } from '../eval/tool-check.ts';
import { eoConceptEntries, knowledgeGraph } from '../src/tools/knowledge/index.ts';
import { importToolCatalogs, importTools, loadBuiltinTools } from '../src/tools/registry.ts';
import { countTools } from '../src/tools/repository.ts';
import type { ToolRecord } from '../src/tools/schema.ts';
import { searchTools } from '../src/tools/search/index.ts';
import { deriveToolMetadata } from '../src/tools/tool.ts';

export interface ToolBenchOptions {
  total?: number;
  /** Timed searches (after a warm-up round). */
  rounds?: number;
  databaseUrl?: string;
  eoDataDir?: string;
}

export interface ToolBenchResult {
  mode: 'embedded' | 'server';
  tools: number;
  searches: number;
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
  loadMs: number;
  loadAverage: number[];
}

const EO_DATA = fileURLToPath(new URL('../../shared/data/eo/', import.meta.url));

/** Deterministic synthetic tools: knowledge-graph vocabulary in varied combinations, derived metadata. */
export function syntheticTools(count: number, seed = 7): ToolRecord[] {
  const concepts = eoConceptEntries().filter((c) => c.kind === 'task' || c.kind === 'object');
  const sensors = knowledgeGraph().sensors.map((s) => s.dataSource);
  const qualities = ['fast', 'robust', 'deep-learning', 'GPU-accelerated', 'open-source', 'operational', 'experimental', 'cloud-native'];
  let state = seed;
  const next = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state % n;
  };
  const tools: ToolRecord[] = [];
  for (let i = 0; i < count; i++) {
    const c = concepts[next(concepts.length)]!;
    const other = concepts[next(concepts.length)]!;
    const sensor = sensors[next(sensors.length)]!;
    const quality = qualities[next(qualities.length)]!;
    const form = c.en[next(c.en.length)] ?? c.id;
    const otherForm = other.en[next(other.en.length)] ?? other.id;
    tools.push(
      deriveToolMetadata({
        id: `bench_${String(i).padStart(5, '0')}`,
        name: `${quality} ${form} tool ${i}`,
        description: `A ${quality} implementation of ${form} for ${sensor} data, also useful around ${otherForm}.`,
        catalog: 'bench',
      }),
    );
  }
  return tools;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function scratchServerDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `srag_bench_tools_${process.pid}`;
  const template = process.env.SRAG_TEST_TEMPLATE_DB ?? 'spatial_rag_template';
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Returns p50/p95 of `searchTools` over the check queries with `total` registered tools. */
export async function benchToolSearch(options: ToolBenchOptions = {}): Promise<ToolBenchResult> {
  const total = options.total ?? 10_000;
  const rounds = options.rounds ?? 5;
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  const eo = options.eoDataDir ?? EO_DATA;
  const scratch = databaseUrl ? await scratchServerDatabase(databaseUrl) : undefined;
  let handle: DatabaseHandle | undefined;
  try {
    handle = await openDatabase(scratch ? { databaseUrl: scratch.url, poolSize: 4 } : { pgliteDataDir: 'memory://' });
    await migrateToLatest(handle.db);
    const embedder = createOfflineEmbedderWithLexicons();
    const started = performance.now();
    await loadBuiltinTools(handle.db, embedder);
    const paths = [`${eo}openeo-processes`, `${eo}spectral-indices`].filter((p) => existsSync(p));
    await importToolCatalogs(handle.db, embedder, paths);
    const missing = Math.max(0, total - (await countTools(handle.db)));
    await importTools(handle.db, embedder, syntheticTools(missing));
    await catalogSnapshot(handle.db);
    const loadMs = performance.now() - started;
    // Steady state, as a registry is between imports: without this, autovacuum's first pass over the new
    // rows (and their HNSW index) competes with the timed searches for the CPU.
    await sql`VACUUM ANALYZE tools`.execute(handle.db);

    const queries = loadCheckQueries();
    // Two warm-up rounds: first-use costs (compiled regexes, pooled connections, caches) are not search latency.
    for (let r = 0; r < 2; r++) for (const q of queries) await searchTools(handle.db, embedder, { query: q.query, k: 10, ...(q.context ? { context: q.context } : {}) });
    const times: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const q of queries) {
        const t0 = performance.now();
        await searchTools(handle.db, embedder, { query: q.query, k: 10, ...(q.context ? { context: q.context } : {}) });
        times.push(performance.now() - t0);
      }
    }
    times.sort((a, b) => a - b);
    const round1 = (x: number) => Math.round(x * 10) / 10;
    return {
      mode: handle.mode,
      tools: await countTools(handle.db),
      searches: times.length,
      p50Ms: round1(percentile(times, 50)),
      p95Ms: round1(percentile(times, 95)),
      meanMs: round1(times.reduce((a, b) => a + b, 0) / times.length),
      loadMs: Math.round(loadMs),
      loadAverage: loadavg().map((l) => Math.round(l * 10) / 10),
    };
  } finally {
    await handle?.close();
    await scratch?.drop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const total = Number(process.argv[2] ?? 10_000);
  console.log(JSON.stringify(await benchToolSearch({ total }), null, 2));
}
