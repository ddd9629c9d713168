import { describe, expect, it } from 'vitest';
import { IngestError, type PlaceFeature } from '../../../src/ingest/feature.ts';
import { readGeoJson } from '../../../src/ingest/geojson.ts';
import { hasNeighborhoods, hasWikivoyage, NEIGHBORHOODS, needs, tempFile, WIKIVOYAGE } from './data.ts';

async function collect(it: AsyncIterable<PlaceFeature>): Promise<PlaceFeature[]> {
  const out: PlaceFeature[] = [];
  for await (const f of it) out.push(f);
  return out;
}

const point = (lon: number, lat: number, props: Record<string, unknown> = {}) => ({
  type: 'Feature',
  properties: props,
  geometry: { type: 'Point', coordinates: [lon, lat] },
});

describe('readGeoJson', () => {
  it('keeps properties as string tags and picks name, category and prose', async () => {
    const fc = {
      type: 'FeatureCollection',
      features: [
        point(-73.98, 40.75, { title: 'Somewhere', kind: 'Neighborhood', byline: 'Somewhere is a place.', pop: 12, ok: true, list: ['a', 'b'], gone: null }),
        {
          type: 'Feature',
          id: 42,
          properties: { NAME: 'Square' },
          // Clockwise exterior on purpose: the reader rewinds it to RFC 7946.
          geometry: { type: 'Polygon', coordinates: [[[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]]] },
        },
      ],
    };
    const [a, b] = await collect(readGeoJson(fc, { source: 'test', defaultCategory: 'destination' }));
    expect(a).toMatchObject({
      source: 'test',
      sourceId: '1',
      name: 'Somewhere',
      category: 'neighbourhood',
      description: 'Somewhere is a place.',
      tags: { title: 'Somewhere', pop: '12', ok: 'true', list: '["a","b"]' },
    });
    expect(a!.tags).not.toHaveProperty('gone');
    expect(b).toMatchObject({ sourceId: '42', name: 'Square', category: 'destination' });
    expect(b!.geometry).toEqual({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]] });
  });

  it('throws an IngestError naming file, feature N and the problem for a bad feature in the middle', async () => {
    const path = tempFile(
      'bad.geojson',
      JSON.stringify({
        type: 'FeatureCollection',
        features: [point(1, 2), point(3, 4), point(200, 5), point(6, 7)],
      }),
    );
    const seen: PlaceFeature[] = [];
    const err = await (async () => {
      try {
        for await (const f of readGeoJson(path, { source: 't' })) seen.push(f);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(IngestError);
    const e = err as IngestError;
    expect(e.file).toBe(path);
    expect(e.location).toBe('feature 3');
    expect(e.problem).toMatch(/longitude 200 is outside/);
    expect(e.message).toBe(`${path}: feature 3: ${e.problem}`);
    expect(seen).toHaveLength(2); // streamed: what came before the bad feature was delivered
  });

  it('with skipInvalid reports bad features through onWarning and continues', async () => {
    const fc = {
      type: 'FeatureCollection',
      features: [
        point(1, 2),
        { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0.5]]] } },
        { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: [[0, 0], [Number.NaN, 1]] } },
        { type: 'Feature', properties: {}, geometry: null },
        point(6, 95),
        point(3, 4),
      ],
    };
    const warnings: IngestError[] = [];
    const out = await collect(readGeoJson(fc, { file: 'inline.geojson', skipInvalid: true, onWarning: (w) => warnings.push(w) }));
    expect(out.map((f) => f.sourceId)).toEqual(['1', '6']);
    expect(warnings.map((w) => w.location)).toEqual(['feature 2', 'feature 3', 'feature 4', 'feature 5']);
    expect(warnings[0]!.problem).toMatch(/not closed/);
    expect(warnings[1]!.problem).toMatch(/non-finite/);
    expect(warnings[2]!.problem).toMatch(/missing/);
    expect(warnings[3]!.problem).toMatch(/latitude 95/);
    expect(warnings[0]!.file).toBe('inline.geojson');
  });

  it('rejects rings with fewer than 4 positions and documents that as the problem', async () => {
    const fc = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [0, 0]]] } }] };
    await expect(collect(readGeoJson(fc))).rejects.toThrow(/feature 1: .*at least 4 positions/);
  });

  it('streams newline-delimited GeoJSON and names feature and line', async () => {
    const lines = [JSON.stringify(point(1, 2, { name: 'a' })), '', JSON.stringify(point(3, 4, { name: 'b' })), '{oops'];
    const path = tempFile('seq.geojsonl', lines.join('\n'));
    const warnings: IngestError[] = [];
    const out = await collect(readGeoJson(path, { skipInvalid: true, onWarning: (w) => warnings.push(w) }));
    expect(out.map((f) => f.name)).toEqual(['a', 'b']);
    expect(warnings[0]!.location).toBe('feature 3 (line 4)');
  });

  it('rejects a document that is not a FeatureCollection', async () => {
    await expect(collect(readGeoJson({ type: 'Point', coordinates: [0, 0] }))).rejects.toThrow(/expected a GeoJSON FeatureCollection/);
  });

  it('makes duplicate ids unique and says so', async () => {
    const fc = { type: 'FeatureCollection', features: [point(1, 2, { slug: 'x' }), point(3, 4, { slug: 'x' })] };
    const warnings: IngestError[] = [];
    const out = await collect(readGeoJson(fc, { idProperty: 'slug', onWarning: (w) => warnings.push(w) }));
    expect(out.map((f) => f.sourceId)).toEqual(['x', 'x#2']);
    expect(warnings[0]!.message).toMatch(/feature 2: id "x" is already used by feature 1/);
  });
});

describe.skipIf(!hasNeighborhoods)(`NYC neighborhoods${needs(NEIGHBORHOODS)}`, () => {
  it('reads 386 polygons with their summaries as descriptions', async () => {
    const warnings: IngestError[] = [];
    const out = await collect(readGeoJson(NEIGHBORHOODS, { source: 'nyc-neighborhoods', idProperty: 'slug', onWarning: (w) => warnings.push(w) }));
    expect(out).toHaveLength(386);
    expect(out.every((f) => f.geometry.type === 'Polygon' || f.geometry.type === 'MultiPolygon')).toBe(true);
    expect(out.every((f) => f.category === 'neighbourhood')).toBe(true);
    expect(out.every((f) => f.description.length > 50 && f.description === f.tags.summary)).toBe(true);
    const koreatown = out.find((f) => f.sourceId === 'koreatown-manhattan');
    expect(koreatown).toMatchObject({ name: 'Koreatown', tags: { borough: 'manhattan' } });
    // The file repeats one slug; ids stay unique and the repeat is reported.
    expect(new Set(out.map((f) => f.sourceId)).size).toBe(386);
    expect(warnings.map((w) => w.problem)).toEqual([expect.stringContaining('"warnerville-queens" is already used')]);
  });
});

describe.skipIf(!hasWikivoyage)(`Wikivoyage destinations${needs(WIKIVOYAGE)}`, () => {
  it('reads 17,428 points with bylines', async () => {
    const t0 = performance.now();
    const out = await collect(readGeoJson(WIKIVOYAGE, { source: 'wikivoyage', defaultCategory: 'destination', idProperty: 'title' }));
    console.log(`wikivoyage: ${out.length} features in ${Math.round(performance.now() - t0)} ms`);
    expect(out).toHaveLength(17_428);
    expect(out.every((f) => f.geometry.type === 'Point' && f.category === 'destination' && f.name)).toBe(true);
    const withByline = out.filter((f) => f.tags.byline);
    expect(withByline.every((f) => f.description === f.tags.byline)).toBe(true);
    expect(JSON.parse(out.find((f) => f.name === "'s-Hertogenbosch")!.tags.links!)).toContain('Utrecht');
  });
});

describe('descriptions left to the loader (describe: false)', () => {
  it('marks descriptions built from tags and leaves them empty, but keeps prose', async () => {
    const fc = {
      type: 'FeatureCollection',
      features: [point(1, 2, { name: 'Joe', category: 'cafe' }), point(3, 4, { name: 'Soho', summary: 'Soho is lively.' })],
    };
    const [joe, soho] = await collect(readGeoJson(fc, { describe: false }));
    expect(joe).toMatchObject({ description: '', descriptionFromTags: true });
    expect(soho).toMatchObject({ description: 'Soho is lively.', descriptionFromTags: false });
    const [described] = await collect(readGeoJson(fc));
    expect(described).toMatchObject({ description: 'Joe is a cafe.', descriptionFromTags: true });
  });
});
