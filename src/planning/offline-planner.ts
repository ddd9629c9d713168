/**
 * The offline planner: a deterministic grammar with general lexicons, English and Chinese, that fills the
 * SpatialPlan slots without any language model. It is the default planner and the fallback of the model path.
 *
 * Contract: `planOffline` never throws, whatever the input, and always returns a plan that validates against
 * SpatialPlanSchema. When the question names no place, the plan searches around the asker: a `coordinates`
 * reference carrying `opts.near` when given; otherwise the same reference without a point and confidence 0
 * (the server must then ask for a position rather than guess one).
 */
import { assemble } from './assemble.ts';
import { parseChinese } from './grammar-zh.ts';
import { parseEnglish } from './grammar-en.ts';
import { LonLatSchema, SpatialPlanSchema, type LonLat, type SpatialPlan } from './plan.ts';
import type { BrandIndex } from './brands.ts';
import type { GazetteerHint } from './references.ts';
import { toSimplified } from '../lexicon/zh-gloss.ts';
import { detectLang, foldAligned, MAX_QUESTION_CHARS, normalizeQuestion } from './text.ts';

export interface PlanOfflineOptions {
  /** The asker's position: anchors "near me" and questions that name no place. */
  near?: LonLat;
  /** Classifies a reference phrase from a gazetteer, when the caller has one (takes precedence over word cues). */
  gazetteerHint?: GazetteerHint;
  /** Brand names of the data (src/spatial/brand-index.ts), understood as kinds of place. */
  brands?: BrandIndex;
}

export function planOffline(question: string, opts: PlanOfflineOptions = {}): SpatialPlan {
  const near = validPoint(opts?.near);
  try {
    const normalized = normalizeQuestion(question);
    const lang = detectLang(normalized.text);
    const truncated = normalized.truncated;
    // Traditional characters are read as simplified ones (the lexicons' script), one for one.
    const text = lang === 'zh' ? toSimplified(normalized.text) : normalized.text;
    const notes: string[] = [];
    if (truncated) notes.push(`question truncated to ${MAX_QUESTION_CHARS} characters`);
    const hint = typeof opts?.gazetteerHint === 'function' ? opts.gazetteerHint : undefined;
    const parse = lang === 'zh' ? parseChinese(text, hint) : parseEnglish(text, hint);
    const plan = assemble({ text, folded: foldAligned(text), lang, parse, ...(near ? { near } : {}), ...(hint ? { hint } : {}), ...(opts?.brands ? { brands: opts.brands } : {}), notes });
    const checked = SpatialPlanSchema.safeParse(plan);
    if (checked.success) return checked.data;
    return fallbackPlan(question, near, `internal: plan failed validation (${checked.error.issues[0]?.message ?? 'unknown'})`);
  } catch (err) {
    return fallbackPlan(question, near, `internal error: ${String(err instanceof Error ? err.message : err).slice(0, 200)}`);
  }
}

function validPoint(p: unknown): LonLat | undefined {
  const r = LonLatSchema.safeParse(p);
  return r.success ? r.data : undefined;
}

/** The plan of last resort: around the asker, nothing understood. Built from constants so it cannot fail. */
function fallbackPlan(question: unknown, near: LonLat | undefined, why: string): SpatialPlan {
  let lang: 'en' | 'zh' = 'en';
  try {
    lang = detectLang(typeof question === 'string' ? question.slice(0, MAX_QUESTION_CHARS) : '');
  } catch {
    lang = 'en';
  }
  return {
    references: [{ id: 'r1', text: 'my location', kind: 'coordinates', ...(near ? { point: near } : {}) }],
    targets: { text: '', concepts: [], tags: [], categories: [] },
    constraints: [{ fn: 'within_distance', ref: 'r1', distanceM: 500 }],
    semantic: { text: '', cues: [] },
    spatialText: '',
    preference: 'balanced',
    lang,
    confidence: 0,
    notes: [why.slice(0, 500)],
  };
}
