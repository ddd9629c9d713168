import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.ts';
import { testMode } from '../helpers/database.ts';

describe(`HTTP basics (${testMode} mode)`, () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => service?.stop());

  it('answers /livez and /readyz', async () => {
    const live = await fetch(`${service.url}/livez`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('x-request-id')).toBeTruthy();
  });

  it('serves an OpenAPI document generated from the routes, and a docs page', async () => {
    const doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as { openapi: string; paths: object };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/livez', '/readyz']));
    const page = await fetch(`${service.url}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/openapi.json');
  });

  it('answers unknown routes with RFC 9457 problem+json', async () => {
    const res = await fetch(`${service.url}/no/such/route`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 404, title: 'Not Found', instance: '/no/such/route' });
    expect(body.type).toMatch(/^https:\/\//);
    expect(body.requestId).toBeTruthy();
  });

  it('fails readiness with 503 while draining, and liveness stays up', async () => {
    service.lifecycle.draining = true;
    try {
      expect((await fetch(`${service.url}/readyz`)).status).toBe(503);
      expect((await fetch(`${service.url}/livez`)).status).toBe(200);
    } finally {
      service.lifecycle.draining = false;
    }
  });
});
