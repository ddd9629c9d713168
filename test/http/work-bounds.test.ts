// The concurrency cap and deadline of the bounded (expensive read) routes.
import { describe, expect, it } from 'vitest';
import { json, type Problem, testApp } from './helpers.ts';

describe('work bounds on the expensive read routes', () => {
  it('503 with Retry-After after the deadline; the slot is held until the work ends', async () => {
    // The handler works until the test lets it finish: the 503 can only come from the deadline.
    let finishWork = () => {};
    const work = new Promise<void>((r) => {
      finishWork = r;
    });
    const app = testApp({ requestTimeoutMs: 50, maxConcurrentRequests: 1 }, work);
    const late = await app.request('/v1/ask', json({}));
    expect(late.status).toBe(503);
    expect(late.headers.get('retry-after')).toBeTruthy();
    expect(((await late.json()) as Problem).detail).toMatch(/longer than 50 ms/);
    // the first request's handler is still running: the only slot is taken
    const busy = await app.request('/v1/tools/search', json({}));
    expect(busy.status).toBe(503);
    expect(((await busy.json()) as Problem).detail).toMatch(/busy/);
    finishWork();
    await new Promise((r) => setTimeout(r, 20));
    expect((await app.request('/v1/tools/search', json({}))).status).toBe(200);
    const relaxed = testApp({ requestTimeoutMs: 1000, maxConcurrentRequests: 1 }, 10);
    expect((await relaxed.request('/v1/ask', json({}))).status).toBe(200);
  });

  it('caps concurrent requests and frees the slots afterwards', async () => {
    const app = testApp({ maxConcurrentRequests: 2 }, 100);
    const statuses = await Promise.all([1, 2, 3, 4].map(async () => (await app.request('/v1/ask', json({}))).status));
    expect(statuses.sort()).toEqual([200, 200, 503, 503]);
    expect((await app.request('/v1/ask', json({}))).status).toBe(200);
  });

  it('writes and cheap reads are not cut short', async () => {
    const app = testApp({ requestTimeoutMs: 20, clientAddress: () => '127.0.0.1' }, 100);
    expect((await app.request('/v1/places:import', json({ type: 'FeatureCollection', features: [] }))).status).toBe(200);
    expect((await app.request('/collections/places/items')).status).toBe(200);
  });
});

