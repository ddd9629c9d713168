import { describe, expect, it } from 'vitest';
import { areaM2, ContextIndex, mayHaveStreet, SMALL_AREA_M2, STREET_DISTANCE_M } from '../../../src/ingest/context.ts';
import { describePlace, describeWithStreetSlot, STREET_SLOT } from '../../../src/ingest/describe.ts';
import type { PlaceFeature, PlaceGeometry, Position } from '../../../src/ingest/feature.ts';

// A local frame in metres around Midtown: x east, y north.
const LON0 = -73.99;
const LAT0 = 40.75;
const M_LAT = 1 / ((6_371_008.8 * Math.PI) / 180);
const M_LON = M_LAT / Math.cos((LAT0 * Math.PI) / 180);
const at = (x: number, y: number): Position => [LON0 + x * M_LON, LAT0 + y * M_LAT];
const point = (x: number, y: number): PlaceGeometry => ({ type: 'Point', coordinates: at(x, y) });
const line = (...xy: [number, number][]): PlaceGeometry => ({ type: 'LineString', coordinates: xy.map(([x, y]) => at(x, y)) });
const square = (x0: number, y0: number, size: number, hole?: [number, number, number]): PlaceGeometry => {
  const ring = (a: number, b: number, s: number) => [at(a, b), at(a + s, b), at(a + s, b + s), at(a, b + s), at(a, b)];
  return { type: 'Polygon', coordinates: hole ? [ring(x0, y0, size), ring(...hole).reverse()] : [ring(x0, y0, size)] };
};

function osm(tags: Record<string, string>, geometry: PlaceGeometry, category: string | null = 'cafe'): PlaceFeature {
  return { source: 'osm', sourceId: 'node/1', name: tags.name ?? null, category, tags, description: '', descriptionFromTags: true, geometry };
}

describe('ContextIndex: neighbourhoods', () => {
  const index = new ContextIndex();
  index.addNeighbourhood('Midtown', square(0, 0, 2000));
  index.addNeighbourhood('Koreatown', square(100, 100, 300, [200, 200, 50]));
  index.addNeighbourhood('Chelsea', square(2000, 0, 1000));

  it('picks the smallest neighbourhood containing a point, and honours holes', () => {
    expect(index.neighbourhoodOf(point(150, 150))).toBe('Koreatown');
    expect(index.neighbourhoodOf(point(1000, 1000))).toBe('Midtown');
    expect(index.neighbourhoodOf(point(225, 225))).toBe('Midtown'); // in Koreatown's hole
    expect(index.neighbourhoodOf(point(5000, 5000))).toBeUndefined();
  });

  it('gives a line or polygon a neighbourhood only when all of it is inside one', () => {
    expect(index.neighbourhoodOf(line([10, 10], [500, 10]))).toBe('Midtown');
    expect(index.neighbourhoodOf(line([1900, 10], [2100, 10]))).toBeUndefined(); // crosses into Chelsea
    expect(index.neighbourhoodOf(square(120, 120, 20))).toBe('Koreatown');
  });

  it('ignores a polygon added twice under the same key', () => {
    const twice = new ContextIndex();
    twice.addNeighbourhood('A', square(0, 0, 100), 'k');
    twice.addNeighbourhood('A', square(0, 0, 100), 'k');
    expect(twice.size.neighbourhoods).toBe(1);
  });
});

describe('ContextIndex: streets', () => {
  const index = new ContextIndex();
  index.addStreet('West 35th Street', line([0, 0], [300, 0]));
  index.addStreet('7th Avenue', line([0, -200], [0, 200]));
  index.addStreet('Far Street', line([0, 500], [300, 500]));

  it('finds the nearest named street within STREET_DISTANCE_M', () => {
    expect(STREET_DISTANCE_M).toBe(40);
    expect(index.streetNear(point(150, 10))).toBe('West 35th Street');
    expect(index.streetNear(point(10, 100))).toBe('7th Avenue');
    expect(index.streetNear(point(150, 39))).toBe('West 35th Street');
    expect(index.streetNear(point(150, 41))).toBeUndefined();
    expect(index.streetNear(point(150, 250))).toBeUndefined();
  });

  it('breaks ties by name, so the answer never depends on the order of the data', () => {
    expect(index.streetNear(point(5, 5))).toBe('7th Avenue'); // 5 m from both
    const reversed = new ContextIndex();
    reversed.addStreet('7th Avenue', line([0, -200], [0, 200]));
    reversed.addStreet('West 35th Street', line([0, 0], [300, 0]));
    expect(reversed.streetNear(point(5, 5))).toBe('7th Avenue');
  });

  it('measures from the outline of a small area, and gives lines and large areas no street', () => {
    expect(index.streetNear(square(100, 30, 20))).toBe('West 35th Street'); // edge 30 m away, centre 40 m
    expect(index.streetNear(line([100, 5], [200, 5]))).toBeUndefined();
    const big = square(10, 10, 200);
    expect(areaM2(big)).toBeGreaterThan(SMALL_AREA_M2);
    expect(mayHaveStreet(osm({}, big, 'park'))).toBe(false);
  });

  it('applies the rules of context: no street for an address, a street, or a neighbourhood', () => {
    const nb = new ContextIndex();
    nb.addNeighbourhood('Midtown', square(-1000, -1000, 2000));
    nb.addStreet('West 35th Street', line([0, 0], [300, 0]));
    expect(nb.contextOf(osm({ amenity: 'cafe' }, point(50, 10)))).toEqual({ street: 'West 35th Street', neighbourhood: 'Midtown' });
    expect(nb.contextOf(osm({ amenity: 'cafe', 'addr:street': 'Broadway' }, point(50, 10)))).toEqual({ neighbourhood: 'Midtown' });
    expect(nb.contextOf(osm({ amenity: 'cafe', 'addr:full': '1 Broadway' }, point(50, 10)))).toEqual({ neighbourhood: 'Midtown' });
    expect(nb.contextOf(osm({ highway: 'residential', name: 'X' }, line([10, 10], [20, 20]), 'street'))).toEqual({ neighbourhood: 'Midtown' });
    expect(nb.contextOf(osm({ place: 'neighbourhood' }, point(50, 10), 'neighbourhood'))).toEqual({});
  });
});

describe('describeWithStreetSlot', () => {
  const cases: Record<string, string>[] = [
    { amenity: 'cafe', name: 'Joe' },
    { amenity: 'cafe' },
    { amenity: 'restaurant', name: 'Keens', cuisine: 'steak_house', opening_hours: 'Mo-Su 11:00-22:00', outdoor_seating: 'yes' },
    { shop: 'books', name: 'Books on Broadway' },
    { amenity: 'pharmacy', name: 'P', 'addr:full': '1 Main Street, New York' },
    { amenity: 'pharmacy', name: 'Q', 'addr:street': 'Main Street', 'addr:housenumber': '3' },
  ];
  it.each(cases.map((tags) => [JSON.stringify(tags), tags]))('equals describePlace with and without the street: %s', (_, tags) => {
    const f = osm(tags, point(0, 0), tags.amenity ?? (tags.shop ? 'books' : null));
    for (const context of [{}, { neighbourhood: 'Midtown' }]) {
      const { withStreet, withoutStreet } = describeWithStreetSlot(f, context);
      expect(withoutStreet).toBe(describePlace(f, context));
      expect(withStreet.replace(STREET_SLOT, '8th Avenue')).toBe(describePlace(f, { ...context, street: '8th Avenue' }));
    }
  });

  it('reads as a context sentence', () => {
    const f = osm({ amenity: 'cafe', name: 'Joe', 'diet:vegan': 'yes' }, point(0, 0));
    expect(describeWithStreetSlot(f, { neighbourhood: 'Koreatown' }).withStreet.replace(STREET_SLOT, 'West 32nd Street')).toBe(
      'Joe is a cafe on West 32nd Street in Koreatown. It offers vegan options.',
    );
  });
});
