import { describe, expect, it } from 'vitest';
import { planOffline } from '../../../src/planning/offline-planner.ts';
import { constraintsOf } from './helpers.ts';

// Direction relations in both grammars, with examples written for these tests.
describe('direction constructions (English)', () => {
  it.each([
    ['bakeries north of the Morgan Library', 'direction(Morgan Library, north, 500)'],
    ['any ramen to the north-east of Union Square?', 'direction(Union Square, north_east, 500)'],
    ['a bookshop northwest of the Public Library', 'direction(Public Library, north_west, 500)'],
    ['tea rooms on the south side of Gramercy Park', 'direction(Gramercy Park, south, 500)'],
    ['florists just east of the Chrysler Building', 'direction(Chrysler Building, east, 500)'],
    ['pizza south west of Herald Square', 'direction(Herald Square, south_west, 500)'],
  ])('%s', (q, expected) => {
    expect(constraintsOf(planOffline(q))).toEqual([expected]);
  });

  it('takes a distance said before the direction, or a loose one after it', () => {
    expect(constraintsOf(planOffline('gyms 300 m west of Bryant Park'))).toEqual(['direction(Bryant Park, west, 300)']);
    expect(constraintsOf(planOffline('gyms west of Bryant Park within 250 m'))).toEqual(['direction(Bryant Park, west, 250)']);
  });

  it('sizes the sector of a street by the street radius', () => {
    expect(constraintsOf(planOffline('laundromats south of 23rd Street'))).toEqual(['direction(23rd Street, south, 200)']);
  });

  it('says what it assumed in the notes', () => {
    expect(planOffline('delis north of Grand Central').notes).toContain('north of "Grand Central" -> within 500 m');
  });

  it('keeps a part of a place ("in the north of X") and a district named by a side out of it', () => {
    expect(planOffline('pubs in the north of Queens').constraints.map((c) => c.fn)).not.toContain('direction');
    expect(planOffline('dentists in the Lower East Side of Manhattan').constraints.map((c) => c.fn)).not.toContain('direction');
  });
});

describe('direction constructions (Chinese)', () => {
  it.each([
    ['摩根图书馆以北的面包店', 'direction(摩根图书馆, north, 500)'],
    ['联合广场东北边有拉面店吗', 'direction(联合广场, north_east, 500)'],
    ['格拉梅西公园的南侧有哪些茶馆', 'direction(格拉梅西公园, south, 500)'],
    ['克莱斯勒大厦东面的花店', 'direction(克莱斯勒大厦, east, 500)'],
    ['先驱广场西南方向的披萨店', 'direction(先驱广场, south_west, 500)'],
  ])('%s', (q, expected) => {
    expect(constraintsOf(planOffline(q))).toEqual([expected]);
  });

  it('takes the distance of a direction', () => {
    expect(constraintsOf(planOffline('布莱恩公园以西300米内的健身房'))).toEqual(['direction(布莱恩公园, west, 300)']);
  });

  it('leaves a compass character that belongs to a name alone', () => {
    expect(planOffline('西村有哪些书店').constraints.map((c) => c.fn)).toEqual(['inside']);
  });
});
