// Input checks the route schemas cannot make: malformed or deep JSON, NUL characters, the bbox area.
import { describe, expect, it } from 'vitest';
import { checkJsonValue, MAX_JSON_DEPTH } from '../../src/http/input-checks/json-value.ts';
import { json, type Problem, testApp } from './helpers.ts';

describe('input checks', () => {
  it('400 naming the body for malformed JSON, NUL characters and hostile nesting', async () => {
    const app = testApp();
    for (const [body, field] of [
      ['{"question": "cafés near', '(root)'],
      ['{"question": NaN}', '(root)'],
      [JSON.stringify({ question: 'cafés\u0000 near' }), 'question'],
      [JSON.stringify({ near: { lon: 1, "la\u0000t": 2 } }), 'near.la\u0000t'],
      ['['.repeat(10_000) + ']'.repeat(10_000), Array(MAX_JSON_DEPTH).fill(0).join('.')],
      ['['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1), Array(MAX_JSON_DEPTH).fill(0).join('.')],
    ] as const) {
      const res = await app.request('/v1/ask', json(body));
      expect(res.status, body.slice(0, 40)).toBe(400);
      const p = (await res.json()) as Problem;
      expect(p.errors?.[0]?.in).toBe('body');
      expect(p.errors?.[0]?.field).toBe(field);
    }
    // GeoJSON-deep bodies are fine
    const polygon = { type: 'Feature', geometry: { type: 'MultiPolygon', coordinates: [[[[0, 0], [1, 0], [1, 1], [0, 0]]]] } };
    expect((await app.request('/v1/ask', json({ features: [polygon] }))).status).toBe(200);
  });

  it('checks JSON without recursion (a deep body cannot overflow the stack)', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(checkJsonValue(deep)?.message).toMatch(/nested deeper/);
    expect(checkJsonValue({ a: [1, 2, { b: 'ok' }] })).toBeUndefined();
  });

  it('400 naming the query parameter or the path for a NUL character', async () => {
    const res = await testApp().request('/collections/places/items?q=caf%00e');
    expect(res.status).toBe(400);
    expect(((await res.json()) as Problem).errors?.[0]).toMatchObject({ in: 'query', field: 'q' });
    const path = await testApp().request('/collections/pl%00aces/items');
    expect(path.status).toBe(400);
    expect(((await path.json()) as Problem).errors?.[0]).toMatchObject({ in: 'path' });
  });

  it('400 naming bbox when its area is over the limit', async () => {
    const app = testApp({ maxBboxAreaDeg2: 1 });
    expect((await app.request('/collections/places/items?bbox=-74,40.7,-73.9,40.8')).status).toBe(200);
    const res = await app.request('/collections/places/items?bbox=-180,-90,180,90');
    expect(res.status).toBe(400);
    expect(((await res.json()) as Problem).errors?.[0]).toMatchObject({ in: 'query', field: 'bbox' });
  });
});

