import { describe, expect, it } from 'vitest';
import { placeSteps } from '../../../src/tools/search/chain.ts';
import { diversify } from '../../../src/tools/search/diversify.ts';
import type { Scored } from '../../../src/tools/search/types.ts';

/** A candidate with only what the reordering reads: its score and the request words it matches. */
function candidate(id: string, score: number, aspects: Record<string, number>): Scored {
  return { tool: { id }, score, aspects: new Map(Object.entries(aspects)) } as unknown as Scored;
}

const ids = (list: readonly Scored[]) => list.map((s) => s.tool.id);

describe('diversified top of the list', () => {
  // "compute the index for every date, then chart it": three near-equivalent index tools outscore the
  // chart, which alone answers the second part.
  const ranked = [
    candidate('index_a', 1.0, { index: 2, date: 1 }),
    candidate('index_b', 0.95, { index: 2, date: 1 }),
    candidate('index_c', 0.9, { index: 2 }),
    candidate('chart', 0.7, { chart: 2 }),
    candidate('other', 0.2, {}),
  ];

  it('gives a place in the first k to the candidate that answers another part of the request', () => {
    expect(ids(diversify(ranked, (s) => s, 3, 0.4))).toEqual(['index_a', 'chart', 'index_b', 'index_c', 'other']);
  });

  it('keeps the best candidate first and changes nothing at strength 0', () => {
    expect(ids(diversify(ranked, (s) => s, 3, 0))).toEqual(ids(ranked));
    for (const strength of [0.2, 0.4, 0.8]) expect(diversify(ranked, (s) => s, 3, strength)[0]!.tool.id).toBe('index_a');
  });

  it('leaves candidates that match the same words in their order', () => {
    const same = [candidate('a', 1, { x: 1 }), candidate('b', 0.8, { x: 1 }), candidate('c', 0.6, { x: 1 })];
    expect(ids(diversify(same, (s) => s, 3, 0.4))).toEqual(['a', 'b', 'c']);
  });
});

describe('steps placed in the first k of a multi-step request', () => {
  const item = (id: string) => ({ s: { tool: { id } } });
  it('moves steps below the cut into the first k, and never displaces the best match', () => {
    const ranked = ['best', 'x', 'y', 's1', 's2', 's3'].map(item);
    expect(placeSteps(ranked, ['s1'], 3).map((r) => r.s.tool.id)).toEqual(['best', 'x', 's1']);
    expect(placeSteps(ranked, ['s1', 's2', 's3'], 3).map((r) => r.s.tool.id)).toEqual(['best', 's1', 's2']);
  });
});
