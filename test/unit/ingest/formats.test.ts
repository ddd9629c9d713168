import { describe, expect, it } from 'vitest';
import { IngestError } from '../../../src/ingest/feature.ts';
import { detectFormat, readPlaces } from '../../../src/ingest/formats.ts';
import { hasMidtown, MIDTOWN_PBF, needs, tempFile } from './data.ts';

describe('detectFormat / readPlaces', () => {
  it('detects GeoJSON and CSV by content', async () => {
    expect(await detectFormat(tempFile('a.geojson', ' \n{"type":"FeatureCollection","features":[]}'))).toBe('geojson');
    expect(await detectFormat(tempFile('a.csv', 'name,Longitude,Latitude\nx,1,2\n'))).toBe('csv');
    expect(await detectFormat(tempFile('a.txt', 'name;wkt\nx;POINT(1 2)\n'))).toBe('csv');
  });

  it.skipIf(!hasMidtown)(`detects OSM PBF by its OSMHeader blob${needs(MIDTOWN_PBF)}`, async () => {
    expect(await detectFormat(MIDTOWN_PBF)).toBe('osm-pbf');
  });

  it('gives clear errors for unknown, mislabelled, XML, empty and missing files', async () => {
    await expect(detectFormat(tempFile('a.dat', 'hello world\n'))).rejects.toThrow(/unknown format: .*text without a CSV header/);
    await expect(detectFormat(tempFile('a.bin', Buffer.from([0, 1, 2, 3, 0, 0])))).rejects.toThrow(/unknown format: .*binary/);
    await expect(detectFormat(tempFile('a.osm', '<?xml version="1.0"?>\n<osm version="0.6">'))).rejects.toThrow(/OSM XML .*osmium cat/);
    await expect(detectFormat(tempFile('a.csv', '{"type":"FeatureCollection"}'))).rejects.toThrow(/extension says csv but the content is geojson/);
    await expect(detectFormat(tempFile('a.csv', ''))).rejects.toThrow(/file is empty/);
    await expect(detectFormat('/nonexistent/x.csv')).rejects.toBeInstanceOf(IngestError);
  });

  it('reads through the detected reader', async () => {
    const path = tempFile('p.csv', 'name,lon,lat\nA,1,2\n');
    const names: (string | null)[] = [];
    for await (const f of readPlaces(path, { source: 's' })) names.push(f.name);
    expect(names).toEqual(['A']);
  });
});
