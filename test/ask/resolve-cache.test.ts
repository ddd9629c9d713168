import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineEmbedderWithLexicons } from '../../src/embedding/configured.ts';
import type { PlaceFeature } from '../../src/ingest/feature.ts';
import { loadPlaces } from '../../src/ingest/load.ts';
import { planOffline } from '../../src/planning/offline-planner.ts';
import { resolveReferences } from '../../src/spatial/resolve.ts';
import { openTestDatabase, testMode, type TestDatabase } from '../helpers/database.ts';

const embedder = createOfflineEmbedderWithLexicons();

function square(sourceId: string, name: string, lon: number, lat: number): PlaceFeature {
  return {
    source: 'cache-test',
    sourceId,
    name,
    category: 'square',
    tags: { name, place: 'square' },
    description: `${name} is a square.`,
    geometry: { type: 'Point', coordinates: [lon, lat] },
  };
}

async function* features(...list: PlaceFeature[]) {
  yield* list;
}

describe(`resolved references cache (${testMode} mode)`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => database?.dispose());

  it('serves repeated names from the cache and forgets them when places change', async () => {
    const plan = planOffline('Any cafés within 200 m of Quillfeather Square?');
    await loadPlaces(database.db, embedder, features(square('a', 'Quillfeather Square', 2.35, 48.85)));
    const first = await resolveReferences(database.db, plan);
    expect(first.ok && first.references[0]!.centroid).toEqual({ lon: 2.35, lat: 48.85 });

    // Changed behind the service's back (another instance, the CLI): only the version tells.
    await sql`UPDATE places SET geom = ST_SetSRID(ST_MakePoint(2.36, 48.86), 4326) WHERE source = 'cache-test'`.execute(database.db);
    // What a writer outside the service must add on Citus, where no trigger bumps the version (a no-op elsewhere).
    await sql`SELECT places_written()`.execute(database.db);
    const second = await resolveReferences(database.db, plan);
    expect(second.ok && second.references[0]!.centroid).toEqual({ lon: 2.36, lat: 48.86 });

    // Unchanged data: the same answer without a gazetteer query (a direct edit of the version row
    // proves the cache is what answers: with the version untouched, the stale coordinates stay).
    // On Citus there is no such trigger (migration 0011): a write leaves the version alone anyway.
    const { rows: trigger } = await sql`SELECT 1 FROM pg_trigger WHERE tgname = 'places_changed'`.execute(database.db);
    if (trigger.length > 0) await sql`ALTER TABLE places DISABLE TRIGGER places_changed`.execute(database.db);
    try {
      await sql`UPDATE places SET geom = ST_SetSRID(ST_MakePoint(2.37, 48.87), 4326) WHERE source = 'cache-test'`.execute(database.db);
      const cached = await resolveReferences(database.db, plan);
      expect(cached.ok && cached.references[0]!.centroid).toEqual({ lon: 2.36, lat: 48.86 });
    } finally {
      if (trigger.length > 0) await sql`ALTER TABLE places ENABLE TRIGGER places_changed`.execute(database.db);
    }
    await sql`UPDATE places_version SET version = version + 1`.execute(database.db);
    const fresh = await resolveReferences(database.db, plan);
    expect(fresh.ok && fresh.references[0]!.centroid).toEqual({ lon: 2.37, lat: 48.87 });
  });
  it('takes the namesake among many places when the name is in many cells', async () => {
    const name = 'Larkspur Yard Square';
    // Twelve namesakes, each in its own one-degree cell (its own shard key on Citus); cafés around one only.
    const namesakes = Array.from({ length: 12 }, (_, i) => square(`yard-${i}`, name, -10 + i * 1.5, 20 + i));
    const busy = namesakes[7]!.geometry as { coordinates: [number, number] };
    const cafes = Array.from({ length: 10 }, (_, i): PlaceFeature => ({
      source: 'cache-test',
      sourceId: `yard-cafe-${i}`,
      name: `Corner Cup ${i}`,
      category: 'cafe',
      tags: { name: `Corner Cup ${i}`, amenity: 'cafe' },
      description: 'A café.',
      geometry: { type: 'Point', coordinates: [busy.coordinates[0] + 0.001 * (i + 1), busy.coordinates[1]] },
    }));
    await loadPlaces(database.db, embedder, features(...namesakes, ...cafes));
    const resolved = await resolveReferences(database.db, planOffline(`Any cafés within 300 m of ${name}?`));
    expect(resolved.ok && resolved.references[0]!.centroid).toEqual({ lon: busy.coordinates[0], lat: busy.coordinates[1] });
  });
});
