/**
 * Golden descriptions of real places. The expected text lives in test/golden/descriptions/<case>.txt;
 * run with UPDATE_GOLDEN=1 to (re)write them after an intended change, then review the diff.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PlaceFeature } from '../../../src/ingest/feature.js';
import { readGeoJson } from '../../../src/ingest/geojson.js';
import { readOsmPbf } from '../../../src/ingest/osm.js';
import { hasMidtown, hasNeighborhoods, MIDTOWN_PBF, NEIGHBORHOODS, needs } from './data.js';

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
