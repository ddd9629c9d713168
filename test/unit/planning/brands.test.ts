import { describe, expect, it } from 'vitest';
import { buildBrandIndex } from '../../../src/planning/brands.ts';
import { planOffline } from '../../../src/planning/offline-planner.ts';

const brands = buildBrandIndex(
  [
    { brand: 'Walgreens Pharmacy', names: ['Walgreens Pharmacy', 'Walgreens'], zh: [] },
    { brand: 'Target', names: ['Target'], zh: [] },
    { brand: 'Peet’s Coffee', names: ["Peet's Coffee"], zh: ['皮爷咖啡'] },
  ],
  (w) => w === 'target',
);

describe('brand names from the data as kinds of place', () => {
  it('matches a brand, also without its generic tail, and targets its brand and name tags', () => {
    const p = planOffline('is there a Walgreens near Lincoln Center?', { brands });
    expect(p.targets.concepts).toEqual(['brand:Walgreens Pharmacy']);
    expect(p.targets.tags).toEqual([['brand', ['Walgreens Pharmacy']], ['name', ['Walgreens Pharmacy', 'Walgreens']]]);
    expect(p.references.map((r) => r.text)).toEqual(['Lincoln Center']);
  });

  it('needs a capital for a brand that is an everyday word', () => {
    expect(planOffline('any Target around Tudor City', { brands }).targets.concepts).toEqual(['brand:Target']);
    expect(planOffline('my target is a bakery near Tudor City', { brands }).targets.concepts).toEqual(['bakery']);
  });

  it('matches a Chinese brand tag', () => {
    expect(planOffline('林肯中心附近的皮爷咖啡', { brands }).targets.concepts).toEqual(['brand:Peet’s Coffee']);
  });

  it('leaves questions without a brand to the lexicons', () => {
    expect(planOffline('pharmacies near Lincoln Center', { brands }).targets.concepts).toEqual(['pharmacy']);
  });
});

describe('brands glossed from Chinese', () => {
  it('does not read an everyday Chinese word as a brand through its English sense', () => {
    const everyday = buildBrandIndex([{ brand: 'Think Coffee', names: ['Think Coffee'] }], (w) => w === 'think');
    expect(planOffline('林肯中心附近想喝咖啡', { brands: everyday }).targets.concepts).toEqual(['cafe']);
  });
});
