import type { BrandIndex } from './brands.ts';
import { planOffline } from './offline-planner.ts';
import type { LonLat, SpatialPlan } from './plan.ts';
import type { LlmPlanner } from './llm-planner.ts';
import { CallBudget } from '../llm/model.ts';

export type { LlmPlanner };
export type PlannerChoice = 'auto' | 'offline' | 'llm';

export interface PlannedQuestion {
  plan: SpatialPlan;
  planner: 'offline' | 'llm';
  /** Why the LLM planner was not used although asked for (failure, timeout, invalid plan, not configured). */
  fallbackReason?: string;
  llmCalls: number;
}

/** Picks the planner: the LLM when configured (auto) or asked for, the offline one otherwise or when the LLM fails. */
export async function planQuestion(
  question: string,
  options: {
    near?: LonLat;
    choice: PlannerChoice;
    llm?: LlmPlanner;
    brands?: BrandIndex;
    /** The question's model calls (shared with the reranker) and how many retries the planner may spend. */
    budget?: CallBudget;
    retries?: number;
  },
): Promise<PlannedQuestion> {
  const offline = () => planOffline(question, { near: options.near, ...(options.brands ? { brands: options.brands } : {}) });
  if (options.choice === 'offline' || (options.choice === 'auto' && !options.llm)) {
    return { plan: offline(), planner: 'offline', llmCalls: 0 };
  }
  if (!options.llm) {
    return { plan: offline(), planner: 'offline', fallbackReason: 'no language model is configured (LLM_BASE_URL)', llmCalls: 0 };
  }
  const budget = options.budget ?? new CallBudget(2);
  const before = budget.used;
  try {
    const plan = await options.llm.plan(question, options.near, { budget, retries: options.retries ?? 1 });
    return { plan, planner: 'llm', llmCalls: budget.used - before };
  } catch (error) {
    return { plan: offline(), planner: 'offline', fallbackReason: (error as Error).message, llmCalls: budget.used - before };
  }
}
