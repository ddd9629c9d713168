// Access control on the guarded routes: the API key, or loopback clients without one.
import { describe, expect, it } from 'vitest';
import { bearerMatches, isLoopback } from '../../src/http/access/access-control.ts';
import { json, type Problem, testApp } from './helpers.ts';

describe('clients', () => {
  it('knows loopback addresses', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a)).toBe(true);
    for (const a of [undefined, '', '192.0.2.1', '::ffff:10.0.0.1', '128.0.0.1', 'fe80::1', '127.0.0.1.evil']) expect(isLoopback(a)).toBe(false);
  });

  it('compares bearer tokens whatever their length', () => {
    expect(bearerMatches('Bearer s3cret', 's3cret')).toBe(true);
    expect(bearerMatches('bearer   s3cret', 's3cret')).toBe(true);
    expect(bearerMatches('Bearer s3cret2', 's3cret')).toBe(false);
    expect(bearerMatches('Bearer s3cre', 's3cret')).toBe(false);
    expect(bearerMatches('Basic s3cret', 's3cret')).toBe(false);
    expect(bearerMatches('s3cret', 's3cret')).toBe(false);
    expect(bearerMatches(undefined, 's3cret')).toBe(false);
    expect(bearerMatches('Bearer ', 's3cret')).toBe(false);
    expect(bearerMatches(`Bearer ${'x'.repeat(100_000)}`, 's3cret')).toBe(false);
  });
});

describe('access control for guarded routes', () => {
  it('without API_KEY: refuses clients without an address (app.request) or not on loopback, with 403', async () => {
    const app = testApp();
    for (const [path, init] of [
      ['/v1/tools', json({})],
      ['/v1/tools/x', { method: 'DELETE' }],
      ['/v1/places:import', json({ type: 'FeatureCollection', features: [] })],
      ['/v1/runs', json({})],
      ['/v1/memory/workflows', {}],
    ] as const) {
      const res = await app.request(path, init);
      expect(res.status, path).toBe(403);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(((await res.json()) as Problem).detail).toMatch(/loopback/);
    }
    const remote = testApp({ clientAddress: () => '192.0.2.7' });
    const refused = await remote.request('/v1/tools', json({ id: 'x' }));
    expect(refused.status).toBe(403);
    expect(refused.headers.get('connection')).toBe('close'); // the unread body is not taken for a next request
  });

  it('without API_KEY: accepts loopback clients', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const app = testApp({ clientAddress: () => address });
      expect((await app.request('/v1/tools', json({}))).status).toBe(200);
    }
  });

  it('read routes stay open to everyone', async () => {
    const app = testApp({ clientAddress: () => '192.0.2.7' });
    expect((await app.request('/v1/tools')).status).toBe(200);
    expect((await app.request('/v1/tools/search', json({}))).status).toBe(200);
    expect((await app.request('/v1/ask', json({}))).status).toBe(200);
  });

  it('with API_KEY: 401 with WWW-Authenticate unless the bearer token matches, from loopback too', async () => {
    const app = testApp({ apiKey: 'k3y-of-some-length', clientAddress: () => '127.0.0.1' });
    for (const authorization of [undefined, 'Bearer wrong', 'Bearer k3y-of-some-lengt', 'Bearer k3y-of-some-length-', 'Basic k3y-of-some-length']) {
      const res = await app.request('/v1/tools', json({}, authorization ? { authorization } : {}));
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    const ok = await app.request('/v1/tools', json({}, { authorization: 'Bearer k3y-of-some-length' }));
    expect(ok.status).toBe(200);
    // any address, with the key
    const remote = testApp({ apiKey: 'k3y-of-some-length', clientAddress: () => '192.0.2.7' });
    expect((await remote.request('/v1/tools/x', { ...json({}, { authorization: 'Bearer k3y-of-some-length' }), method: 'PUT' })).status).toBe(200);
    expect((await remote.request('/v1/tools/x', { method: 'DELETE' })).status).toBe(401);
  });
});

