import * as turf from '@turf/turf';

/** One line of the spatial QA dev set (see ../shared/eval/README.md). */
export interface SpatialQaItem {
  id: string;
  question: string;
  lang: string;
  type: string;
  reference: { names: string[]; geometry: { type: string; coordinates: unknown } };
  spatial: { relation: 'within_distance' | 'inside' | 'along' | 'nearest'; distance_m: number | null; k: number | null };
  gold: { name: string; lon: number; lat: number; osm_id: string }[];
  semantic_ok: { name: string; lon: number; lat: number; osm_id: string }[];
}

export interface AnswerCandidate {
  name: string;
  geometry: { type: string; coordinates: unknown };
}

export interface QuestionOutcome {
  id: string;
  type: string;
  lang: string;
  delivered: boolean;
  spatial: boolean;
  semantic: boolean;
  precisionAt5: number;
  recallAt5: number;
  latencyMs: number;
}

/** Name normalisation of the scorer: decomposed, accents dropped, lower case, & -> and, only letters and digits. */
export function scorerName(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/&/g, 'and').replace(/[^\p{L}\p{N}]/gu, '');
}

export function namesMatch(a: string, b: string): boolean {
  const x = scorerName(a);
  const y = scorerName(b);
  if (x === y) return true;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  return short.length >= 3 && long.includes(short);
}

/** A candidate as one point: its Point, or the centre of its bounding box. */
export function candidatePoint(c: AnswerCandidate): [number, number] {
  if (c.geometry.type === 'Point') return c.geometry.coordinates as [number, number];
  const [minX, minY, maxX, maxY] = turf.bbox(c.geometry as never);
  return [(minX + maxX) / 2, (minY + maxY) / 2];
}

const metres = (a: [number, number], b: [number, number]) => turf.distance(a, b, { units: meters });
const meters = 'meters' as const;

export function matchesItem(c: AnswerCandidate, item: { name: string; lon: number; lat: number }): boolean {
  if (!namesMatch(c.name, item.name)) return false;
  const p = candidatePoint(c);
  if (metres(p, [item.lon, item.lat]) <= 60) return true;
  if (c.geometry.type === 'Polygon' || c.geometry.type === 'MultiPolygon') {
    return turf.booleanPointInPolygon([item.lon, item.lat], c.geometry as never);
  }
  return false;
}

function satisfiesSpatial(item: SpatialQaItem, c: AnswerCandidate): boolean {
  const p = candidatePoint(c);
  const ref = item.reference.geometry;
  const limit = (item.spatial.distance_m ?? 0) * 1.1 + 15;
  switch (item.spatial.relation) {
    case 'within_distance':
      return metres(p, ref.coordinates as [number, number]) <= limit;
    case 'along': {
      const lines = ref.type === 'LineString' ? [ref.coordinates] : (ref.coordinates as unknown[]);
      const d = Math.min(...lines.map((l) => turf.pointToLineDistance(p, turf.lineString(l as [number, number][]), { units: meters })));
      return d <= limit;
    }
    case 'inside': {
      if (turf.booleanPointInPolygon(p, ref as never)) return true;
      const polygons = ref.type === 'Polygon' ? [ref.coordinates] : (ref.coordinates as unknown[]);
      return polygons.some((poly) =>
        (poly as [number, number][][]).some((ring) => turf.pointToLineDistance(p, turf.lineString(ring), { units: meters }) <= 15),
      );
    }
    case 'nearest':
      return item.gold.some((g) => matchesItem(c, g));
  }
}

/** Scores one answer exactly as the shared README defines it. */
export function scoreQuestion(item: SpatialQaItem, status: number, candidates: AnswerCandidate[], latencyMs: number): QuestionOutcome {
  const delivered = status === 200 && candidates.length > 0;
  const top = candidates[0];
  const spatial = delivered && top !== undefined && satisfiesSpatial(item, top);
  const semantic = delivered && top !== undefined && [...item.semantic_ok, ...item.gold].some((g) => matchesItem(top, g));
  const top5 = candidates.slice(0, 5);
  const matchedGold = new Set<number>();
  for (const c of top5) {
    const index = item.gold.findIndex((g, i) => !matchedGold.has(i) && matchesItem(c, g));
    if (index >= 0) matchedGold.add(index);
  }
  return {
    id: item.id,
    type: item.type,
    lang: item.lang,
    delivered,
    spatial,
    semantic,
    precisionAt5: top5.length ? matchedGold.size / top5.length : 0,
    recallAt5: item.gold.length ? matchedGold.size / Math.min(5, item.gold.length) : 0,
    latencyMs,
  };
}

export interface SpatialSummary {
  n: number;
  delivery: number;
  spatial: number;
  semantic: number;
  both: number;
  precisionAt5: number;
  recallAt5: number;
  latencyMs: number;
}

export function summarize(outcomes: QuestionOutcome[]): SpatialSummary {
  const n = outcomes.length || 1;
  const mean = (f: (o: QuestionOutcome) => number) => outcomes.reduce((s, o) => s + f(o), 0) / n;
  return {
    n: outcomes.length,
    delivery: mean((o) => Number(o.delivered)),
    spatial: mean((o) => Number(o.spatial)),
    semantic: mean((o) => Number(o.semantic)),
    both: mean((o) => Number(o.spatial && o.semantic)),
    precisionAt5: mean((o) => o.precisionAt5),
    recallAt5: mean((o) => o.recallAt5),
    latencyMs: mean((o) => o.latencyMs),
  };
}

export function summaryLine(s: SpatialSummary): string {
  const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
  return `spatial-qa: delivery=${pct(s.delivery)} spatial=${pct(s.spatial)} semantic=${pct(s.semantic)} both=${pct(s.both)} p@5=${s.precisionAt5.toFixed(3)} n=${s.n}`;
}
