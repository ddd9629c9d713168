/**
 * The question asked back when a reference names several distinct places: the options, most populous first,
 * each with what tells it apart.
 */
import { normalizeName } from './names.ts';
import type { GazetteerRow } from './gazetteer-match.ts';

export interface ClarificationOption {
  name: string;
  category: string | null;
  placeId?: number;
  lon: number;
  lat: number;
  hint: string;
}

export interface Clarification {
  question: string;
  reference: string;
  options: ClarificationOption[];
}

export function clarify(text: string, rows: GazetteerRow[]): Clarification {
  const seen = new Set<string>();
  const options: ClarificationOption[] = [];
  // The most populous first (a gazetteer's order; places without a population keep theirs).
  for (const r of [...rows].sort((a, b) => population(b) - population(a))) {
    const key = `${normalizeName(r.name)}@${Math.round(r.lon * 200)},${Math.round(r.lat * 200)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    options.push({
      name: r.name,
      category: r.category,
      placeId: r.id,
      lon: round6(r.lon),
      lat: round6(r.lat),
      hint: placeHint(r),
    });
    if (options.length >= 8) break;
  }
  const listed = options.slice(0, 4).map((o) => (o.hint ? `${o.name} (${o.hint})` : o.name));
  const more = options.length > listed.length ? `, or ${options.length - listed.length} more` : '';
  return { question: `Several places match "${text}": ${listed.join('; ')}${more}. Which one do you mean?`, reference: text, options };
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** A place's population from its tags (GeoNames cities carry one), 0 when unknown. */
export function population(r: GazetteerRow): number {
  const n = Number(r.tags.population);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** What tells same-name options apart: "Texas, United States — 25 k" for a city, the street for a shop. */
export function placeHint(r: GazetteerRow): string {
  if (r.tags.country) {
    const where = [r.tags.admin1, r.tags.country].filter(Boolean).join(', ');
    const n = population(r);
    return n ? `${where} — ${populationText(n)}` : where;
  }
  return [r.category, r.tags['addr:street'], r.tags.borough].filter(Boolean).join(', ');
}

export function populationText(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)} M`;
  if (n >= 1_000) return `${Math.round(n / 1_000)} k`;
  return String(n);
}

