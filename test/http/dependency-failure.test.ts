// Failures of the database (or of the embeddings service) become 503, other errors 500 without details.
import { describe, expect, it } from 'vitest';
import { unavailableReason } from '../../src/http/dependency-failure/dependency-failure.ts';
import { type Problem, testApp } from './helpers.ts';

describe('database failures become 503', () => {
  it.each([
    ['ECONNREFUSED', /unavailable/],
    ['57P01', /unavailable/],
    ['08006', /unavailable/],
    ['57014', /took too long/],
  ])('%s', async (code, detail) => {
    const res = await testApp().request(`/fail/${code}`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(((await res.json()) as Problem).detail).toMatch(detail);
  });

  it('other errors stay 500, without details', async () => {
    const res = await testApp().request('/fail/42P01');
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('boom');
  });

  it('recognises connection failures by message and cause', () => {
    expect(unavailableReason(new Error('Connection terminated unexpectedly'))).toBeDefined();
    expect(unavailableReason(new Error('timeout exceeded when trying to connect'))).toBeDefined();
    expect(unavailableReason(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) }))).toBeDefined();
    expect(unavailableReason(Object.assign(new Error('x'), { name: 'EmbeddingServiceError' }))).toMatch(/embeddings/);
    expect(unavailableReason(new Error('syntax error'))).toBeUndefined();
  });
});
