import { createRequire } from 'node:module';
import { feature, mesh, neighbors } from 'topojson-client';
import type { MultiLineStringGeometry, PlaceFeature, PlaceGeometry } from '../src/ingest/feature.ts';
import type { LandBorder } from '../src/ingest/land-borders.ts';

/**
 * Countries as polygons, so "cities in Japan" is a spatial question: Natural Earth's 1:50m admin-0 outlines
 * (npm `world-atlas`, public domain), named and coded from npm `world-countries` (ODbL), which also gives
 * the Chinese names (`name:zh`) the Chinese questions use.
 */
export const COUNTRIES_SOURCE = 'natural-earth-countries';

interface WorldCountry {
  name: { common: string; official: string };
  cca2: string;
  cca3: string;
  ccn3: string;
  capital?: string[];
  region: string;
  subregion?: string;
  altSpellings?: string[];
  translations: Record<string, { common: string; official: string } | undefined>;
}

interface AtlasGeometry {
  type: string;
  id?: string;
  properties: { name: string };
}

// biome-ignore lint/suspicious/noExplicitAny: the world-atlas JSON has no types; topojson-client checks its shape.
type Topology = any;

function atlas(): Topology {
  return createRequire(import.meta.url)('world-atlas/countries-50m.json');
}

/** A country's row id: its ISO numeric code, or its name where Natural Earth gives none. */
function countrySourceId(f: { id?: string; properties: { name: string } }): string {
  return `ne/${f.id ?? f.properties.name}`;
}

export function* countryPolygons(): Generator<PlaceFeature> {
  const require = createRequire(import.meta.url);
  const topology = atlas();
  const byNumber = new Map((require('world-countries') as WorldCountry[]).map((c) => [c.ccn3, c]));
  const { features } = feature(topology, topology.objects.countries) as unknown as {
    features: { id?: string; properties: AtlasGeometry['properties']; geometry: PlaceGeometry | null }[];
  };
  for (const f of features) {
    if (!f.geometry) continue;
    const country = f.id ? byNumber.get(f.id) : undefined;
    const name = country?.name.common ?? f.properties.name;
    const zh = country?.translations.zho?.common;
    const official = country && country.name.official !== name ? country.name.official : undefined;
    const where = country ? (country.subregion || country.region) : undefined;
    yield {
      source: COUNTRIES_SOURCE,
      sourceId: countrySourceId(f),
      name,
      category: 'country',
      tags: {
        place: 'country',
        ...(country ? { country_code: country.cca2, 'ISO3166-1:alpha3': country.cca3 } : {}),
        ...(zh ? { 'name:zh': zh } : {}),
        ...(official ? { alt_name: official } : {}),
        ...(country?.capital?.length ? { capital_city: country.capital.join(';') } : {}),
      },
      description: `${name}, a country${where ? ` in ${where}` : ''}${country?.capital?.length ? `, capital ${country.capital[0]}` : ''} (Natural Earth).`,
      geometry: f.geometry,
    };
  }
}

/**
 * Each country's land border: the arcs of the topology it shares with another country, so that "near the
 * border" measures to its neighbours and not to its coastline (the outline's ST_Boundary holds both). In a
 * topology two countries meet exactly on shared arcs, which `mesh` keeps when its filter sees two different
 * geometries on either side; a country without a land neighbour (an island) has an empty border. Features
 * sharing an id (Natural Earth's parts of one country) are one row of places, so their borders are joined.
 */
export function* countryLandBorders(): Generator<LandBorder> {
  const topology = atlas();
  const countries = topology.objects.countries as { geometries: { id?: string; type: string | null; properties: { name: string } }[] };
  const borders = new Map<string, MultiLineStringGeometry['coordinates']>();
  // Each country's mesh over itself and its neighbours only (those sharing an arc): over all the countries
  // it took 1 s for the 241, this 0.1 s.
  const adjacent = neighbors(countries.geometries as Parameters<typeof neighbors>[0]);
  for (const [i, g] of countries.geometries.entries()) {
    if (!g.type) continue;
    const around = { type: 'GeometryCollection', geometries: [g, ...adjacent[i]!.map((j) => countries.geometries[j]!)] };
    const shared = mesh(topology, around as typeof topology.objects.countries, (a, b) => a !== b && (a === g || b === g)) as MultiLineStringGeometry;
    const id = countrySourceId(g);
    borders.set(id, [...(borders.get(id) ?? []), ...shared.coordinates]);
  }
  for (const [sourceId, coordinates] of borders) yield { sourceId, border: { type: 'MultiLineString', coordinates } };
}
