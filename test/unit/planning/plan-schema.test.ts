import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DISTANCE_MAX_M, SpatialPlanSchema, type SpatialPlan } from '../../../src/planning/plan.ts';

const base: SpatialPlan = {
  references: [
    { id: 'r1', text: 'Old Library', kind: 'landmark' },
    { id: 'r2', text: 'Central Station', kind: 'landmark' },
  ],
  route: { from: 'r1', to: 'r2', via: 'straight' },
  targets: { text: 'coffee shops', concepts: ['cafe'], tags: [['amenity', ['cafe']]], categories: ['cafe'] },
  constraints: [{ fn: 'along', ref: 'route', bufferM: 200 }],
  semantic: { text: 'coffee shops', cues: [] },
  spatialText: 'from the Old Library to Central Station',
  preference: 'balanced',
  lang: 'en',
  confidence: 0.9,
  notes: [],
};

const issues = (p: unknown): string[] => {
  const r = SpatialPlanSchema.safeParse(p);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe('SpatialPlanSchema', () => {
  it('accepts a complete plan', () => {
    expect(issues(base)).toEqual([]);
  });

  it('rejects a constraint on an undeclared reference', () => {
    expect(issues({ ...base, constraints: [{ fn: 'inside', ref: 'r7' }] })).toEqual(['unknown reference r7']);
  });

  it('rejects the route line when there is no route', () => {
    const { route: _route, ...noRoute } = base;
    expect(issues(noRoute)).toEqual(['unknown reference route']);
  });

  it('rejects a route or a corridor from a place to itself', () => {
    expect(issues({ ...base, route: { from: 'r1', to: 'r1' } })).toContain('route needs two different references');
    expect(issues({ ...base, constraints: [{ fn: 'between', refs: ['r1', 'r1'], bufferM: 100 }] })).toContain('between needs two different references');
  });

  it('rejects duplicate reference ids', () => {
    expect(issues({ ...base, references: [base.references[0], { ...base.references[1], id: 'r1' }], route: undefined, constraints: [{ fn: 'inside', ref: 'r1' }] })).toEqual([
      'duplicate reference id r1',
    ]);
  });

  it('bounds every number', () => {
    expect(issues({ ...base, constraints: [{ fn: 'within_distance', ref: 'r1', distanceM: 0 }] })).not.toEqual([]);
    expect(issues({ ...base, constraints: [{ fn: 'within_distance', ref: 'r1', distanceM: DISTANCE_MAX_M + 1 }] })).not.toEqual([]);
    expect(issues({ ...base, constraints: [{ fn: 'within_distance', ref: 'r1', distanceM: Number.NaN }] })).not.toEqual([]);
    expect(issues({ ...base, constraints: [{ fn: 'nearest', ref: 'r1', k: 51 }] })).not.toEqual([]);
    expect(issues({ ...base, constraints: [{ fn: 'nearest', ref: 'r1', k: 1.5 }] })).not.toEqual([]);
    expect(issues({ ...base, confidence: 1.2 })).not.toEqual([]);
    expect(issues({ ...base, references: [{ id: 'r1', text: 'x', point: { lon: 200, lat: 0 } }, base.references[1]] })).not.toEqual([]);
  });

  it('converts to JSON Schema (OpenAPI documents and structured model output need it)', () => {
    const js = z.toJSONSchema(SpatialPlanSchema) as { properties: Record<string, unknown> };
    expect(Object.keys(js.properties)).toEqual(expect.arrayContaining(['references', 'constraints', 'targets', 'semantic', 'confidence']));
  });

  it('requires at least one constraint and a known function', () => {
    expect(issues({ ...base, constraints: [] })).not.toEqual([]);
    expect(issues({ ...base, constraints: [{ fn: 'drop_table', ref: 'r1' }] })).not.toEqual([]);
  });
});

describe('SpatialPlanSchema: negation and alternatives', () => {
  const withConstraints = (constraints: unknown[]) => ({ ...base, constraints });

  it('accepts a negation beside a positive constraint and a group of two alternatives', () => {
    const plan = withConstraints([
      { fn: 'within_distance', ref: 'r1', distanceM: 300, anyOf: 'g1' },
      { fn: 'within_distance', ref: 'r2', distanceM: 300, anyOf: 'g1' },
      { fn: 'inside', ref: 'r2', negated: true },
    ]);
    expect(issues(plan)).toEqual([]);
    expect(SpatialPlanSchema.parse(plan).constraints[2]).toMatchObject({ negated: true });
  });

  it('rejects negations alone, a lone alternative, a negated alternative, a negated nearest and a bad group id', () => {
    expect(issues(withConstraints([{ fn: 'inside', ref: 'r1', negated: true }]))).toContain('at least one constraint must not be negated');
    expect(issues(withConstraints([{ fn: 'inside', ref: 'r1', anyOf: 'g2' }]))).toContain('group g2 needs at least two alternatives');
    const negatedAlternative = [{ fn: 'inside', ref: 'r1' }, { fn: 'inside', ref: 'r2', negated: true, anyOf: 'g1' }, { fn: 'inside', ref: 'r1', anyOf: 'g1' }];
    expect(issues(withConstraints(negatedAlternative))).toContain('a negated constraint cannot be an alternative');
    const negatedNearest = [{ fn: 'inside', ref: 'r1' }, { fn: 'nearest', ref: 'r2', k: 1, negated: true }];
    expect(issues(withConstraints(negatedNearest))).toContain('nearest can be neither negated nor an alternative');
    expect(issues(withConstraints([{ fn: 'inside', ref: 'r1', anyOf: 'group' }])).length).toBeGreaterThan(0);
  });
});
