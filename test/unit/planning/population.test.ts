import { describe, expect, it } from 'vitest';
import { planOffline } from '../../../src/planning/offline-planner.ts';
import { minPopulation } from '../../../src/planning/population.ts';

describe('population words', () => {
  it('reads a smallest population in English and Chinese', () => {
    expect(minPopulation('towns in Spain with more than 200,000 residents')).toBe(200_000);
    expect(minPopulation('cities in Brazil with over two million inhabitants')).toBe(2_000_000);
    expect(minPopulation('cities near Osaka with a population of at least 300k')).toBe(300_000);
    expect(minPopulation('人口超过50万的城市')).toBe(500_000);
    expect(minPopulation('人口超过1.5亿')).toBe(150_000_000);
  });

  it('leaves questions without one alone', () => {
    expect(minPopulation('cafés within 200 m of the Ferry Building')).toBeUndefined();
    expect(minPopulation('more than 5 km from the station')).toBeUndefined();
  });

  it('puts it in the plan', () => {
    const plan = planOffline('cities in Italy with more than half a million people');
    expect(plan.minPopulation).toBe(500_000);
    expect(plan.constraints).toEqual([{ fn: 'inside', ref: 'r1' }]);
    expect(planOffline('bakeries near the Ferry Building').minPopulation).toBeUndefined();
  });
});
