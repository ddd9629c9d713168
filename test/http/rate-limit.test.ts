// The per-client rate limit on the rate-limited routes.
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../src/http/openapi-app.ts';
import { TokenBuckets } from '../../src/http/rate-limit/token-buckets.ts';
import { installSecurity } from '../../src/http/security.ts';
import { json, testApp } from './helpers.ts';

describe('rate limits', () => {
  it('token bucket: a burst of the per-minute rate, then one token per 60/rate seconds', () => {
    let now = 0;
    const buckets = new TokenBuckets(6, () => now);
    for (let i = 0; i < 6; i++) expect(buckets.take('a')).toBe(0);
    expect(buckets.take('a')).toBe(10_000); // 6 per minute: one every 10 s
    expect(buckets.take('b')).toBe(0); // per client
    now = 9_000;
    expect(buckets.take('a')).toBe(1_000);
    now = 10_000;
    expect(buckets.take('a')).toBe(0);
  });

  it('keeps a bounded number of clients', () => {
    let now = 0;
    const buckets = new TokenBuckets(60, () => now, 100);
    for (let i = 0; i < 1000; i++) buckets.take(`client-${i}`);
    expect(buckets.size).toBeLessThanOrEqual(101);
    now = 60_000;
    buckets.take('late');
    expect(buckets.size).toBeLessThanOrEqual(101);
  });

  it('answers 429 problem+json with Retry-After on expensive routes, per client', async () => {
    let now = 0;
    let address = '127.0.0.1';
    const app = testApp({ rateLimitPerMinute: 2, now: () => now, clientAddress: () => address });
    expect((await app.request('/v1/ask', json({}))).status).toBe(200);
    expect((await app.request('/v1/tools/search', json({}))).status).toBe(200);
    const limited = await app.request('/v1/ask', json({}));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    expect(limited.headers.get('content-type')).toContain('application/problem+json');
    expect((await app.request('/collections/places/items')).status).toBe(200); // cheap routes are not counted
    address = '127.0.0.2';
    expect((await app.request('/v1/ask', json({}))).status).toBe(200);
    address = '127.0.0.1';
    now = 30_000;
    expect((await app.request('/v1/ask', json({}))).status).toBe(200);
  });

  it('an app built without options (in-process: tests, eval) has every defence but the rate limit', async () => {
    const app = createRouter();
    installSecurity(app);
    app.post('/v1/ask', (c) => c.json({ ok: true }));
    app.post('/v1/tools', (c) => c.json({ ok: true }));
    for (let i = 0; i < 700; i++) expect((await app.request('/v1/ask', json({}))).status).toBe(200);
    expect((await app.request('/v1/tools', json({}))).status).toBe(403);
  });

  it('0 disables the limit', async () => {
    const app = testApp({ rateLimitPerMinute: 0 });
    for (let i = 0; i < 20; i++) expect((await app.request('/v1/ask', json({}))).status).toBe(200);
  });
});

