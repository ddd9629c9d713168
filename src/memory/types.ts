import type { z } from '@hono/zod-openapi';
import type { runBody, stepSchema } from './memory.routes.ts';

/** A finished run as reported by a client (POST /v1/runs), as the route's schema checks it. */
export type RunInput = z.infer<typeof runBody>;
export type RunStep = z.infer<typeof stepSchema>;

/** Limits of the safety gate (a run outside them is stored, rejected, with the reason). */
export const GATE_LIMITS = {
  maxSteps: 20,
  maxRepeatsPerTool: 3,
  requestChars: 1000,
  answerChars: 4000,
  errorChars: 1000,
  noteChars: 1000,
  parametersChars: 2000,
  contextChars: 4000,
  /** Failures accepted per client and task type within a day: beyond it, failures count no more. */
  failuresPerClientPerDay: 10,
};

/** Order-preserving compression: consecutive repeats of a step collapse into one. */
export function compressSequence(ids: readonly string[]): string[] {
  const out: string[] = [];
  for (const id of ids) if (out[out.length - 1] !== id) out.push(id);
  return out;
}

/** The tool sequence a run evidences: the successful steps of a success, every step of a failure. */
export function effectiveSequence(run: Pick<RunInput, 'steps' | 'outcome'>): string[] {
  const steps = run.outcome === 'success' ? run.steps.filter((s) => s.outcome === 'success') : run.steps;
  return compressSequence(steps.map((s) => s.toolId));
}

/** Reliability of a piece of evidence: Laplace-smoothed success rate. */
export function reliability(successes: number, failures: number): number {
  return (successes + 1) / (successes + failures + 2);
}
