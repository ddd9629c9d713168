import type { SpatialPlan } from '../planning/plan.ts';
import type { RankedCandidate } from '../ranking/rank.ts';
import { placeLabel } from '../spatial/functions/labels.ts';
import type { ResolvedReference } from '../spatial/resolve.ts';

function distanceText(m: number, lang: 'en' | 'zh'): string {
  const rounded = m < 1000 ? `${Math.round(m / 5) * 5} m` : `${(m / 1000).toFixed(1)} km`;
  return lang === 'zh' ? rounded.replace(' m', '米').replace(' km', '公里') : rounded;
}

/** Why a candidate is here, in words: its kind, where it is relative to the reference, what matched. */
export function explainCandidate(c: RankedCandidate, plan: SpatialPlan, refs: ResolvedReference[], tags: Record<string, string>): string {
  // distanceM is measured to the first constraint's geometry: name that one (a reference, or the route).
  const first = plan.constraints[0];
  const ref = first && 'ref' in first ? refs.find((r) => r.id === first.ref) : undefined;
  const from = ref ? (ref.match?.name ?? ref.text) : first ? 'the route' : undefined;
  const parts = [c.category ? c.category.replace(/_/g, ' ') : 'place'];
  if (first && from) {
    // Said as its function says it when the candidate satisfies it ("inside X"), else by the distance.
    const distance = distanceText(c.distanceM, 'en');
    parts.push(c.satisfied[0] ? placeLabel(first, 'en', { distance, ref: from }) : `${distance} from ${from}`);
  }
  if (!c.satisfied.every(Boolean)) parts.push('just outside the requested area');
  if (c.tagMatch && plan.targets.text) parts.push(`matches "${plan.targets.text}"`);
  for (const key of ['cuisine', 'diet:vegan', 'opening_hours']) if (tags[key]) parts.push(`${key}=${tags[key]}`);
  if (c.pareto) parts.push('on the Pareto front of spatial vs semantic fit');
  return parts.join('; ');
}

/** What the language model said when it ordered the answer (only reasons that passed the checks). */
export interface RankingWords {
  reasons?: ReadonlyMap<number, string>;
  tradeOffReason?: string;
}

/** The short natural-language answer: names the top choices and why (the model's reasons when it ranked them). */
export function composeAnswer(plan: SpatialPlan, ranked: RankedCandidate[], refs: ResolvedReference[], ranking: RankingWords = {}): string {
  const where = plan.spatialText || refs.map((r) => r.match?.name ?? r.text).join(' / ');
  const what = plan.targets.text || (plan.lang === 'zh' ? '地点' : 'places');
  if (ranked.length === 0) {
    return plan.lang === 'zh' ? `没有找到符合条件的${what}（${where}）。` : `I found no ${what} ${where}.`;
  }
  const top = ranked.slice(0, 3);
  const reason = (c: RankedCandidate) => ranking.reasons?.get(c.id);
  if (plan.lang === 'zh') {
    const list = top.map((c) => `${c.name}（${distanceText(c.distanceM, 'zh')}${reason(c) ? `；${reason(c)}` : ''}）`).join('、');
    const why = ranking.tradeOffReason ? ` 排序：${ranking.tradeOffReason}` : '';
    return `${where}：${list}${ranked.length > 3 ? ` 等 ${ranked.length} 处` : ''}。${why}`;
  }
  const list = top
    .map((c, i) => `${i + 1}. ${c.name} (${c.category?.replace(/_/g, ' ') ?? 'place'}, ${distanceText(c.distanceM, 'en')} away${reason(c) ? `: ${reason(c)}` : ''})`)
    .join('; ');
  const more = ranked.length > 3 ? ` — ${ranked.length} matches in all.` : '.';
  const why = ranking.tradeOffReason ? ` Ranked for this question: ${ranking.tradeOffReason}` : '';
  return `For ${what} ${where}: ${list}${more}${why}`;
}
