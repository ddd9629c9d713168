import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createConfiguredEmbedder } from '../src/embedding/configured.ts';
import { DEMO_DATA } from '../seed/index.ts';
import { loadNycData } from '../src/ingest/nyc.ts';
import { startService } from '../src/service.ts';
import { createLogger } from '../src/log.ts';
import { percentile } from './ask.ts';

/**
 * What MCP adds to a question: the dev questions (offline planner) through `POST /v1/ask`, through the MCP tool
 * `ask` over Streamable HTTP (/mcp of the same service) and over stdio (`npm run mcp -- --url`, which sends
 * each call to the service), one client at a time, ROUNDS rounds after a warm-up round; and how long the stdio
 * server takes from spawn to a listed tool set.
 */
export async function benchMcp(rounds = 3) {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDataDir: config.PGLITE_DATA_DIR });
  try {
    await migrateToLatest(database.db);
    const osm = await sql<{ n: number }>`SELECT count(*)::int AS n FROM places WHERE source = 'osm'`.execute(database.db);
    if (osm.rows[0]!.n === 0) await loadNycData(database.db, createConfiguredEmbedder(config), DEMO_DATA, database.mode === 'embedded');
  } finally {
    await database.close();
  }
  const service = await startService({ ...config, PORT: 0, HOST: '127.0.0.1', SEED: 'none', RATE_LIMIT_PER_MINUTE: 0 }, { log: createLogger('warn', 2) });
  const url = `http://127.0.0.1:${service.port}`;
  const http = new Client({ name: 'bench', version: '1.0.0' });
  const stdio = new Client({ name: 'bench', version: '1.0.0' });
  try {
    await http.connect(new StreamableHTTPClientTransport(new URL('/mcp', url)));
    const spawned = performance.now();
    await stdio.connect(
      new StdioClientTransport({ command: 'npm', args: ['run', '--silent', 'mcp', '--', '--url', url], env: { LOG_LEVEL: 'warn' }, stderr: 'ignore' }),
    );
    await stdio.listTools();
    const stdioReadyMs = performance.now() - spawned;
    await http.listTools();

    const questions = readFileSync('../shared/eval/spatial-qa.dev.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l).question as string);
    const paths: Record<string, (question: string) => Promise<unknown>> = {
      rest: async (question) => {
        const res = await fetch(`${url}/v1/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question, planner: 'offline' }) });
        if (!res.ok) throw new Error(`POST /v1/ask: ${res.status}`);
        return res.json();
      },
      mcpHttp: (question) => callAsk(http, question),
      mcpStdio: (question) => callAsk(stdio, question),
    };
    const samples: Record<string, number[]> = { rest: [], mcpHttp: [], mcpStdio: [] };
    for (let round = 0; round <= rounds; round++) {
      for (const question of questions) {
        // The three paths in turn for each question, so a slower minute of the machine hits all of them.
        for (const [name, run] of Object.entries(paths)) {
          const started = performance.now();
          await run(question);
          if (round > 0) samples[name]!.push(performance.now() - started);
        }
      }
    }
    const summary = (v: number[]) => ({ p50: round1(percentile(v, 50)), p95: round1(percentile(v, 95)) });
    return {
      mode: service.database.mode,
      requests: samples.rest!.length,
      askMs: Object.fromEntries(Object.entries(samples).map(([name, v]) => [name, summary(v)])),
      stdioReadyMs: Math.round(stdioReadyMs),
      loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    };
  } finally {
    await http.close();
    await stdio.close();
    await service.shutdown();
  }
}

const round1 = (ms: number) => Math.round(ms * 10) / 10;

async function callAsk(client: Client, question: string): Promise<unknown> {
  const result = await client.callTool({ name: 'ask', arguments: { question, planner: 'offline' } });
  if (result.isError) throw new Error(`MCP ask: ${JSON.stringify(result.content).slice(0, 300)}`);
  return result.structuredContent;
}
