import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { etaSeconds, progressLine } from '../../../src/cli/progress.ts';
import { readPlaces } from '../../../src/ingest/formats.ts';
import { hasMidtown, MIDTOWN_PBF, needs, tempFile } from './data.ts';

describe('progress line', () => {
  it('estimates the time left from the share of the input done', () => {
    expect(etaSeconds(10_000, 25, 100)).toBe(30);
    expect(etaSeconds(10_000, 100, 100)).toBe(0);
    expect(etaSeconds(100, 1, 100)).toBeNull(); // too early to tell
    expect(etaSeconds(10_000, 0, 100)).toBeNull();
    expect(etaSeconds(10_000, 5, 0)).toBeNull();
  });

  it('shows count, share, rate and ETA while reading, then what the loader does', () => {
    const state = { count: 5000, elapsedMs: 2000, phase: 'reading', read: 250_000, total: 1_000_000 };
    expect(progressLine('f.pbf', state)).toBe('f.pbf: 5,000 (25%) features, 2,500/s, eta 6s');
    expect(progressLine('f.pbf', { ...state, read: 0, total: 0 })).toBe('f.pbf: 5,000 features, 2,500/s');
    expect(progressLine('f.pbf', { ...state, phase: 'indexing' })).toBe('f.pbf: 5,000 features read; building the vector index…');
  });
});

async function bytesReported(path: string): Promise<[number, number][]> {
  const seen: [number, number][] = [];
  for await (const _ of readPlaces(path, { onBytes: (read, total) => seen.push([read, total]) })) void _;
  return seen;
}

describe('readers report the bytes they have read', () => {
  const expectComplete = (seen: [number, number][], path: string) => {
    const size = statSync(path).size;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every(([, total]) => total === size)).toBe(true);
    expect(seen.every(([read], i) => i === 0 || read >= seen[i - 1]![0])).toBe(true);
    expect(seen.at(-1)![0]).toBe(size);
  };

  it('CSV and GeoJSON (sequence and document)', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `${i},p${i},-73.9,40.7`).join('\n');
    const csv = tempFile('p.csv', `id,name,lon,lat\n${rows}\n`);
    expectComplete(await bytesReported(csv), csv);
    const feature = (i: number) => JSON.stringify({ type: 'Feature', id: i, properties: { name: `p${i}` }, geometry: { type: 'Point', coordinates: [-73.9, 40.7] } });
    const seq = tempFile('p.geojsonl', Array.from({ length: 3000 }, (_, i) => feature(i)).join('\n'));
    expectComplete(await bytesReported(seq), seq);
    const doc = tempFile('p.geojson', `{"type":"FeatureCollection","features":[${Array.from({ length: 2500 }, (_, i) => feature(i)).join(',')}]}`);
    const seen = await bytesReported(doc);
    expectComplete(seen, doc);
    expect(seen.length).toBe(3); // every 1000 features and at the end
  });

  it.skipIf(!hasMidtown)(`OSM PBF, during the main pass${needs(MIDTOWN_PBF)}`, async () => {
    expectComplete(await bytesReported(MIDTOWN_PBF), MIDTOWN_PBF);
  }, 60_000);
});
