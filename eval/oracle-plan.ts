import { SpatialPlanSchema, type Constraint, type Reference, type SpatialPlan } from '../src/planning/plan.ts';
import type { SpatialQaItem } from './spatial.ts';

export const ORACLE = 'Spatial-RAG, oracle plan (gold reference, function, distance, tags)';

type Position = [number, number];

/**
 * The plan a perfect planner would write for a dev question, from its gold fields: the reference (its point
 * as coordinates; an area or a street by its gold name and kind, resolved by the service as usual; a route by
 * the two ends of the gold line), the spatial function and distance, and the gold tags as targets. What the
 * service still gets wrong with it is retrieval and ranking; the rest of its error is planning.
 */
export function oraclePlan(item: SpatialQaItem & { semantic?: { description?: string; tags?: [string, string[]][] } }): SpatialPlan {
  const geometry = item.reference.geometry;
  const name = item.reference.names[0] ?? item.question;
  const relation = item.spatial.relation;
  const distance = item.spatial.distance_m ?? 100;
  const references: Reference[] = [];
  let route: SpatialPlan['route'];
  let ref = 'r1';
  if (geometry.type === 'Point') {
    const [lon, lat] = geometry.coordinates as Position;
    references.push({ id: 'r1', text: name, kind: 'coordinates', point: { lon, lat } });
  } else if (geometry.type === 'LineString' && item.reference.names.length === 2) {
    // A journey between two places: the gold line is the straight segment between them.
    const line = geometry.coordinates as Position[];
    const ends = [line[0]!, line[line.length - 1]!];
    ends.forEach(([lon, lat], i) => references.push({ id: `r${i + 1}`, text: item.reference.names[i]!, kind: 'coordinates', point: { lon, lat } }));
    route = { from: 'r1', to: 'r2' };
    ref = 'route';
  } else {
    references.push({ id: 'r1', text: name, kind: geometry.type.includes('Polygon') ? 'area' : 'street' });
  }
  const constraint: Constraint =
    relation === 'within_distance'
      ? { fn: 'within_distance', ref, distanceM: distance }
      : relation === 'inside'
        ? { fn: 'inside', ref }
        : relation === 'along'
          ? { fn: 'along', ref, bufferM: distance }
          : { fn: 'nearest', ref, k: item.spatial.k ?? 1 };
  const need = item.semantic?.description ?? '';
  return SpatialPlanSchema.parse({
    references,
    ...(route ? { route } : {}),
    targets: { text: need, concepts: [], tags: item.semantic?.tags ?? [], categories: [] },
    constraints: [constraint],
    semantic: { text: need, cues: [] },
    spatialText: name,
    preference: relation === 'nearest' ? 'nearest' : 'balanced',
    lang: item.lang === 'zh' ? 'zh' : 'en',
    confidence: 1,
    notes: ['oracle plan built from the gold fields'],
  });
}
