import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { ask } from '../src/ask/ask.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createConfiguredEmbedder } from '../src/embedding/configured.ts';
import { loadNycData } from '../src/ingest/nyc.ts';

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/**
 * Per-stage latency of the question pipeline (offline planner) on the Midtown data, in the configured
 * database mode: every dev question, ROUNDS times after a warm-up round.
 */
/** The configured database with the Midtown data loaded (once), its embedder and the dev questions. */
export async function openAskBench() {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDataDir: config.PGLITE_DATA_DIR });
  const embedder = createConfiguredEmbedder(config);
  try {
    await migrateToLatest(database.db);
    const osm = await sql<{ n: number }>`SELECT count(*)::int AS n FROM places WHERE source = 'osm'`.execute(database.db);
    if (osm.rows[0]!.n === 0) {
      await loadNycData(database.db, embedder, {
        midtownPbf: '../shared/data/nyc/manhattan-midtown.osm.pbf',
        neighborhoods: '../shared/data/nyc/nyc-neighborhood-boundaries.geojson',
      }, database.mode === 'embedded');
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  const questions = readFileSync('../shared/eval/spatial-qa.dev.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l).question as string);
  return { database, embedder, questions };
}

export async function benchAsk(rounds = 5) {
  const { database, embedder, questions } = await openAskBench();
  try {
    // Round 0 is the first time each question is seen (resolved names not cached yet: its landmarks may
    // still repeat across questions); the later rounds are the steady state of a running service.
    const firstSeen: Record<string, number[]> = {};
    const stages: Record<string, number[]> = {};
    for (let round = 0; round <= rounds; round++) {
      for (const question of questions) {
        const result = await ask({ db: database.db, embedder }, { question, k: 5, planner: 'offline' });
        const into = round === 0 ? firstSeen : stages;
        for (const [stage, ms] of Object.entries(result.timingsMs)) (into[stage] ??= []).push(ms);
      }
    }
    const table = (samples: Record<string, number[]>) =>
      Object.fromEntries(
        Object.entries(samples).map(([stage, v]) => [stage, { p50: percentile(v, 50), p95: percentile(v, 95), p99: percentile(v, 99) }]),
      );
    return {
      mode: database.mode,
      requests: stages.total!.length,
      stagesMs: table(stages),
      firstSeenStagesMs: table(firstSeen),
      loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    };
  } finally {
    await database.close();
  }
}
