import { describe, expect, it } from 'vitest';
import { fromVectorLiteral, toVectorLiteral } from '../../../src/embedding/space.ts';

describe('toVectorLiteral', () => {
  it("prints pgvector's text form with 6 significant digits, zeros (also -0) as 0", () => {
    expect(toVectorLiteral([0, -0, 1, -1, 0.1234567, 1e-9, 123456789, -3.3e-7])).toBe('[0,0,1,-1,0.123457,1e-9,123457000,-3.3e-7]');
    expect(toVectorLiteral([])).toBe('[]');
  });

  it('prints each component as Number(v.toPrecision(6)) does', () => {
    const v = Array.from({ length: 384 }, (_, i) => (i % 7 ? 0 : Math.sin(i) / (i + 1)));
    expect(toVectorLiteral(v)).toBe(`[${v.map((x) => Number(x.toPrecision(6))).join(',')}]`);
  });

  it('reads back what it prints, to 6 significant digits', () => {
    const v = Array.from({ length: 384 }, (_, i) => (i % 5 ? 0 : Math.cos(i) * 3));
    const back = fromVectorLiteral(toVectorLiteral(v));
    expect(back.length).toBe(384);
    back.forEach((x, i) => expect(x).toBeCloseTo(v[i]!, 5));
  });
});
