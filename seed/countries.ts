import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import type { PlaceFeature, PlaceGeometry } from '../src/ingest/feature.ts';

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

export function* countryPolygons(): Generator<PlaceFeature> {
  const require = createRequire(import.meta.url);
  const topology = require('world-atlas/countries-50m.json');
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
      sourceId: `ne/${f.id ?? f.properties.name}`,
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
