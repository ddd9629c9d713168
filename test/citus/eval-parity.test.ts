import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpatialQaItem } from '../../eval/spatial.ts';
import { createOfflineEmbedderWithLexicons } from '../../src/embedding/configured.ts';
import { createApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/log.ts';
import { isCitus } from '../helpers/citus.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { hasNycData } from '../helpers/data.ts';

const DEV_SET = '../shared/eval/spatial-qa.dev.jsonl';
const ready = isCitus && hasNycData && existsSync(DEV_SET);
const SKIP = !isCitus ? 'not the Citus test mode' : `the NYC data or ${DEV_SET} is missing`;

/**
 * The same answers on Citus as on a single server: every dev question is asked through the HTTP route on the
 * Midtown data distributed over the workers and on the same data in a plain database of the coordinator's
 * server (the same fixture, without the citus extension: server mode), and the ranked candidates compared.
 */
describe.skipIf(!ready)(`the dev questions on Citus and on a single server${ready ? '' : ` (skipped: ${SKIP})`}`, () => {
  let distributed: TestDatabase;
  let single: TestDatabase;
  beforeAll(async () => {
    distributed = await openTestDatabase('nyc', { distributed: true });
    single = await openTestDatabase('nyc', { distributed: false });
  }, 300_000);
  afterAll(async () => {
    await distributed?.dispose();
    await single?.dispose();
  });

  it('ranks the same places for every question', async () => {
    const items = readFileSync(DEV_SET, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SpatialQaItem);
    const embedder = createOfflineEmbedderWithLexicons();
    const appOf = (database: TestDatabase) =>
      createApp({ db: database.db, embedder, mode: database.mode, log: createLogger('silent'), lifecycle: { draining: false } });
    const apps = { citus: appOf(distributed), server: appOf(single) };
    const ranked = async (app: ReturnType<typeof appOf>, question: string) => {
      const res = await app.request('/v1/ask', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question, k: 10, planner: 'offline' }),
      });
      expect(res.status, question).toBe(200);
      const body = (await res.json()) as { candidates: { id: number; name: string }[]; sql: string };
      return { ids: body.candidates.map((c) => `${c.id} ${c.name}`), sql: body.sql };
    };
    let pruned = 0;
    for (const item of items) {
      const [citus, server] = [await ranked(apps.citus, item.question), await ranked(apps.server, item.question)];
      expect(citus.ids, `${item.id}: ${item.question}`).toEqual(server.ids);
      expect(server.sql).not.toContain('shard_key');
      if (citus.sql.includes('p.shard_key = ANY(')) pruned++;
    }
    expect(items.length).toBeGreaterThanOrEqual(40);
    // Every question has a window here (Midtown): each candidate query was restricted to its shards.
    expect(pruned).toBe(items.length);
  }, 600_000);
});
