import { sql } from 'kysely';
import type { SpatialFunctionSpec } from './spec.ts';
import { distanceReaches } from './within-distance.ts';

/**
 * Within `distanceM` of an area's border, on either side: "near the border of X", "within 50 km of the
 * border" (with `inside` X when the question says "in X"). Measured on the sphere to the reference's border
 * line, never to the polygon itself, whose inside is at distance 0: a country's land border (the outline it
 * shares with its neighbours, src/ingest/land-borders.ts: its coast is no border, an island has none), else
 * the area's outline (a neighbourhood's); retrieve.ts gives that line as the constraint's geometry. The pools
 * keep only places that satisfy it (`filtersPools`): ordered from the middle of a large area they would hold
 * its centre, never its edges.
 */
export const border: SpatialFunctionSpec<'border'> = {
  fn: 'border',
  referenceShape: 'polygon',
  ...distanceReaches,
  sqlFunctions: ['ST_DWithin'],
  filtersPools: true,
  compile: (c, { distance, geometry, inFrame }) => {
    const within = inFrame
      ? sql<boolean>`ST_DWithin(ST_Affine(p.geom, ${inFrame.frame.kx}, 0, 0, ${inFrame.frame.ky}, 0, 0), ${inFrame.geometry}, ${c.distanceM})`
      : sql<boolean>`ST_DWithin(p.geog, ${geometry}::geography, ${c.distanceM}, false)`;
    return { distance, satisfied: () => within };
  },
  excess: (c, distance) => Math.max(0, distance - c.distanceM),
  labels: {
    en: { area: 'within {m} m of the border', place: '{distance} from the border of {ref}', notArea: 'farther than {m} m from the border' },
    zh: { area: '边界 {m} 米以内', place: '距{ref}边界{distance}', notArea: '距边界 {m} 米以外' },
  },
  searchArea: { kind: 'buffer', metres: 'distanceM' },
  // "near the border of X": within the distance said, else within X's "near" radius.
  plan: ({ distanceM }, { ref, nearM, metres }) => {
    if (distanceM !== undefined) return { fields: { distanceM: metres(distanceM) } };
    return { fields: { distanceM: nearM }, defaulted: `near the border of "${ref}" -> within ${nearM} m` };
  },
};
