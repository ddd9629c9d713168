import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { citusWorkers, isCitus } from '../helpers/citus.ts';
import { countRows } from '../helpers/database.ts';
import { hasNycData } from '../helpers/data.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

/**
 * Stops a worker of scripts/setup-citus.sh's cluster (a Debian cluster: pg_ctlcluster, as root) and starts
 * it again. The other test files must not run meanwhile: CI runs this file on its own, after them.
 */
const WORKER_CLUSTER = process.env.SRAG_CITUS_OUTAGE_CLUSTER ?? 'citus_worker2';
const canStop = isCitus && hasNycData && process.getuid?.() === 0;
const SKIP = !isCitus
  ? 'not the Citus test mode'
  : !hasNycData
    ? 'the shared NYC data is missing'
    : 'needs root to stop a worker cluster (pg_ctlcluster)';

function cluster(action: 'start' | 'stop'): void {
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', '15', WORKER_CLUSTER, action, ...(action === 'stop' ? ['-m', 'fast'] : [])], { stdio: 'pipe' });
}

describe.skipIf(!canStop)(`a Citus worker going down and coming back${canStop ? '' : ` (skipped: ${SKIP})`}`, () => {
  let service: TestService;
  let stopped = false;
  beforeAll(async () => {
    service = await startTestService({}, { fixture: 'nyc' });
  });
  afterAll(async () => {
    if (stopped) cluster('start');
    await service?.stop();
  });

  const ask = (question: string) =>
    fetch(`${service.url}/v1/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question, planner: 'offline' }),
    });
  const importPlaces = () =>
    fetch(`${service.url}/v1/places:import?source=outage`, {
      method: 'POST',
      headers: { 'content-type': 'application/geo+json' },
      body: JSON.stringify({
        type: 'FeatureCollection',
        // Far apart, so the rows go to shards of both workers.
        features: Array.from({ length: 60 }, (_, i) => ({
          type: 'Feature',
          id: `o${i}`,
          properties: { name: `Outage cafe ${i}`, amenity: 'cafe' },
          geometry: { type: 'Point', coordinates: [-170 + i * 5.5, -60 + i * 2] },
        })),
      }),
    });

  it('answers 503 with a problem naming the unavailable node while the worker is down, writes nothing, and recovers', async () => {
    expect((await citusWorkers()).length).toBeGreaterThanOrEqual(2);
    const question = 'cafes within 200 m of Herald Square';
    const healthy = await ask(question);
    expect(healthy.status).toBe(200);
    const answer = ((await healthy.json()) as { candidates: { id: number }[] }).candidates.map((c) => c.id);
    const places = await countRows(service.database.db, 'places');

    cluster('stop');
    stopped = true;
    const down = await ask(question);
    expect(down.status).toBe(503);
    expect(down.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await down.json()) as { type: string; status: number; detail: string };
    expect(problem).toMatchObject({ status: 503, type: expect.stringContaining('unavailable') });
    expect(problem.detail).toMatch(/node of the distributed database is unavailable/);

    const write = await importPlaces();
    expect(write.status).toBe(503);

    cluster('start');
    stopped = false;
    // Citus notices the worker is back at the next connection attempt.
    let back: Response | undefined;
    for (let i = 0; i < 30; i++) {
      back = await ask(question);
      if (back.status === 200) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(back!.status).toBe(200);
    expect(((await back!.json()) as { candidates: { id: number }[] }).candidates.map((c) => c.id)).toEqual(answer);
    // The failed import left nothing behind, on either worker.
    expect(await countRows(service.database.db, 'places')).toBe(places);
    const retry = await importPlaces();
    expect(retry.status).toBe(200);
    expect(await countRows(service.database.db, 'places')).toBe(places + 60);
  }, 120_000);
});
