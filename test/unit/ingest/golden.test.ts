/**
 * Golden descriptions of real places. The expected text lives in test/golden/descriptions/<case>.txt;
 * run with UPDATE_GOLDEN=1 to (re)write them after an intended change, then review the diff.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContextIndex } from '../../../src/ingest/context.ts';
import { describePlace } from '../../../src/ingest/describe.ts';
import type { PlaceFeature } from '../../../src/ingest/feature.ts';
import { readGeoJson } from '../../../src/ingest/geojson.ts';
import { readOsmPbf } from '../../../src/ingest/osm.ts';
import { hasMidtown, hasNeighborhoods, MIDTOWN_PBF, NEIGHBORHOODS, needs } from './data.ts';

const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../golden/descriptions');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

function checkGolden(name: string, actual: string): void {
  const file = join(GOLDEN_DIR, `${name}.txt`);
  if (UPDATE) {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(file, `${actual}\n`);
    return;
  }
  if (!existsSync(file)) throw new Error(`golden file ${file} is missing; run with UPDATE_GOLDEN=1 to create it`);
  expect(actual).toBe(readFileSync(file, 'utf8').replace(/\n$/, ''));
}

/** OSM places: [golden name, how to find the feature]. */
const OSM_CASES: [string, (f: PlaceFeature) => boolean][] = [
  ['keens-steakhouse', (f) => f.name === 'Keens Steakhouse' && f.tags.amenity === 'restaurant'],
  ['whitney-museum-polygon', (f) => f.name === 'Whitney Museum of American Art' && f.geometry.type !== 'Point'],
  ['bryant-park-polygon', (f) => f.sourceId === 'way/22727025'],
  ['st-bartholomews-multipolygon', (f) => f.sourceId === 'relation/3573490'],
  ['duane-reade-express-pharmacy', (f) => f.sourceId === 'node/6955034550'],
];

describe.skipIf(!hasMidtown)(`golden descriptions of Midtown OSM places${needs(MIDTOWN_PBF)}`, () => {
  const found = new Map<string, PlaceFeature>();
  beforeAll(async () => {
    for await (const f of readOsmPbf(MIDTOWN_PBF)) {
      for (const [name, match] of OSM_CASES) if (!found.has(name) && match(f)) found.set(name, f);
    }
  }, 120_000);

  for (const [name] of OSM_CASES) {
    it(name, () => {
      const f = found.get(name);
      expect(f, `${name} not found in ${MIDTOWN_PBF}`).toBeDefined();
      checkGolden(name, f!.description);
    });
  }
});

describe.skipIf(!hasNeighborhoods)(`golden description of a neighborhood${needs(NEIGHBORHOODS)}`, () => {
  it('koreatown-manhattan', async () => {
    let koreatown: PlaceFeature | undefined;
    for await (const f of readGeoJson(NEIGHBORHOODS, { idProperty: 'slug' })) if (f.sourceId === 'koreatown-manhattan') koreatown = f;
    expect(koreatown).toBeDefined();
    checkGolden('koreatown-manhattan-neighbourhood', koreatown!.description);
  });
});

/**
 * Descriptions as the loader writes them, with the spatial context: the neighbourhood polygons of the NYC
 * file (loaded first, as loadNycData does) and the named streets of the Midtown extract.
 */
const CONTEXT_CASES: [string, string][] = [
  ['perk-kafe-street-and-neighbourhood', 'node/419367394'], // no address: the street within 40 m
  ['keens-steakhouse-in-context', 'node/3068326556'], // an address: only the neighbourhood is added
  ['bryant-park-in-context', 'way/22727025'], // a large area: no street
];

describe.skipIf(!hasMidtown || !hasNeighborhoods)(`golden descriptions with street and neighbourhood${needs(MIDTOWN_PBF)}${needs(NEIGHBORHOODS)}`, () => {
  const described = new Map<string, string>();
  beforeAll(async () => {
    const index = new ContextIndex();
    for await (const f of readGeoJson(NEIGHBORHOODS, { idProperty: 'slug', defaultCategory: 'neighbourhood' })) {
      if (f.name) index.addNeighbourhood(f.name, f.geometry);
    }
    const wanted = new Map<string, PlaceFeature>();
    for await (const f of readOsmPbf(MIDTOWN_PBF)) {
      if (f.category === 'street' && f.name && f.geometry.type === 'LineString') index.addStreet(f.name, f.geometry);
      if (CONTEXT_CASES.some(([, id]) => id === f.sourceId)) wanted.set(f.sourceId, f);
    }
    for (const [id, f] of wanted) described.set(id, describePlace(f, index.contextOf(f)));
  }, 120_000);

  for (const [name, id] of CONTEXT_CASES) {
    it(name, () => {
      expect(described.get(id), `${id} not found in ${MIDTOWN_PBF}`).toBeDefined();
      checkGolden(name, described.get(id)!);
    });
  }
});
