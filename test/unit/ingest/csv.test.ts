import { describe, expect, it } from 'vitest';
import { readCsv } from '../../../src/ingest/csv.ts';
import { IngestError, type PlaceFeature } from '../../../src/ingest/feature.ts';
import { parseWkt } from '../../../src/ingest/wkt.ts';
import { tempFile } from './data.ts';

async function collect(it: AsyncIterable<PlaceFeature>): Promise<PlaceFeature[]> {
  const out: PlaceFeature[] = [];
  for await (const f of it) out.push(f);
  return out;
}

async function failure(it: AsyncIterable<PlaceFeature>): Promise<IngestError> {
  try {
    for await (const _ of it) {
      // drain
    }
  } catch (e) {
    if (e instanceof IngestError) return e;
    throw e;
  }
  throw new Error('expected an IngestError');
}

describe('readCsv', () => {
  it('reads lon/lat columns (any case), name/category/description, other columns as tags', async () => {
    const path = tempFile(
      'places.csv',
      '\ufeffID,Name,Category,Longitude,LATITUDE,cuisine,Description,empty\n' +
        'k1,Keens,restaurant,-73.9862,40.7506,steak,"An old ""chop house"", since 1885",\n' +
        'k2,Nameless,Cafe,-73.99,40.75,,,\n',
    );
    const out = await collect(readCsv(path, { source: 'mine' }));
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({
      source: 'mine',
      sourceId: 'k1',
      name: 'Keens',
      category: 'restaurant',
      description: 'An old "chop house", since 1885',
      geometry: { type: 'Point', coordinates: [-73.9862, 40.7506] },
      tags: { ID: 'k1', name: 'Keens', category: 'restaurant', cuisine: 'steak' },
    });
    expect(out[0]!.tags).not.toHaveProperty('Longitude');
    expect(out[0]!.tags).not.toHaveProperty('empty');
    expect(out[1]!.category).toBe('cafe');
    expect(out[1]!.description).toBe('Nameless is a cafe.');
  });

  it('reads a wkt column with points, lines and polygons (semicolon-delimited file)', async () => {
    const path = tempFile(
      'shapes.csv',
      'name;WKT\n' +
        'p;POINT (-73.98 40.75)\n' +
        'l;LINESTRING(-73.98 40.75, -73.97 40.76)\n' +
        'a;"POLYGON ((0 0, 0 1, 1 1, 1 0, 0 0), (0.2 0.2, 0.4 0.2, 0.4 0.4, 0.2 0.2))"\n' +
        'm;MULTIPOINT ((1 2), (3 4))\n',
    );
    const out = await collect(readCsv(path));
    expect(out.map((f) => f.geometry.type)).toEqual(['Point', 'LineString', 'Polygon', 'MultiPoint']);
    expect(out[0]!.sourceId).toBe('2'); // no id column: the line number
    const poly = out[2]!.geometry;
    if (poly.type !== 'Polygon') throw new Error('polygon expected');
    expect(poly.coordinates[0]).toEqual([[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]); // rewound CCW
    expect(poly.coordinates[1]).toEqual([[0.2, 0.2], [0.4, 0.4], [0.4, 0.2], [0.2, 0.2]]); // hole CW
  });

  it('throws an IngestError naming the line of a bad row', async () => {
    const path = tempFile('bad.csv', 'name,lon,lat\na,1,2\nb,x,3\nc,4,5\n');
    const e = await failure(readCsv(path));
    expect(e.location).toBe('line 3');
    expect(e.problem).toBe('column "lon" is not a number: "x"');
    expect(e.message).toBe(`${path}: line 3: column "lon" is not a number: "x"`);
  });

  it('names the physical line even after a quoted multi-line field', async () => {
    const path = tempFile('multi.csv', 'name,description,lon,lat\na,"two\nlines",1,2\nb,,1,95\n');
    const e = await failure(readCsv(path));
    expect(e.location).toBe('line 4');
    expect(e.problem).toMatch(/latitude 95 is outside/);
  });

  it('with skipInvalid reports bad lines and continues', async () => {
    const path = tempFile('skip.csv', 'name,wkt\na,POINT(1 2)\nb,"POLYGON((0 0, 1 0, 1 1))"\nc,POINT(1 2\nd,"POINT(1 2)",extra\ne,POINT(3 4)\n');
    const warnings: IngestError[] = [];
    const out = await collect(readCsv(path, { skipInvalid: true, onWarning: (w) => warnings.push(w) }));
    expect(out.map((f) => f.name)).toEqual(['a', 'e']);
    expect(warnings.map((w) => w.location)).toEqual(['line 3', 'line 4', 'line 5']);
    expect(warnings[0]!.problem).toMatch(/at least 4 positions/);
    expect(warnings[1]!.problem).toMatch(/expected "," or "\)" but the text ended/);
    expect(warnings[2]!.problem).toBe('has 3 fields, the header has 2');
  });

  it('refuses a file without geometry columns, naming the header line', async () => {
    const path = tempFile('nogeo.csv', 'name,x,y\na,1,2\n');
    const e = await failure(readCsv(path));
    expect(e.location).toBe('line 1');
    expect(e.problem).toMatch(/no geometry columns.*"name", "x", "y"/);
  });

  it('reports broken quoting with its line', async () => {
    const path = tempFile('quote.csv', 'name,lon,lat\na,1,2\n"b,1,2\n');
    const e = await failure(readCsv(path));
    expect(e.location).toMatch(/^line \d+$/);
    expect(e.problem).toMatch(/invalid CSV/);
  });
});

describe('parseWkt', () => {
  it('parses all supported types, Z/M and EWKT 4326', () => {
    expect(parseWkt('point z (1 2 3)')).toEqual({ type: 'Point', coordinates: [1, 2] });
    expect(parseWkt('SRID=4326;POINT(1.5 -2e1)')).toEqual({ type: 'Point', coordinates: [1.5, -20] });
    expect(parseWkt('MULTIPOINT (1 2, 3 4)')).toEqual({ type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] });
    expect(parseWkt('MULTILINESTRING ((0 0, 1 1), (2 2, 3 3))').type).toBe('MultiLineString');
    const mp = parseWkt('MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))');
    expect(mp.type).toBe('MultiPolygon');
    expect(mp.coordinates).toHaveLength(2);
  });

  it('explains errors', () => {
    expect(() => parseWkt('CIRCLE (1 2)')).toThrow(/CIRCLE is not supported/);
    expect(() => parseWkt('POINT EMPTY')).toThrow(/EMPTY has no location/);
    expect(() => parseWkt('POINT (1)')).toThrow(/expected a coordinate "lon lat" but found "\)" at position 9/);
    expect(() => parseWkt('POINT (1 2) x')).toThrow(/expected the end of the geometry but found "X"/);
    expect(() => parseWkt('SRID=3857;POINT (1 2)')).toThrow(/only 4326/);
    expect(() => parseWkt('POINT (1 2 3 4 5)')).toThrow(/5 numbers/);
    expect(() => parseWkt('POINT (1 2) ; drop')).toThrow(/unexpected character ";"/);
    expect(() => parseWkt('POINT (200 2)')).toThrow(/longitude 200/);
  });
});
