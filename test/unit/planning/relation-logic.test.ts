import { describe, expect, it } from 'vitest';
import { planOffline } from '../../../src/planning/offline-planner.ts';
import { constraintsOf } from './helpers.ts';

// Negation and alternatives in both grammars, with examples written for these tests.
describe('negation and alternatives in either language', () => {
  it.each([
    ['galleries not in the Flatiron District', ['within_distance(Flatiron District, 1000)', 'not inside(Flatiron District)']],
    ['wine bars outside of Hudson Yards', ['within_distance(Hudson Yards, 1000)', 'not inside(Hudson Yards)']],
    ['noodle shops that are not located in Koreatown', ['within_distance(Koreatown, 1000)', 'not inside(Koreatown)']],
    ['a quiet cafe far away from Columbus Circle', ['within_distance(Columbus Circle, 1500)', 'not within_distance(Columbus Circle, 500)']],
    ['pharmacies near Union Square or Madison Square Park', ['within_distance(Union Square, 500) [g1]', 'within_distance(Madison Square Park, 500) [g1]']],
    ['dumplings in Chinatown or in Little Italy', ['inside(Chinatown) [g1]', 'inside(Little Italy) [g1]']],
    ['bike shops within 200 m of Hudson Yards or the Vessel', ['within_distance(Hudson Yards, 200) [g1]', 'within_distance(Vessel, 200) [g1]']],
    ['熨斗区以外的画廊', ['within_distance(熨斗区, 1000)', 'not inside(熨斗区)']],
    ['不在中央公园里的餐馆', ['within_distance(中央公园, 1000)', 'not inside(中央公园)']],
    ['除了哥伦布圆环附近，哪里有安静的咖啡馆', ['within_distance(哥伦布圆环, 1500)', 'not within_distance(哥伦布圆环, 500)']],
    ['联合广场或者麦迪逊广场公园附近的药店', ['within_distance(联合广场, 500) [g1]', 'within_distance(麦迪逊广场公园, 500) [g1]']],
    ['在苏荷或翠贝卡的书店', ['inside(苏荷) [g1]', 'inside(翠贝卡) [g1]']],
  ])('%s', (q, expected) => {
    expect(constraintsOf(planOffline(q))).toEqual(expected);
  });
});

describe('negation (English)', () => {
  it('keeps a positive constraint first and negates only what the negation governs', () => {
    expect(constraintsOf(planOffline('delis within 400 m of the Flatiron Building but not in Union Square'))).toEqual([
      'within_distance(Flatiron Building, 400)',
      'not inside(Union Square)',
    ]);
    expect(constraintsOf(planOffline('ice cream near Union Square, except those in Gramercy'))).toEqual([
      'within_distance(Union Square, 500)',
      'not inside(Gramercy)',
    ]);
  });

  it('reads "not far (away) from X" as near X, and "just outside X" as next to it', () => {
    expect(constraintsOf(planOffline('tacos not far away from Columbus Circle'))).toEqual(['within_distance(Columbus Circle, 500)']);
    expect(constraintsOf(planOffline('a kiosk just outside Penn Station'))).toEqual(['within_distance(Penn Station, 100)']);
  });

  it('a negated group of places excludes each of them, searching around either', () => {
    expect(constraintsOf(planOffline('cinemas not in Chelsea or Midtown South'))).toEqual([
      'within_distance(Chelsea, 1000) [g1]',
      'within_distance(Midtown South, 1000) [g1]',
      'not inside(Chelsea)',
      'not inside(Midtown South)',
    ]);
  });

  it('puts the negation in the spatial text and a note on the default search', () => {
    const plan = planOffline('bagels not in Murray Hill');
    expect(plan.spatialText).toBe('not in Murray Hill');
    expect(plan.notes).toContain('only "not": searching within 1000 m of "Murray Hill"');
  });
});

describe('alternatives (English)', () => {
  it('does not take kinds of place after "or" for a second place', () => {
    expect(constraintsOf(planOffline('bakeries near Gramercy Park or cafes'))).toEqual(['within_distance(Gramercy Park, 500)']);
  });
});
