/** Workflows: a concept's typical chain, and multi-step requests ranked per clause and merged. */
import type { Db } from '../../db/database.ts';
import type { Embedder } from '../../embedding/embedder.ts';
import { specificOutputs } from '../capability.ts';
import type { CatalogSnapshot } from '../catalog-cache.ts';
import { conceptInfo, productSatisfies } from '../knowledge/index.ts';
import type { ParsedRequest, SubTask } from '../request/index.ts';
import type { ToolRecord } from '../schema.ts';
import { composeWorkflow } from '../workflow.ts';
import { DIVERSITY, diversify } from './diversify.ts';
import { toHit } from './explain.ts';
import { needOf } from './need.ts';
import { rankForNeed } from './rank.ts';
import type { Need, PlanResult, RankOptions, Scored } from './types.ts';

/**
 * `candidate` makes nothing that `chosen` does not already make, in the same task type: an alternative,
 * not a further step (index:NDVI after ndvi; but speckle filtering after calibration is a step).
 */
function sameStep(chosen: ToolRecord, candidate: ToolRecord): boolean {
  if (chosen.id === candidate.id) return true;
  if (chosen.function !== candidate.function) return false;
  const made = specificOutputs(chosen);
  const makes = specificOutputs(candidate);
  return makes.length > 0 && makes.every((o) => made.some((p) => productSatisfies(p, o)));
}

/**
 * The chain of the strongest task concept that has one, ending at the step that makes what the concept
 * is about ("new construction" -> registration, building extraction, change classification).
 */
export function conceptChain(parsed: ParsedRequest, snapshot: CatalogSnapshot, main: ToolRecord): ToolRecord[] | undefined {
  const concept = [...parsed.concepts]
    .filter((c) => !c.negated && conceptInfo(c.id)?.chain?.length)
    .sort((a, b) => b.weight - a.weight)[0];
  const info = concept ? conceptInfo(concept.id) : undefined;
  if (!info?.chain) return undefined;
  const chain = info.chain.map((id) => snapshot.lookup(id)).filter((t): t is ToolRecord => !!t);
  const goal = info.products?.[0];
  const end = goal ? chain.findIndex((t) => t.outputs.some((o) => o.product && productSatisfies(o.product, goal))) : -1;
  const cut = end >= 0 ? chain.slice(0, end + 1) : chain;
  // The chain must be about the same task as the best-matching tool, else it is not this request's chain.
  if (!cut.some((t) => sameStep(t, main) || t.function === main.function)) return undefined;
  return cut.map((t) => (sameStep(t, main) ? main : t));
}

/**
 * Multi-step requests: each clause is ranked on its own and the whole request once more. The list is the
 * whole request's ranking fused with the clauses' (each by its share of its own best score), so a tool the
 * whole text matches is never lost to a clause that reads badly on its own ("I already have a raster"),
 * and then every step's best tool is placed within the top k, so no step of the chain goes missing.
 */
export async function multiStep(db: Db, embedder: Embedder, snapshot: CatalogSnapshot, parsed: ParsedRequest, options: RankOptions, k: number): Promise<PlanResult> {
  const wholeNeed = needOf(parsed, snapshot.lexical);
  const [whole, ...rankings] = await Promise.all([
    rankForNeed(db, embedder, snapshot, wholeNeed, options).then((ranked) => ({ need: wholeNeed, ranked })),
    ...parsed.subTasks.map(async (sub) => {
      const need = needOf(parsed, snapshot.lexical, sub);
      return { sub, need, ranked: await rankForNeed(db, embedder, snapshot, need, options) };
    }),
  ]);
  // One step per clause. When a clause's best tool is already a step ("detect and map floods"), the clause
  // only adds a step if a distinct tool fits it nearly as well.
  const chosen: { scored: Scored; sub: SubTask; need: Need }[] = [];
  for (const r of rankings) {
    const top = r.ranked[0];
    const pick = r.ranked.find((s) => !chosen.some((c) => sameStep(c.scored.tool, s.tool)));
    if (!top || !pick) continue;
    if (pick !== top && pick.score < 0.85 * top.score) continue;
    chosen.push({ scored: pick, sub: r.sub!, need: r.need });
  }
  const best = new Map<string, { s: Scored; need: Need; rel: number }>();
  const offer = (s: Scored, need: Need, rel: number) => {
    const current = best.get(s.tool.id);
    if (!current || rel > current.rel) best.set(s.tool.id, { s, need, rel });
  };
  const wholeTop = Math.max(1e-6, whole!.ranked[0]?.score ?? 1);
  for (const s of whole!.ranked) offer(s, whole!.need, s.score / wholeTop);
  for (const r of rankings) {
    const top = Math.max(1e-6, r.ranked[0]?.score ?? 1);
    for (const s of r.ranked) offer(s, r.need, CLAUSE_SHARE * (s.score / top));
  }
  const merged = [...best.values()].sort((a, b) => b.rel - a.rel || (a.s.tool.id < b.s.tool.id ? -1 : 1));
  const top = placeSteps(diversify(merged, (r) => r.s, k, DIVERSITY, (r) => r.rel), chosen.map((c) => c.scored.tool.id), k);
  const hits = top.map(({ s, need }) => toHit(s, parsed, snapshot, need));
  const relevance = new Map(merged.map((r) => [r.s.tool.id, r.rel]));
  const workflow = composeWorkflow(
    { steps: chosen.map((c) => ({ tool: c.scored.tool, why: `for "${c.sub.text}"` })), context: parsed.context },
    snapshot,
    { candidates: chosen.map((c) => c.scored.tool), relevance },
  );
  return { tools: hits, parsed, workflow };
}

/** How much a clause's own ranking counts against the whole request's (relative scores, 0..1). */
const CLAUSE_SHARE = 0.9;

/**
 * The first k of `ranked`, with the ids of `steps` among them: a step below the cut takes the place of
 * the last item that is not a step and not the first (the order of the rest is kept).
 */
export function placeSteps<T extends { s: { tool: { id: string } } }>(ranked: readonly T[], steps: readonly string[], k: number): T[] {
  const top = ranked.slice(0, k);
  const wanted = new Set(steps.slice(0, k));
  const missing = ranked.slice(k).filter((r) => wanted.has(r.s.tool.id));
  for (const step of missing) {
    // The best match for the whole request keeps its place, however many steps there are.
    let i = top.length - 1;
    while (i >= 1 && wanted.has(top[i]!.s.tool.id)) i--;
    if (i < 1) break;
    top.splice(i, 1);
    top.push(step);
  }
  return top;
}
