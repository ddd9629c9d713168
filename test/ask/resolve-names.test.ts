import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineEmbedderWithLexicons } from '../../src/embedding/configured.ts';
import type { PlaceFeature } from '../../src/ingest/feature.ts';
import { loadPlaces } from '../../src/ingest/load.ts';
import { planOffline } from '../../src/planning/offline-planner.ts';
import { resolveReferences } from '../../src/spatial/resolve.ts';
import { openTestDatabase, testMode, type TestDatabase } from '../helpers/database.ts';

const embedder = createOfflineEmbedderWithLexicons();

/** A small square polygon around a point (about 40 m a side). */
function block(lon: number, lat: number): PlaceFeature['geometry'] {
  const d = 0.0002;
  return { type: 'Polygon', coordinates: [[[lon - d, lat - d], [lon + d, lat - d], [lon + d, lat + d], [lon - d, lat + d], [lon - d, lat - d]]] };
}

function place(sourceId: string, name: string, category: string, tags: Record<string, string>, geometry: PlaceFeature['geometry']): PlaceFeature {
  return { source: 'names-test', sourceId, name, category, tags: { name, ...tags }, description: `${name}.`, geometry };
}

const point = (lon: number, lat: number): PlaceFeature['geometry'] => ({ type: 'Point', coordinates: [lon, lat] });

// An invented town: every name below is made up for this test.
const PLACES: PlaceFeature[] = [
  place('t1', 'Harbour Authority Ferry Terminal', 'ferry_terminal', { amenity: 'ferry_terminal', wikidata: 'Q900001', wikipedia: 'en:Harbour Authority Ferry Terminal' }, block(2.35, 48.85)),
  place('t2', 'Harbour Authority Deli', 'convenience', { shop: 'convenience' }, point(2.3505, 48.8505)),
  place('t3', 'Harbour Authority Pick Up', 'platform', { public_transport: 'platform' }, point(2.3497, 48.8497)),
  place('m1', 'Brambly Museum of Glass', 'museum', { tourism: 'museum', wikidata: 'Q900002', short_name: 'The Brambly' }, block(2.30, 48.85)),
  place('m2', 'The Brambly', 'apartments', { building: 'apartments' }, point(2.36, 48.86)),
  place('s1', 'Marrowfield Stadium', 'stadium', { leisure: 'stadium', wikidata: 'Q900003', short_name: 'MFS' }, block(2.34, 48.84)),
  place('n1', 'Lettertown', 'neighbourhood', { place: 'neighbourhood' }, block(2.345, 48.855)),
  place('a1', 'Ashgrove Hall', 'theatre', { amenity: 'theatre', wikidata: 'Q900004' }, block(2.33, 48.85)),
  place('a2', 'Ashgrove Tower', 'attraction', { tourism: 'attraction', wikidata: 'Q900005' }, block(2.37, 48.85)),
  place('h1', 'Riverside Concert Hall', 'music_venue', { amenity: 'music_venue' }, point(2.38, 48.84)),
  place('g1', 'Hudson Fine Art', 'gallery', { tourism: 'gallery' }, point(2.39, 48.83)),
  place('g2', 'Hudson Museum of Modern Art', 'museum', { tourism: 'museum', wikidata: 'Q900006', wikipedia: 'en:Hudson Museum of Modern Art' }, block(2.31, 48.87)),
];

async function* features(list: PlaceFeature[]) {
  yield* list;
}

async function resolvedName(question: string): Promise<string | undefined> {
  const result = await resolveReferences(database.db, planOffline(question));
  return result.ok ? result.references[0]!.match?.name : undefined;
}

let database: TestDatabase;

describe(`reference names as people say them (${testMode} mode)`, () => {
  beforeAll(async () => {
    database = await openTestDatabase();
    await loadPlaces(database.db, embedder, features(PLACES));
  });
  afterAll(async () => database?.dispose());

  it('takes the notable place among shops and platforms that borrow its name', async () => {
    expect(await resolvedName('Any cafés within 200 m of Harbour Authority?')).toBe('Harbour Authority Ferry Terminal');
  });

  it('finds a place by the short name its tags give', async () => {
    expect(await resolvedName('Any cafés within 200 m of MFS?')).toBe('Marrowfield Stadium');
  });

  it('prefers the famous place to a namesake elsewhere', async () => {
    expect(await resolvedName('Any cafés within 300 m of the Brambly?')).toBe('Brambly Museum of Glass');
  });

  it('reads a compound clipped to its initial', async () => {
    expect(await resolvedName('bars in L-town?')).toBe('Lettertown');
  });

  it('does not pick a notable place for a phrase that is only a kind of place ("the hall")', async () => {
    const result = await resolveReferences(database.db, planOffline('Any cafés within 200 m of the hall?'));
    expect(result.ok).toBe(false);
  });

  it('still asks when two notable names read equally well', async () => {
    const result = await resolveReferences(database.db, planOffline('Any cafés within 200 m of Ashgrove?'));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.clarification.options.map((o) => o.name).sort()).toEqual(['Ashgrove Hall', 'Ashgrove Tower']);
  });

  it('takes a far more notable place whose name reads a little less well through the Chinese gloss', async () => {
    // 哈德逊 sounds like Hudson, 美术馆 is "art gallery": the shop's shorter name reads better word for word.
    expect(await resolvedName('哈德逊美术馆500米以内的咖啡馆')).toBe('Hudson Museum of Modern Art');
  });
});

