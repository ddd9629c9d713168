// Streamed imports (application/x-ndjson place records), re-embedding and the backup route, over HTTP in both modes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeSnapshot } from '../../src/db/snapshot.ts';
import { isServer, testMode } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

const record = (sourceId: string, name: string, lon: number) => ({
  sourceId,
  name,
  category: 'library',
  tags: { name, amenity: 'library' },
  description: `${name} lends books.`,
  geometry: { type: 'Point', coordinates: [lon, 51.5] },
});

describe(`streamed place imports and backups (${testMode} mode)`, () => {
  let service: TestService;
  const stream = (lines: string[], source: string) =>
    fetch(`${service.url}/v1/places:import?source=${source}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: lines.join('\n'),
    });

  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service?.stop());

  it('loads every record of the stream in one transaction', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify(record(`r${i}`, `Reading Room ${i}`, -0.1 + i * 0.001)));
    const res = await stream(lines, 'stream-ok');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ read: 40, written: 40 });
    const items = (await (await fetch(`${service.url}/collections/stream-ok/items?limit=100`)).json()) as { features: unknown[] };
    expect(items.features).toHaveLength(40);
  });

  it('refuses a stream with a bad line, naming it, and imports none of it', async () => {
    const bad = { ...record('r2', 'Broken', 0), geometry: { type: 'Point', coordinates: [0, 123] } };
    const lines = [JSON.stringify(record('r1', 'Fine', 0)), JSON.stringify(bad), JSON.stringify(record('r3', 'Also fine', 0))];
    const res = await stream(lines, 'stream-bad');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(((await res.json()) as { detail: string }).detail).toMatch(/^line 2: geometry/);
    expect((await fetch(`${service.url}/collections/stream-bad/items`)).status).toBe(404);

    const unknownField = await stream([JSON.stringify({ ...record('r1', 'x', 0), colour: 'red' })], 'stream-bad');
    expect(unknownField.status).toBe(400);
    expect(((await unknownField.json()) as { detail: string }).detail).toContain('line 1');
  });

  it('re-embeds every place and tool on request (what `npm run reembed` asks of a running service)', async () => {
    const res = await fetch(`${service.url}/v1/reembed`, { method: 'POST' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { model: string; places: number };
    expect(body.places).toBe(40);
    expect(body.model).toBeTruthy();
  });

  it.skipIf(isServer)('serves a consistent snapshot of the embedded database', async () => {
    const res = await fetch(`${service.url}/v1/backup`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    const summary = describeSnapshot(new Uint8Array(await res.arrayBuffer()));
    expect(summary.files).toBeGreaterThan(100);
    expect(summary.versions?.pglite).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.skipIf(!isServer)('answers 409 with the pg_dump advice in server mode', async () => {
    const res = await fetch(`${service.url}/v1/backup`);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { detail: string }).detail).toContain('pg_dump');
  });
});
