import { hasTargets, type Constraint, type SpatialPlan } from '../planning/plan.ts';
import type { RankedCandidate } from '../ranking/rank.ts';
import { negatedPlaceLabel, placeLabel } from '../spatial/functions/labels.ts';
import { clausesOf } from '../spatial/functions/logic.ts';
import type { ResolvedReference } from '../spatial/resolve.ts';
import { normalizeName } from '../spatial/names.ts';

function distanceText(m: number, lang: 'en' | 'zh'): string {
  const rounded = m < 1000 ? `${Math.round(m / 5) * 5} m` : `${(m / 1000).toFixed(1)} km`;
  return lang === 'zh' ? rounded.replace(' m', '米').replace(' km', '公里') : rounded;
}

/** Why a candidate is here, in words: its kind, where it is relative to the reference, what matched. */
export function explainCandidate(c: RankedCandidate, plan: SpatialPlan, refs: ResolvedReference[], tags: Record<string, string>): string {
  // distanceM is measured to the first clause that holds positively (its nearest alternative): name that one.
  const clauses = clausesOf(plan.constraints);
  const firstClause = clauses.find((k) => !k.negated);
  const at = firstClause ? firstClause.members.reduce((best, j) => ((c.distances[j] ?? 0) < (c.distances[best] ?? 0) ? j : best)) : 0;
  const first = plan.constraints[at];
  const nameOf = (k: Constraint): string | undefined => {
    const ref = 'ref' in k ? refs.find((r) => r.id === k.ref) : undefined;
    return ref ? (ref.match?.name ?? ref.text) : 'the route';
  };
  const from = first ? nameOf(first) : undefined;
  const parts = [c.category ? c.category.replace(/_/g, ' ') : 'place'];
  if (first && from) {
    // Said as its function says it when the candidate satisfies it ("inside X"), else by the distance.
    const distance = distanceText(c.distanceM, 'en');
    parts.push(c.satisfied[at] ? placeLabel(first, 'en', { distance, ref: from }) : `${distance} from ${from}`);
  }
  // What the candidate is not ("outside Chelsea"), when it holds.
  for (const k of clauses) {
    const j = k.members[0]!;
    const negated = plan.constraints[j]!;
    if (k.negated && c.satisfied[j]) parts.push(negatedPlaceLabel(negated, 'en', { distance: distanceText(c.distances[j] ?? 0, 'en'), ref: nameOf(negated) ?? '' }));
  }
  if (!c.satisfied.every(Boolean)) parts.push('just outside the requested area');
  if (plan.order && c.population !== null) parts.push(`population ${c.population.toLocaleString('en-US')}`);
  if (c.tagMatch && plan.targets.text) parts.push(`matches "${plan.targets.text}"`);
  for (const key of ['cuisine', 'diet:vegan', 'opening_hours']) if (tags[key]) parts.push(`${key}=${tags[key]}`);
  if (c.pareto) parts.push('on the Pareto front of spatial vs semantic fit');
  return parts.join('; ');
}

/**
 * How many places answer the question, counted over the ranked pool (the SQL's candidates): those that
 * satisfy every constraint and, when the question names a kind of place, are of that kind. The pools are
 * bounded (retrieve.ts), so a count from a pool that was full is a lower bound.
 */
export interface MatchCount {
  matches: number;
  atLeast: boolean;
  /** Whether any candidate, satisfying or not, is of the kind asked for. */
  kindFound: boolean;
}

export function countMatches(plan: SpatialPlan, ranked: RankedCandidate[], poolFull: boolean): MatchCount {
  const targeted = hasTargets(plan);
  const fits = (c: RankedCandidate) => c.satisfied.every(Boolean) && (!targeted || c.tagMatch);
  return { matches: ranked.filter(fits).length, atLeast: poolFull, kindFound: !targeted || ranked.some((c) => c.tagMatch) };
}

/** What the language model said when it ordered the answer (only reasons that passed the checks). */
export interface RankingWords {
  reasons?: ReadonlyMap<number, string>;
  tradeOffReason?: string;
}

/**
 * The short natural-language answer: names the top choices and why (the model's reasons when it ranked
 * them), and says truthfully how many there are ("the 5 best of 37"), that none fit (then what came
 * closest), or that the data holds no place of the kind asked for there.
 */
export function composeAnswer(
  plan: SpatialPlan,
  shown: RankedCandidate[],
  refs: ResolvedReference[],
  ranking: RankingWords = {},
  count?: MatchCount,
): string {
  return summary(plan, shown, refs, ranking, count) + takenAs(refs, plan.lang);
}

/**
 * Names the place a reference was matched to when its name differs from the words of the question
 * ("Atlantis Plaza" read as the city of Atlantis), so that a guess never reads as a place found.
 */
function takenAs(refs: ResolvedReference[], lang: 'en' | 'zh'): string {
  const notes = refs.flatMap((r) => {
    if (!r.match || /\p{Script=Han}/u.test(r.text) || normalizeName(r.match.name) === normalizeName(r.text)) return [];
    const where = r.match.hint ? ` (${r.match.hint})` : '';
    return [lang === 'zh' ? `“${r.text}”按 ${r.match.name}${where} 理解` : `"${r.text}" is read as ${r.match.name}${where}, the closest name in the data`];
  });
  if (!notes.length) return '';
  return lang === 'zh' ? `（${notes.join('；')}）` : ` (${notes.join('; ')}.)`;
}

function summary(plan: SpatialPlan, shown: RankedCandidate[], refs: ResolvedReference[], ranking: RankingWords, count?: MatchCount): string {
  const where = plan.spatialText || refs.map((r) => r.match?.name ?? r.text).join(' / ');
  const what = plan.targets.text || (plan.lang === 'zh' ? '地点' : 'places');
  const zh = plan.lang === 'zh';
  if (count && !count.kindFound) {
    return zh ? `数据中没有${where}的${what}。` : `The data has no ${what} ${where}.`;
  }
  const fitting = shown.filter((c) => c.satisfied.every(Boolean));
  if (shown.length === 0 || (count && count.matches === 0) || fitting.length === 0) {
    const none = zh ? `没有找到符合条件的${what}（${where}）。` : `I found no ${what} ${where}.`;
    if (shown.length === 0) return none;
    const closest = shown.slice(0, 3).map((c) => (zh ? `${c.name}（${distanceText(c.distanceM, 'zh')}）` : `${c.name} (${distanceText(c.distanceM, 'en')} away)`));
    return zh ? `${none}最接近的：${closest.join('、')}。` : `${none} The closest: ${closest.join('; ')}.`;
  }
  const top = fitting.slice(0, 3);
  const reason = (c: RankedCandidate) => ranking.reasons?.get(c.id);
  const total = count?.matches ?? fitting.length;
  const plus = count?.atLeast ? '+' : '';
  if (plan.order) return byPopulation(plan, fitting, where, what, total > fitting.length ? `${total}${plus}` : undefined);
  const nearest = plan.constraints.some((c) => c.fn === 'nearest');
  const allShown = nearest || total <= shown.length;
  if (zh) {
    const list = top.map((c) => `${c.name}（${distanceText(c.distanceM, 'zh')}${reason(c) ? `；${reason(c)}` : ''}）`).join('、');
    const tally = allShown ? (shown.length > 3 ? ` 等 ${shown.length} 处` : '') : ` 等（共 ${total}${plus} 处，显示最佳 ${shown.length} 处）`;
    const why = ranking.tradeOffReason ? ` 排序：${ranking.tradeOffReason}` : '';
    return `${where}：${list}${tally}。${why}`;
  }
  const list = top
    .map((c, i) => `${i + 1}. ${c.name} (${c.category?.replace(/_/g, ' ') ?? 'place'}, ${distanceText(c.distanceM, 'en')} away${reason(c) ? `: ${reason(c)}` : ''})`)
    .join('; ');
  const why = ranking.tradeOffReason ? ` Ranked for this question: ${ranking.tradeOffReason}` : '';
  if (allShown) return `For ${what} ${where}: ${list}${shown.length > 3 ? ` — ${shown.length} matches in all.` : '.'}${why}`;
  return `For ${what} ${where}, the ${shown.length} best of ${total}${plus}: ${list}.${why}`;
}

/**
 * The answer to a population order, every place shown with its population, in the order asked for: "The 5
 * largest cities in Japan (of 200+): 1. Tokyo (population 8,336,599); ...", "日本人口最多的5个城市：东京（8,336,599人）、…".
 */
function byPopulation(plan: SpatialPlan, fitting: RankedCandidate[], where: string, what: string, ofTotal: string | undefined): string {
  const largest = plan.order?.direction !== 'asc';
  // Places without a population are listed last, and only when the question did not ask for the order.
  const people = (c: RankedCandidate) => c.population?.toLocaleString('en-US');
  if (plan.lang === 'zh') {
    const list = fitting.map((c) => `${c.name}（${people(c) ? `${people(c)}人` : '人口不详'}）`).join('、');
    const count = fitting.length > 1 ? `${fitting.length}个` : '';
    return `${where}人口${largest ? '最多' : '最少'}的${count}${what}${ofTotal ? `（共 ${ofTotal} 个）` : ''}：${list}。`;
  }
  const list = fitting.map((c, i) => `${fitting.length > 1 ? `${i + 1}. ` : ''}${c.name} (population ${people(c) ?? 'unknown'})`).join('; ');
  const count = fitting.length > 1 ? `${fitting.length} ` : '';
  return `The ${count}${largest ? 'largest' : 'smallest'} ${what} ${where}${ofTotal ? ` (of ${ofTotal})` : ''}: ${list}.`;
}
