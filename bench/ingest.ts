import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createConfiguredEmbedder } from '../src/embedding/configured.ts';
import { readPlaces, SOURCE_PRESETS } from '../src/ingest/formats.ts';
import { loadPlaces } from '../src/ingest/load.ts';
import { runBenchChild } from './child.ts';
import { scratchServerDatabase } from './scratch.ts';

const MIDTOWN = resolve('../shared/data/nyc/manhattan-midtown.osm.pbf');
const NEIGHBORHOODS = resolve('../shared/data/nyc/nyc-neighborhood-boundaries.geojson');

/** One measured import, as the child process reports it. */
interface RunResult {
  features: number;
  written: number;
  ms: number;
  featuresPerSecond: number;
  /**
   * Peak resident memory of the importing process over the whole run (set-up included). Embedded: PGlite's
   * thread included; server: the Node client only, not the PostgreSQL server.
   */
  peakRssMB: number;
  setupMs: number;
  neighbourhoodsMs: number;
  cpuMs: number;
  phasesMs: Record<string, number>;
}

/**
 * One import of the Midtown extract into a fresh, migrated database of the configured mode, after the NYC
 * neighbourhood polygons (so the descriptions get their neighbourhood context as with `loadNycData`).
 * Only the Midtown import is timed. Runs in a child process so that the peak RSS is that of one import.
 */
async function measureOnce(): Promise<RunResult> {
  const config = loadConfig();
  const started = performance.now();
  let dropServer: (() => Promise<void>) | undefined;
  let dataDir: string | undefined;
  let databaseUrl: string | undefined;
  if (config.DATABASE_URL) {
    const scratch = await scratchServerDatabase(config.DATABASE_URL, `srag_bench_ingest_${process.pid}`);
    dropServer = scratch.drop;
    databaseUrl = scratch.url;
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'srag-bench-ingest-'));
  }
  try {
    const database = await openDatabase({ databaseUrl, pgliteDataDir: dataDir, poolSize: 2 });
    try {
      await migrateToLatest(database.db);
      const embedder = createConfiguredEmbedder(config);
      // As the CLI: bulk mode always in embedded mode, the loader's choice (bulk for a first load) on a server.
      const deferVectorIndex = database.mode === 'embedded' ? true : undefined;
      const setupMs = performance.now() - started;
      const nb = await loadPlaces(database.db, embedder, readPlaces(NEIGHBORHOODS, { ...SOURCE_PRESETS.nycNeighborhoods, describe: false }), {
        deferVectorIndex,
      });
      const phasesMs: Record<string, number> = {};
      const cpuBefore = process.cpuUsage();
      const report = await loadPlaces(
        database.db,
        embedder,
        readPlaces(MIDTOWN, { ...SOURCE_PRESETS.osm, skipInvalid: true, describe: false, onWarning: () => undefined }),
        { deferVectorIndex, timings: phasesMs },
      );
      const cpu = process.cpuUsage(cpuBefore);
      // Every feature of the Midtown file has its own source id: a fast number must never hide lost rows.
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM places WHERE source = 'osm'`.execute(database.db);
      if (report.written !== report.read || rows[0]!.n !== report.read) {
        throw new Error(`data loss: ${report.read} features read, ${report.written} reported written, ${rows[0]!.n} rows in places`);
      }
      return {
        features: report.read,
        written: report.written,
        ms: report.ms,
        featuresPerSecond: Math.round(report.read / (report.ms / 1000)),
        peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
        setupMs: Math.round(setupMs),
        neighbourhoodsMs: nb.ms,
        // CPU of this process (embedded: PGlite's thread included; server: the client side only).
        cpuMs: Math.round((cpu.user + cpu.system) / 1000),
        phasesMs,
      };
    } finally {
      await database.close();
    }
  } finally {
    await dropServer?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

function runChild(): Promise<RunResult> {
  return runBenchChild<RunResult>(fileURLToPath(import.meta.url), [], { label: 'ingest benchmark' });
}

function spread(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor((sorted.length - 1) / 2)]!, min: sorted[0]!, max: sorted[sorted.length - 1]!, all: values };
}

/**
 * `npm run bench -- ingest`: features per second of the Midtown `.osm.pbf` (49,206 features) into a fresh
 * database of the configured mode (embedded by default, server with DATABASE_URL), BENCH_RUNS times
 * (default 3; the machine is shared, so the spread is reported), and the peak RSS of the importing process.
 */
export async function benchIngest() {
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const mode = loadConfig().DATABASE_URL ? 'server' : 'embedded';
  const results: RunResult[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await runChild();
    console.log(`  run ${i + 1}/${runs}: ${r.featuresPerSecond} features/s (${r.ms} ms), peak RSS ${r.peakRssMB} MB`);
    results.push(r);
  }
  return {
    mode,
    file: 'manhattan-midtown.osm.pbf',
    features: results[0]!.features,
    written: results[0]!.written,
    runs,
    featuresPerSecond: spread(results.map((r) => r.featuresPerSecond)),
    ms: spread(results.map((r) => r.ms)),
    peakRssMB: spread(results.map((r) => r.peakRssMB)),
    neighbourhoodsMs: spread(results.map((r) => r.neighbourhoodsMs)),
    cpuMs: spread(results.map((r) => r.cpuMs)),
    phasesMs: results.map((r) => r.phasesMs),
  };
}

if (process.argv.includes('--child') && process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await measureOnce();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
