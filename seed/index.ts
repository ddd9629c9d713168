/**
 * The seed sets: what an empty database is filled with on first start (`SEED`) and by `npm run seed`.
 * Definitions only; the loader they are given to is src/ingest/seed.ts.
 */
import type { SeedPlaces } from '../src/ingest/seed.ts';
import { COUNTRIES_SOURCE, countryLandBorders, countryPolygons } from './countries.ts';
import { DEMO_DATA } from './demo.ts';
import { TOOL_CATALOGS } from './tools.ts';
import { CITIES_SOURCE, worldCities } from './world-cities.ts';

export { SEED_MIN_POPULATION } from './world-cities.ts';
export { CITIES_SOURCE, COUNTRIES_SOURCE, DEMO_DATA, TOOL_CATALOGS };

export type SeedChoice = 'auto' | 'all' | 'world' | 'demo' | 'none';

export interface SeedSet {
  /** Loaded first, in one bulk load with `places`: the demo's OSM extract and neighbourhoods. */
  demo?: typeof DEMO_DATA;
  /** The world places, one named group per source (a running service receives them source by source). */
  places: SeedPlaces['places'];
  /** Catalog folders imported next to the built-in tool records. */
  toolCatalogs: string[];
}

const WORLD: SeedSet['places'] = [
  { source: CITIES_SOURCE, features: worldCities },
  { source: COUNTRIES_SOURCE, features: countryPolygons, landBorders: countryLandBorders },
];

/** The set a `SEED` value names (`auto` is `all`); undefined for `none`. */
export function seedSet(choice: SeedChoice): SeedSet | undefined {
  switch (choice) {
    case 'none':
      return undefined;
    case 'world':
      return { places: WORLD, toolCatalogs: TOOL_CATALOGS };
    case 'demo':
      return { demo: DEMO_DATA, places: [], toolCatalogs: TOOL_CATALOGS };
    case 'auto':
    case 'all':
      return { demo: DEMO_DATA, places: WORLD, toolCatalogs: TOOL_CATALOGS };
  }
}
