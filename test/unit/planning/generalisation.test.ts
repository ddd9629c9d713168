import { describe, expect, it } from 'vitest';
import { planOffline } from '../../../src/planning/offline-planner.ts';
import { typoBudget, typoDistance } from '../../../src/planning/typos.ts';

const refs = (q: string) => planOffline(q).references.map((r) => r.text);
const constraint = (q: string) => planOffline(q).constraints[0];

describe('typo correction of kinds of place', () => {
  it('measures typos with transpositions and budgets them by length', () => {
    expect(typoDistance('bakrey', 'bakery', 2)).toBe(1);
    expect(typoDistance('librery', 'library', 2)).toBe(1);
    expect(typoDistance('abc', 'xyz', 1)).toBe(2);
    expect([3, 4, 5, 7, 8, 12].map(typoBudget)).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it.each([
    ['any librarys around Tudor City?', 'library'],
    ['a good bakrey in Kips Bay', 'bakery'],
    ['museuems within 1 km of Columbus Circle', 'museum'],
    ['hotells near Lincoln Center', 'hotel'],
  ])('%s -> %s, and the plan says what it read', (q, concept) => {
    const p = planOffline(q);
    expect(p.targets.concepts).toContain(concept);
    expect(p.notes.some((n) => n.includes('(spelling)'))).toBe(true);
  });

  it('leaves real words alone', () => {
    expect(planOffline('where can I buy a model train around Tudor City').targets.concepts).not.toContain('nature_reserve');
  });
});

describe('constructions around the reference', () => {
  it('reads "no more than N minutes from X" as an upper bound around X', () => {
    expect(constraint('no more than a seven minute walk from Columbus Circle, any bakeries?')).toEqual({ fn: 'within_distance', ref: 'r1', distanceM: 560 });
    expect(refs('no more than a seven minute walk from Columbus Circle, any bakeries?')).toEqual(['Columbus Circle']);
    expect(constraint('not farther than 250 m from Lincoln Center: a florist?')).toMatchObject({ fn: 'within_distance', distanceM: 250 });
  });

  it('reads "in the vicinity / neighbourhood of X" as near X, not near the asker', () => {
    for (const q of ['In the vicinity of Lincoln Center, are there any wine shops?', 'tea rooms in the neighbourhood of Tudor City']) {
      const p = planOffline(q);
      expect(p.references[0]).toMatchObject({ kind: expect.not.stringMatching('coordinates') });
      expect(p.references[0]!.text).toMatch(/Lincoln Center|Tudor City/);
    }
  });

  it('never takes the kind word inside a name as the target', () => {
    const p = planOffline('Any wine bars near the Museum of the City of New York?');
    expect(p.targets.concepts).toEqual(['bar']);
    const q = planOffline('pizza close to the Lincoln Center Library');
    expect(q.targets.concepts).toEqual(['pizza']);
  });
});

describe('Chinese constructions around the reference', () => {
  it('"我在X，附近…" is near X, not the asker’s unknown position', () => {
    const p = planOffline('我在林肯中心，附近有什么面包店');
    expect(p.references.map((r) => r.text)).toEqual(['林肯中心']);
    expect(p.constraints).toEqual([{ fn: 'within_distance', ref: 'r1', distanceM: 500 }]);
  });
  it('a bare 附近 still means the asker when no place is named', () => {
    expect(planOffline('附近有面包店吗').references[0]).toMatchObject({ kind: 'coordinates' });
  });
  it('X沿线 takes the whole street, not the character after 沿', () => {
    const p = planOffline('第三大道沿线的花店');
    expect(p.references.map((r) => r.text)).toEqual(['第三大道']);
    expect(p.constraints[0]).toMatchObject({ fn: 'along' });
  });
  it('reads Chinese distances by the same grammar', () => {
    expect(planOffline('林肯中心步行八分钟以内的花店').constraints[0]).toMatchObject({ fn: 'within_distance', distanceM: 640 });
    expect(planOffline('离林肯中心1.2公里以内的书店').constraints[0]).toMatchObject({ fn: 'within_distance', distanceM: 1200 });
  });
});

describe('a side of a place keeps the place, as a direction from it', () => {
  it.each([
    ['wine bars south of Lincoln Center', 'Lincoln Center', 'south'],
    ['bakeries on the west side of Tompkins Square Park', 'Tompkins Square Park', 'west'],
    ['林肯中心以南的酒吧', '林肯中心', 'south'],
    ['林肯中心往西走五分钟的面包店', '林肯中心', 'west'],
  ])('%s', (q, ref, bearing) => {
    const p = planOffline(q);
    expect(p.references.map((r) => r.text)).toEqual([ref]);
    expect(p.constraints[0]).toMatchObject({ fn: 'direction', bearing });
  });
});

describe('a direction character inside a transliterated name is part of the name', () => {
  it('keeps 西 in a name such as 威斯敏斯特西 or 切西', () => {
    expect(planOffline('格林西有哪些书店').references.map((r) => r.text)).toEqual(['格林西']);
  });
});

describe('Chinese words around a place name', () => {
  it.each([
    ['林肯中心这块有哪些书店', '林肯中心'],
    ['中央公园那片的咖啡馆', '中央公园'],
  ])('%s: the place is %s', (q, place) => {
    expect(refs(q)).toEqual([place]);
  });

  it('reads a Latin name with a district suffix as that district', () => {
    const p = planOffline('SoHo区的书店');
    expect(p.references.map((r) => [r.text, r.kind])).toEqual([['SoHo', 'area']]);
    expect(p.constraints[0]!.fn).toBe('inside');
  });
});
