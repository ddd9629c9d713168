import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../eval/report.ts';
import type { SpatialSummary } from '../../eval/spatial.ts';

const summary = (both: number, n: number): SpatialSummary => ({ n, delivery: 0.9, spatial: 0.85, semantic: 0.8, both, precisionAt5: 0.7, recallAt5: 0.75, latencyMs: 10 });
const section = (set: string, both: number) => ({
  at: '2026-01-02T03:04:05Z',
  mode: 'embedded',
  embedder: 'e',
  set,
  overall: summary(both, 10),
  byLang: { en: summary(both, 6), zh: summary(both / 2, 4) },
  oracle: summary(1, 10),
});

describe('the report of spatial sets of our own', () => {
  it('shows each set with its languages and the oracle plan, tuning and check side by side', () => {
    const md = renderMarkdown({
      spatialSets: {
        'eval/sets/own.tuning.jsonl.gz': section('eval/sets/own.tuning.jsonl.gz', 0.875),
        'eval/sets/own.check.jsonl.gz': section('eval/sets/own.check.jsonl.gz', 0.795),
      },
    });
    expect(md).toContain("## Spatial QA on the project's own sets");
    expect(md).toContain('| own.check | 10 | 90.0% | 85.0% | 80.0% | 79.5% | 0.700 | 100.0% | 2026-01-02 |');
    expect(md).toContain('| own.tuning, zh | 4 | 90.0% | 85.0% | 80.0% | 43.8% | 0.700 | – | 2026-01-02 |');
    expect(md.indexOf('| own.check |')).toBeLessThan(md.indexOf('| own.tuning |'));
  });
});
