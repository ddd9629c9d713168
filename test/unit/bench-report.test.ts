import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderPerformanceDoc } from '../../bench/report.ts';

describe('docs/performance.md, rendered from bench/results.json', () => {
  it('is what the results render to (regenerate with `npm run bench -- report`)', () => {
    const results = JSON.parse(readFileSync(new URL('../../bench/results.json', import.meta.url), 'utf8'));
    const page = readFileSync(new URL('../../docs/performance.md', import.meta.url), 'utf8');
    expect(page).toBe(renderPerformanceDoc(results));
  });

  it('puts each benchmark in its table and leaves out the ones never run', () => {
    const page = renderPerformanceDoc({
      startup: { coldStartMs: 41_500, warmStartMs: 7_250, firstRunSeededMs: 52_250, warmStartSeededMs: 8_000, measuredAt: '2026-01-02T03:04:05.000Z' },
      'ingest:server': { mode: 'server', file: 'x.osm.pbf', features: 1200, runs: 3, featuresPerSecond: { median: 9876, min: 9000, max: 9999 }, ms: { median: 4321 }, peakRssMB: { median: 300 } },
      'scale:server:1m': { mode: 'server', measuredAt: '2026-01-02T00:00:00Z', runs: [{ size: 1_000_000, places: { vectors: 5 }, ingest: { featuresPerSecond: 12345, ms: 81_000 }, ask: { answeredMs: { p50: 6.5, p95: 20.25 } }, raw: { answeredMs: { p50: 5, p95: 21 }, overheadRatioP50: 1.3 } }] },
    });
    expect(page).toContain('| cold (new data directory: initdb, extensions, migrations; SEED=none) | 41.5 | 2026-01-02 03:04 |');
    expect(page).toContain('| first run of a fresh clone (default SEED: the seed sets of seed/, target ≤ 60 s) | 52.3 | 2026-01-02 03:04 |');
    expect(page).toContain('**9,876** (9,000–9,999), 3 runs');
    expect(page).toContain('| 1,000,000, server | 5 | 12,345 (81.0 s) | **6.5 / 20.3** |');
    expect(page).not.toContain('## Soak');
    expect(page).not.toContain('## HTTP load');
  });
});
