import { describe, expect, it } from 'vitest';
import { CATEGORY_RULES, categoryForOsmTags, normaliseCategory } from '../../../src/ingest/category.ts';
import { describePlace } from '../../../src/ingest/describe.ts';
import type { PlaceFeature } from '../../../src/ingest/feature.ts';

function osm(tags: Record<string, string>, geometry: PlaceFeature['geometry'] = { type: 'Point', coordinates: [-73.99, 40.75] }): PlaceFeature {
  const kind = geometry.type === 'Point' ? 'point' : geometry.type === 'LineString' ? 'line' : 'area';
  return { source: 'osm', sourceId: 'node/1', name: tags.name ?? null, category: categoryForOsmTags(tags, kind), tags, description: '', geometry };
}

describe('category table', () => {
  it('takes the first present primary key, keeping OSM values', () => {
    expect(categoryForOsmTags({ amenity: 'fast_food', cuisine: 'burger' }, 'point')).toBe('fast_food');
    expect(categoryForOsmTags({ shop: 'books' }, 'point')).toBe('books');
    expect(categoryForOsmTags({ tourism: 'museum', building: 'yes' }, 'area')).toBe('museum');
    expect(categoryForOsmTags({ building: 'yes' }, 'area')).toBe('building');
    expect(categoryForOsmTags({ building: 'apartments' }, 'area')).toBe('apartments');
    expect(categoryForOsmTags({ boundary: 'administrative', admin_level: '10' }, 'area')).toBe('administrative_area');
    expect(categoryForOsmTags({ healthcare: 'pharmacy', amenity: 'pharmacy' }, 'point')).toBe('pharmacy');
    expect(categoryForOsmTags({ amenity: 'cafe;restaurant' }, 'point')).toBe('cafe');
    expect(categoryForOsmTags({ shop: 'no', craft: 'shoemaker' }, 'point')).toBe('shoemaker');
    expect(categoryForOsmTags({ created_by: 'JOSM' }, 'point')).toBeNull();
  });

  it('makes named highway lines streets, other highway features keep their value', () => {
    expect(categoryForOsmTags({ highway: 'residential', name: 'West 34th Street' }, 'line')).toBe('street');
    expect(categoryForOsmTags({ highway: 'residential' }, 'line')).toBe('residential');
    expect(categoryForOsmTags({ highway: 'bus_stop', name: 'X' }, 'point')).toBe('bus_stop');
    expect(categoryForOsmTags({ highway: 'footway', railway: 'adjacent', name: 'High Line' }, 'line')).toBe('street');
  });

  it('lets weak values (tourism=attraction) yield to more specific keys, but not to building', () => {
    expect(categoryForOsmTags({ leisure: 'park', tourism: 'attraction' }, 'area')).toBe('park');
    expect(categoryForOsmTags({ building: 'office', tourism: 'attraction' }, 'area')).toBe('attraction');
    expect(categoryForOsmTags({ tourism: 'attraction' }, 'point')).toBe('attraction');
  });

  it('normalises other sources and lists the priority order', () => {
    expect(normaliseCategory('Neighborhood')).toBe('neighbourhood');
    expect(normaliseCategory('sub-neighborhood')).toBe('neighbourhood');
    expect(normaliseCategory('Coffee Shop')).toBe('coffee_shop');
    expect(normaliseCategory('  ')).toBeNull();
    expect(CATEGORY_RULES.map((r) => r.key).slice(0, 17)).toEqual([
      'amenity', 'shop', 'tourism', 'leisure', 'historic', 'healthcare', 'office', 'craft', 'public_transport',
      'railway', 'aeroway', 'highway', 'place', 'boundary', 'landuse', 'natural', 'building',
    ]);
  });
});

describe('describePlace', () => {
  it('builds sentences only from tag facts, in a fixed order', () => {
    const f = osm({
      amenity: 'restaurant',
      name: 'Green Bowl',
      cuisine: 'vegan;salad',
      'diet:vegan': 'yes',
      'diet:gluten_free': 'limited',
      outdoor_seating: 'yes',
      takeaway: 'yes',
      delivery: 'no',
      wheelchair: 'limited',
      opening_hours: 'Mo-Fr 08:00-20:00',
      'addr:housenumber': '12',
      'addr:street': 'West 35th Street',
      brand: 'Bowls Inc',
      website: 'https://www.greenbowl.example/menu',
      phone: '+1 555',
    });
    expect(describePlace(f, { neighbourhood: 'Midtown' })).toBe(
      'Green Bowl is a vegan and salad restaurant at 12 West 35th Street in Midtown. Its brand is Bowls Inc. ' +
        'It offers vegan options, limited gluten-free options, outdoor seating and takeaway. It does not offer delivery. ' +
        'Opening hours: Mo-Fr 08:00-20:00. It has limited wheelchair access. Website: greenbowl.example.',
    );
  });

  it('describes unnamed features by their kind and uses context.street only without an address', () => {
    expect(describePlace(osm({ amenity: 'cafe' }), { street: 'Broadway' })).toBe('An unnamed cafe on Broadway.');
    expect(describePlace(osm({ amenity: 'atm' }))).toBe('An unnamed ATM.');
    expect(describePlace(osm({ shop: 'chocolate', name: 'Choc' }))).toBe('Choc is a chocolate shop.');
    expect(describePlace(osm({ 'addr:street': '5th Avenue', 'addr:housenumber': '1' }))).toBe('An unnamed place at 1 5th Avenue.');
  });

  it('capitalises national cuisines, lists many cuisines separately, drops a cafe\'s coffee_shop', () => {
    expect(describePlace(osm({ amenity: 'restaurant', name: 'A', cuisine: 'italian' }))).toBe('A is an Italian restaurant.');
    expect(describePlace(osm({ amenity: 'restaurant', name: 'B', cuisine: 'korean;japanese;sushi' }))).toBe(
      'B is a restaurant. Cuisine: Korean, Japanese and sushi.',
    );
    expect(describePlace(osm({ amenity: 'cafe', name: 'C', cuisine: 'coffee_shop' }))).toBe('C is a cafe.');
  });

  it('keeps prose of non-OSM sources verbatim and appends OSM descriptions after the facts', () => {
    const prose: PlaceFeature = {
      source: 'nbhd', sourceId: 'x', name: 'X', category: 'neighbourhood', tags: { summary: 'X is lovely.' },
      description: '', geometry: { type: 'Point', coordinates: [0, 0] },
    };
    expect(describePlace(prose)).toBe('X is lovely.');
    expect(describePlace(osm({ tourism: 'museum', name: 'M', description: 'Math museum' }))).toBe('M is a museum. Math museum.');
  });
});
