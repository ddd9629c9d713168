import { describe, expect, it } from 'vitest';
import { ConstraintSchema } from '../../../src/planning/plan.ts';
import { along } from '../../../src/spatial/functions/along.ts';
import { between } from '../../../src/spatial/functions/between.ts';
import { SPATIAL_FUNCTIONS, type SpatialFunctionTable } from '../../../src/spatial/functions/index.ts';
import { inside } from '../../../src/spatial/functions/inside.ts';
import { intersects } from '../../../src/spatial/functions/intersects.ts';
import { nearest } from '../../../src/spatial/functions/nearest.ts';
import { withinDistance } from '../../../src/spatial/functions/within-distance.ts';

// `npm run typecheck` checks this file: the table's type demands a spec for every function of the plan
// schema. If the directive below stops being an error (the table no longer demands every function), the
// typecheck fails on the unused directive.
// @ts-expect-error the direction function has no spec in this table
const missingOne: SpatialFunctionTable = { within_distance: withinDistance, inside, along, nearest, between, intersects };

describe('the table of spatial functions', () => {
  it('holds one spec per function of the plan schema, each under its own name', () => {
    const schemaFunctions = ConstraintSchema.options.map((o) => o.shape.fn.value).sort();
    expect(Object.keys(SPATIAL_FUNCTIONS).sort()).toEqual(schemaFunctions);
    for (const [name, spec] of Object.entries(SPATIAL_FUNCTIONS)) expect(spec.fn).toBe(name);
    expect(Object.keys(missingOne)).not.toContain('direction');
  });

  it('labels every function in English and Chinese, with the placeholders the answers fill', () => {
    for (const spec of Object.values(SPATIAL_FUNCTIONS)) {
      for (const lang of ['en', 'zh'] as const) {
        expect(spec.labels[lang].area.length).toBeGreaterThan(0);
        expect(spec.labels[lang].place).toContain('{ref}');
      }
    }
  });
});
