/**
 * Runs the offline planner over the project's own spatial-QA questions (eval/sets/midtown-own.jsonl; the dev set
 * of ../shared/eval stays a measurement and is not used in tests) and PRINTS what it extracted, so a person can
 * eyeball it. It asserts only general properties (a place and a kind of place per question, a valid plan).
 * Set SPATIAL_QA_SET to run it on another file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planOffline } from '../../../src/planning/offline-planner.ts';
import { SpatialPlanSchema } from '../../../src/planning/plan.ts';
import { constraintsOf } from './helpers.ts';

const DEV_FILE = process.env.SPATIAL_QA_SET ?? resolve(process.cwd(), 'eval/sets/midtown-own.jsonl');

interface DevQuestion {
  id: string;
  question: string;
  type: string;
  spatial: { relation: string; distance_m: number | null; k: number | null };
}

const questions: DevQuestion[] = existsSync(DEV_FILE)
  ? readFileSync(DEV_FILE, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as DevQuestion)
  : [];

describe.skipIf(questions.length === 0)(
  `offline planner on the project's own questions${questions.length ? '' : ` (skipped: ${DEV_FILE} is missing)`}`,
  () => {
  it('extracts a place and a kind of place from every question (printed for review)', () => {
    const rows: string[] = [];
    let sameRelation = 0;
    let named = 0;
    let targeted = 0;
    let sameValue = 0;
    for (const q of questions) {
      const plan = planOffline(q.question);
      expect(SpatialPlanSchema.safeParse(plan).success, q.id).toBe(true);
      if (plan.references.some((r) => r.kind !== 'coordinates')) named++;
      if (plan.targets.concepts.length > 0) targeted++;

      // Printed, not asserted: how the plan compares with the annotation.
      const first = plan.constraints[0]!;
      if (first.fn === q.spatial.relation) sameRelation++;
      const value = first.fn === 'within_distance' ? first.distanceM : first.fn === 'along' ? first.bufferM : first.fn === 'nearest' ? first.k : null;
      if (value === (q.spatial.distance_m ?? q.spatial.k)) sameValue++;
      rows.push(
        [
          `${q.id} [${q.type}] ${q.question}`,
          `    refs:    ${plan.references.map((r) => `${r.id}=${r.text}${r.kind ? ` (${r.kind})` : ''}${r.context ? ` {${r.context}}` : ''}`).join('; ')}${plan.route ? `  route ${plan.route.from}->${plan.route.to}` : ''}`,
          `    constr:  ${constraintsOf(plan).join(' AND ')}    (annotated: ${q.spatial.relation} ${q.spatial.distance_m ?? q.spatial.k ?? ''})`,
          `    targets: ${plan.targets.concepts.join(', ')}  "${plan.targets.text}"  tags=${JSON.stringify(plan.targets.tags)}`,
          `    semantic: "${plan.semantic.text}" cues=[${plan.semantic.cues.join(', ')}]  pref=${plan.preference}  conf=${plan.confidence}`,
        ].join('\n'),
      );
    }
    // Every question names a place and a kind of place; a few may still be beyond the offline planner.
    expect(named / questions.length).toBeGreaterThanOrEqual(0.9);
    expect(targeted / questions.length).toBeGreaterThanOrEqual(0.9);
    console.log(`${rows.join('\n')}\n\nfirst constraint has the annotated relation: ${sameRelation}/${questions.length}; same distance/k: ${sameValue}/${questions.length}`);
  });
  },
);
