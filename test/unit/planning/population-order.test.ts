import { describe, expect, it } from 'vitest';
import { planOffline } from '../../../src/planning/offline-planner.ts';
import { findPopulationOrderEn, findPopulationOrderZh } from '../../../src/planning/population.ts';
import { constraintsOf } from './helpers.ts';

describe('population order: superlatives of size and population', () => {
  it('reads English superlatives by their morphology, with a count before or after', () => {
    expect(findPopulationOrderEn('the four biggest towns in canada')).toMatchObject({ direction: 'desc', k: 4, population: false });
    expect(findPopulationOrderEn('largest 3 cities of peru')).toMatchObject({ direction: 'desc', k: 3 });
    expect(findPopulationOrderEn('the least populous cities in norway')).toMatchObject({ direction: 'asc', population: true });
    expect(findPopulationOrderEn('the most populated towns near lima')).toMatchObject({ direction: 'desc', population: true });
    expect(findPopulationOrderEn('the smallest towns in chile')).toMatchObject({ direction: 'asc', population: false });
    expect(findPopulationOrderEn('cities in chile ranked by population')).toMatchObject({ direction: 'desc', population: true });
  });

  it('leaves other superlatives alone', () => {
    for (const q of ['the nearest bakery to the ferry building', 'the best pizza in soho', 'the quietest cafés west of the park', 'the most visited museums']) {
      expect(findPopulationOrderEn(q), q).toBeUndefined();
    }
  });

  it('reads Chinese 最 + size or 人口 ... 多/少, and a count before 大', () => {
    expect(findPopulationOrderZh('荷兰人口最多的三个城市')).toMatchObject({ direction: 'desc', k: 3, population: true });
    expect(findPopulationOrderZh('瑞士最小的城市有哪些')).toMatchObject({ direction: 'asc', population: false });
    expect(findPopulationOrderZh('印度五大城市')).toMatchObject({ direction: 'desc', k: 5 });
    expect(findPopulationOrderZh('离广州最近的城市')).toBeUndefined();
    expect(findPopulationOrderZh('附近的大城市')).toBeUndefined();
  });

  it('assumes the most populous first for settlements asked for only by the area that holds them', () => {
    expect(planOffline('what towns are there in Chile').order).toEqual({ by: 'population', direction: 'desc', assumed: true });
    expect(planOffline('智利的城市有哪些').order).toEqual({ by: 'population', direction: 'desc', assumed: true });
    // A distance orders them, and other kinds of place have no population to order by.
    expect(planOffline('towns within 30 km of Valparaíso').order).toBeUndefined();
    expect(planOffline('museums in Chile').order).toBeUndefined();
  });

  it('puts the order in the plan when it is said of settlements, k=1 for a singular kind', () => {
    const four = planOffline('the four biggest towns in Canada');
    expect(four.order).toEqual({ by: 'population', direction: 'desc', k: 4 });
    expect(constraintsOf(four)).toEqual(['inside(Canada)']);
    expect(four.semantic.text).not.toMatch(/biggest/);
    expect(planOffline('Which is the largest city of Peru?').order).toEqual({ by: 'population', direction: 'desc', k: 1 });
    expect(planOffline('the least populous cities within 80 km of Oslo').order).toEqual({ by: 'population', direction: 'asc' });
    // Size of a kind of place without a population is not a population order.
    expect(planOffline('the largest parks in Brooklyn').order).toBeUndefined();
  });

  it('reads the Chinese superlative with the place before it as its scope', () => {
    const three = planOffline('荷兰人口最多的三个城市');
    expect(three.order).toEqual({ by: 'population', direction: 'desc', k: 3 });
    expect(constraintsOf(three)).toEqual(['inside(荷兰)']);
    expect(planOffline('瑞士最小的城市有哪些').order).toEqual({ by: 'population', direction: 'asc' });
    expect(planOffline('加拿大最大的城市').order).toEqual({ by: 'population', direction: 'desc', k: 1 });
  });
});

describe('border: the outline of an area, never a place of that name', () => {
  it('reads a distance of the border of a place, its possessor, or the place another phrase names', () => {
    expect(constraintsOf(planOffline('towns within 40 km of the border of Hungary'))).toEqual(['border(Hungary, 40000)']);
    expect(constraintsOf(planOffline("cities within 15 km of Slovakia's border"))).toEqual(['border(Slovakia, 15000)']);
    const scoped = planOffline('cities in Belgium within 25 km of the boundary');
    expect(constraintsOf(scoped)).toEqual(['border(Belgium, 25000)', 'inside(Belgium)']);
    expect(scoped.references.map((r) => r.text)).toEqual(['Belgium']);
  });

  it('sizes "near the border" by the kind asked for, and "the border with X" is the border of X', () => {
    const near = planOffline('towns near the border of Slovenia');
    expect(constraintsOf(near)).toEqual(['border(Slovenia, 20000)']);
    expect(constraintsOf(planOffline('cities in Portugal close to the border with Spain'))).toEqual(['border(Spain, 20000)', 'inside(Portugal)']);
  });

  it('reads the Chinese border nouns, with a distance after them and a scope before them', () => {
    expect(constraintsOf(planOffline('靠近匈牙利边境40公里内的城市'))).toEqual(['border(匈牙利, 40000)']);
    expect(constraintsOf(planOffline('比利时境内距边界25公里以内的城市'))).toEqual(['border(比利时, 25000)', 'inside(比利时)']);
    expect(constraintsOf(planOffline('斯洛文尼亚边境附近的城市'))).toEqual(['border(斯洛文尼亚, 20000)']);
  });
});
