import { describe, expect, it } from 'vitest';
import { inStepOrder, placeSteps } from '../../../src/tools/search/chain.ts';

const item = (id: string) => ({ s: { tool: { id } } });
const ids = (list: readonly { s: { tool: { id: string } } }[]) => list.map((r) => r.s.tool.id);

describe('steps of a multi-step request in the ranked list', () => {
  it('keeps the places the steps earned but puts them in the order the work is done', () => {
    const ranked = ['clip', 'other', 'load', 'save', 'another'].map(item);
    expect(ids(inStepOrder(ranked, ['load', 'clip', 'save']))).toEqual(['load', 'other', 'clip', 'save', 'another']);
  });

  it('brings a step from below the cut into the top k, in its order', () => {
    const ranked = ['mask', 'a', 'b', 'c', 'correct'].map(item);
    expect(ids(placeSteps(ranked, ['correct', 'mask'], 3))).toEqual(['correct', 'a', 'mask']);
  });

  it('leaves a list without steps as it is', () => {
    const ranked = ['a', 'b', 'c'].map(item);
    expect(ids(inStepOrder(ranked, []))).toEqual(['a', 'b', 'c']);
  });
});
