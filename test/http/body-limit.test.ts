// The body limits: the general one, and the imports' larger one.
import { describe, expect, it } from 'vitest';
import { json, type Problem, testApp } from './helpers.ts';

describe('body limits', () => {
  it('413 for a body over the limit, announced or streamed', async () => {
    const app = testApp({ bodyLimitBytes: 2048 });
    const big = JSON.stringify({ question: 'x'.repeat(4096) });
    const announced = await app.request('/v1/ask', json(big));
    expect(announced.status).toBe(413);
    expect(((await announced.json()) as Problem).errors?.[0]?.field).toBe('(root)');
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await app.request('/v1/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await app.request('/v1/ask', json({ question: 'small' }))).status).toBe(200);
  });

  it('the import has its own, larger limit', async () => {
    const app = testApp({ bodyLimitBytes: 2048, importBodyLimitBytes: 8192, clientAddress: () => '127.0.0.1' });
    const body = JSON.stringify({ type: 'FeatureCollection', features: [], pad: 'x'.repeat(4096) });
    expect((await app.request('/v1/places:import', json(body))).status).toBe(200);
    const over = JSON.stringify({ type: 'FeatureCollection', features: [], pad: 'x'.repeat(9000) });
    expect((await app.request('/v1/places:import', json(over))).status).toBe(413);
  });

});
