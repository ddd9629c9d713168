import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startService, type Service } from '../../src/service.ts';
import { countRows, createTestDatabaseLocation, testMode, type TestDatabaseLocation } from '../helpers/database.ts';

// A fresh start on an empty database loads the default seed once; the next start keeps it as it is.
describe(`default seed on first start (${testMode} mode)`, () => {
  let location: TestDatabaseLocation;
  let service: Service | undefined;
  const start = async () => {
    // The default SEED, as `npm start` has it.
    service = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', ...location.env }));
    return service;
  };
  beforeAll(async () => {
    location = await createTestDatabaseLocation();
  });
  afterAll(async () => {
    await service?.shutdown();
    await location?.drop();
  });

  it('seeds the world cities, the Midtown demo and the EO catalogs from seed/, and answers with them', async () => {
    const first = await start();
    const seeded = await countRows(first.database.db, 'places');
    const { rows } = await sql<{ source: string; n: number }>`SELECT source, count(*)::int AS n FROM places GROUP BY source`.execute(first.database.db);
    const bySource = Object.fromEntries(rows.map((r) => [r.source, r.n]));
    expect(bySource['geonames-cities']).toBeGreaterThan(20_000);
    expect(bySource.osm).toBeGreaterThan(10_000);
    expect(bySource['nyc-neighborhoods']).toBeGreaterThan(300);
    const { rows: catalogs } = await sql<{ catalog: string; n: number }>`SELECT catalog, count(*)::int AS n FROM tools GROUP BY catalog`.execute(first.database.db);
    expect(catalogs.length).toBeGreaterThanOrEqual(3);
    expect(catalogs.reduce((n, c) => n + c.n, 0)).toBeGreaterThan(400);
    // A Midtown question answers on a fresh start, with no ../shared folder involved.
    const asked = await fetch(`http://127.0.0.1:${first.port}/v1/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'museums within 600 m of Bryant Park', planner: 'offline' }),
    });
    expect(asked.status).toBe(200);
    expect(((await asked.json()) as { candidates: unknown[] }).candidates.length).toBeGreaterThan(0);
    const res = await fetch(`http://127.0.0.1:${first.port}/collections/geonames-cities/items?q=lyon&limit=5`);
    const body = (await res.json()) as { features: { properties: { name: string; description: string } }[] };
    const lyon = body.features.find((f) => f.properties.name === 'Lyon')!;
    expect(lyon.properties.description).toContain('France');
    await first.shutdown();

    const second = await start();
    expect(await countRows(second.database.db, 'places')).toBe(seeded);
  }, 600_000);
});
