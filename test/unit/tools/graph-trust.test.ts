import { describe, expect, it } from 'vitest';
import { GRAPH_TRUST_FLOOR, graphTrust } from '../../../src/tools/search/rank.ts';

describe('trust in the graph readings of a request', () => {
  it('is full when the readings cover the request and falls to the floor as they cover less', () => {
    expect(graphTrust(1)).toBe(1);
    expect(graphTrust(0)).toBe(GRAPH_TRUST_FLOOR);
    expect(graphTrust(0.5)).toBeGreaterThan(graphTrust(0.2));
    expect(graphTrust(0.5)).toBeLessThan(1);
  });

  it('stays within the floor and one for any coverage value', () => {
    expect(graphTrust(-1)).toBe(GRAPH_TRUST_FLOOR);
    expect(graphTrust(2)).toBe(1);
  });
});
