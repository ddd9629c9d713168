import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planOffline, type PlanOfflineOptions } from '../../../src/planning/offline-planner.ts';
import { DISTANCE_MAX_M, DISTANCE_MIN_M, K_MAX, SpatialPlanSchema, type SpatialPlan } from '../../../src/planning/plan.ts';

/** Pieces of questions, hostile text and odd numbers, recombined at random. */
const FRAGMENTS = [
  'Any cafés', 'within 250 m of', 'Grand Central Terminal', 'near', 'the', 'nearest', 'closest', 'two', 'to',
  'from', 'between', 'and', 'along', 'on', 'in', 'inside', 'at the corner of', 'Fifth Avenue', '42nd Street', 'Chelsea',
  "Manhattan's", 'Koreatown', 'a 5-minute walk', '3 blocks', 'half a mile', '1,500 m', '0 m', '-5 km', '999999999 km',
  '1e308 m', 'NaN m', 'Infinity km', '40.75, -73.98', '91.5, 200.3', '-0.0, -0.0', 'me', 'here', 'nearby', 'on the way',
  'open late', 'cheap', 'plant-based food', 'withdraw money', 'steak lunch', 'taverns or pubs', '?', '.', ',', '&', "'s", '"',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template placeholder sent as hostile text on purpose.
  "'; DROP TABLE places; --", 'SELECT * FROM pg_user', '1=1', '<script>alert(1)</script>', '${process.exit()}', '\\u0000',
  '🍕', '🗽', '👨‍👩‍👧', '\u202E', '\uD800', '\uDFFF', 'é', 'İ', 'ß', '附近', '最近的', '离', '从', '到', '之间', '沿着', '米以内',
  '八百米', '步行5分钟', '两家', '药店', '宾州车站', '的路上', '有哪些', '在', '里', '，', '？', '公里', '一点五', '半',
];

const question = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }).map((parts) => parts.join(' ')),
  fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }).map((parts) => parts.join('')),
);

const options: fc.Arbitrary<PlanOfflineOptions | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.record({ near: fc.record({ lon: fc.double({ min: -180, max: 180, noNaN: true }), lat: fc.double({ min: -90, max: 90, noNaN: true }) }) }),
  // Invalid positions and hostile hints must be ignored, not trusted.
  fc.record({ near: fc.record({ lon: fc.double(), lat: fc.double() }) }),
  fc.constant({
    gazetteerHint: () => {
      throw new Error('hint failure');
    },
  }),
  fc.constant({ gazetteerHint: ((t: string) => (t.length % 2 ? 'street' : 'not-a-kind')) as unknown as PlanOfflineOptions['gazetteerHint'] }),
  fc.constant({ gazetteerHint: () => 'city' as const }),
);

function checkBounded(plan: SpatialPlan): void {
  expect(SpatialPlanSchema.safeParse(plan).success).toBe(true);
  // The catch-all fallback keeps the contract, but reaching it means a grammar bug: fail on it here.
  expect(plan.notes.filter((n) => n.startsWith('internal'))).toEqual([]);
  expect(plan.constraints.length).toBeGreaterThan(0);
  for (const c of plan.constraints) {
    const d = c.fn === 'within_distance' ? c.distanceM : c.fn === 'along' || c.fn === 'between' ? c.bufferM : undefined;
    if (d !== undefined) {
      expect(Number.isFinite(d)).toBe(true);
      expect(d).toBeGreaterThanOrEqual(DISTANCE_MIN_M);
      expect(d).toBeLessThanOrEqual(DISTANCE_MAX_M);
    }
    if (c.fn === 'nearest') {
      expect(Number.isInteger(c.k)).toBe(true);
      expect(c.k).toBeGreaterThanOrEqual(1);
      expect(c.k).toBeLessThanOrEqual(K_MAX);
    }
  }
  expect(plan.confidence).toBeGreaterThanOrEqual(0);
  expect(plan.confidence).toBeLessThanOrEqual(1);
  for (const r of plan.references) {
    if (r.point) {
      expect(Math.abs(r.point.lon)).toBeLessThanOrEqual(180);
      expect(Math.abs(r.point.lat)).toBeLessThanOrEqual(90);
    }
  }
}

describe('planOffline on arbitrary input', () => {
  it('never throws and always returns a schema-valid, bounded plan', () => {
    fc.assert(
      fc.property(question, options, (q, opts) => {
        checkBounded(planOffline(q, opts));
      }),
      { numRuns: Number(process.env.PLANNER_FUZZ_RUNS ?? 600) },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(question, (q) => {
        expect(planOffline(q)).toEqual(planOffline(q));
      }),
      { numRuns: 100 },
    );
  });

  it('survives non-string input from untyped callers and very long input', () => {
    for (const bad of [undefined, null, 42, {}, [], Symbol('x')] as unknown[]) checkBounded(planOffline(bad as string));
    const started = Date.now();
    checkBounded(planOffline('cafés near Grand Central Terminal and '.repeat(5000)));
    checkBounded(planOffline('附近的药店'.repeat(5000)));
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
