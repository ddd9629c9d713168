/**
 * Drift monitor: re-runs a stored set of standard queries (sets/tool-check-queries.json) against the registry and
 * compares with the last stored result. Registrations, catalog imports, knowledge-graph edits or weight
 * changes that make a standard query worse are reported as drops.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Db } from '../src/db/database.ts';
import type { Embedder } from '../src/embedding/embedder.ts';
import { countTools } from '../src/tools/repository.ts';
import { searchTools } from '../src/tools/search/index.ts';

const QueryFileSchema = z.object({
  about: z.string().optional(),
  queries: z.array(
    z.strictObject({
      id: z.string().min(1),
      query: z.string().min(1),
      context: z.strictObject({ dataSource: z.string().optional(), processingLevel: z.string().optional(), available: z.array(z.string()).optional() }).optional(),
      expect: z.array(z.string().min(1)).min(1),
      missing: z.array(z.string().min(1)).optional(),
    }),
  ),
});

export type CheckQuery = z.infer<typeof QueryFileSchema>['queries'][number];

export const DEFAULT_CHECK_QUERIES = new URL('./sets/tool-check-queries.json', import.meta.url);

export function loadCheckQueries(path: string | URL = DEFAULT_CHECK_QUERIES): CheckQuery[] {
  return QueryFileSchema.parse(JSON.parse(readFileSync(path, 'utf8'))).queries;
}

export interface CheckResult {
  id: string;
  /** 1-based rank of the first expected id in the top 10, or null. */
  rank: number | null;
  /** The top tool flags every expected missing prerequisite (undefined when none is expected). */
  missingOk?: boolean;
  top: string[];
}

export interface CheckReport {
  at: string;
  embeddingModel: string;
  tools: number;
  summary: { hit1: number; mrr10: number; missingOk: number; n: number };
  queries: CheckResult[];
}

export async function runToolCheck(db: Db, embedder: Embedder, queries: readonly CheckQuery[]): Promise<CheckReport> {
  const results: CheckResult[] = [];
  for (const q of queries) {
    const answer = await searchTools(db, embedder, { query: q.query, k: 10, ...(q.context ? { context: q.context } : {}) });
    const ids = answer.tools.map((t) => t.id);
    const index = ids.findIndex((id) => q.expect.includes(id));
    const result: CheckResult = { id: q.id, rank: index >= 0 ? index + 1 : null, top: ids.slice(0, 5) };
    if (q.missing) result.missingOk = q.missing.every((m) => answer.tools[0]?.missingPrerequisites.includes(m));
    results.push(result);
  }
  const withMissing = results.filter((r) => r.missingOk !== undefined);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    at: new Date().toISOString(),
    embeddingModel: embedder.model,
    tools: await countTools(db),
    summary: {
      hit1: round(results.filter((r) => r.rank === 1).length / Math.max(1, results.length)),
      mrr10: round(results.reduce((s, r) => s + (r.rank ? 1 / r.rank : 0), 0) / Math.max(1, results.length)),
      missingOk: round(withMissing.filter((r) => r.missingOk).length / Math.max(1, withMissing.length)),
      n: results.length,
    },
    queries: results,
  };
}

/** Queries that got worse than in `previous` (a lower rank, lost from the top 10, a lost missing flag). */
export function checkDrops(previous: CheckReport, current: CheckReport): string[] {
  const drops: string[] = [];
  const before = new Map(previous.queries.map((q) => [q.id, q]));
  for (const now of current.queries) {
    const then = before.get(now.id);
    if (!then) continue;
    const rr = (r: CheckResult) => (r.rank ? 1 / r.rank : 0);
    if (rr(now) < rr(then)) drops.push(`${now.id}: expected tool at rank ${then.rank ?? '-'} before, ${now.rank ?? 'not in the top 10'} now (top: ${now.top.join(', ')})`);
    if (then.missingOk === true && now.missingOk === false) drops.push(`${now.id}: the missing prerequisites are no longer flagged`);
  }
  return drops;
}
