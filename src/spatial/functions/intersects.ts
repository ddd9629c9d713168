import { sql } from 'kysely';
import { onGeometry } from './inside.ts';
import type { SpatialFunctionSpec } from './spec.ts';

/** The feature's geometry intersects the reference geometry (a street crossing a park, a square on an avenue). */
export const intersects: SpatialFunctionSpec<'intersects'> = {
  fn: 'intersects',
  ...onGeometry,
  sqlFunctions: ['ST_Intersects'],
  compile: (_c, { distance, geometry }) => ({ distance, satisfied: () => sql<boolean>`ST_Intersects(p.geom, ${geometry})` }),
  labels: {
    en: { area: 'intersects', place: '{distance} from {ref}' },
    zh: { area: '相交', place: '距{ref}{distance}' },
  },
  searchArea: { kind: 'fill' },
};
