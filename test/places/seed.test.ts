import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startService, type Service } from '../../src/service.ts';
import { countRows, createTestDatabaseLocation, testMode, type TestDatabaseLocation } from '../helpers/database.ts';

// A fresh start on an empty database loads the default seed once; the next start keeps it as it is.
describe(`default seed on first start (${testMode} mode)`, () => {
  let location: TestDatabaseLocation;
  let service: Service | undefined;
  const start = async () => {
    service = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', SEED: 'auto', ...location.env }));
    return service;
  };
  beforeAll(async () => {
    location = await createTestDatabaseLocation();
  });
  afterAll(async () => {
    await service?.shutdown();
    await location?.drop();
  });

  it('seeds the GeoNames cities and answers OGC items requests for them', async () => {
    const first = await start();
    const seeded = await countRows(first.database.db, 'places');
    expect(seeded).toBeGreaterThan(20_000);
    const res = await fetch(`http://127.0.0.1:${first.port}/collections/geonames-cities/items?q=lyon&limit=5`);
    const body = (await res.json()) as { features: { properties: { name: string; description: string } }[] };
    const lyon = body.features.find((f) => f.properties.name === 'Lyon')!;
    expect(lyon.properties.description).toContain('France');
    await first.shutdown();

    const second = await start();
    expect(await countRows(second.database.db, 'places')).toBe(seeded);
  }, 300_000);
});
