import { sql } from 'kysely';
import { BEARING_DEGREES, type Bearing } from '../../planning/plan.ts';
import type { SpatialFunctionSpec } from './spec.ts';
import { distanceMargin, distanceReaches } from './within-distance.ts';

/**
 * Half the width of a direction's sector: "north of X" is every bearing within 45 degrees of north, so that
 * the four cardinal sectors cover the compass and an intercardinal one overlaps its two neighbours by half (a
 * place north-north-east of X is both north and north-east of it).
 */
export const SECTOR_HALF_WIDTH_DEG = 45;

const radians = (deg: number): number => (deg * Math.PI) / 180;

/**
 * Within `distanceM` of the reference, not on it, and in the sector of `bearing` seen from the reference's
 * closest point: from a landmark's point that is its position; from a park or a street, the point of its
 * outline or line nearest the candidate, so that "north of the park" is the band along its north side and
 * "north of the street" the side of the street, not a wedge from their middle. The bearing is the azimuth
 * from that point to the candidate's representative point, clockwise from north: in the local planar frame
 * when there is one (metres east and north), else on the sphere. It is in the sector when the cosine of its
 * difference from the sector's axis is at least the cosine of the half-width (no wrap-around at north).
 */
export const direction: SpatialFunctionSpec<'direction'> = {
  fn: 'direction',
  referenceShape: 'any',
  ...distanceReaches,
  sqlFunctions: ['ST_Azimuth', 'ST_ClosestPoint', 'ST_PointOnSurface', 'ST_Affine', 'cos', 'coalesce'],
  compile: (c, { geometry, distance, inFrame }) => {
    const azimuth = inFrame
      ? sql<number>`ST_Azimuth(ST_ClosestPoint(${inFrame.geometry}, ST_Affine(ST_PointOnSurface(p.geom), ${inFrame.frame.kx}, 0, 0, ${inFrame.frame.ky}, 0, 0)), ST_Affine(ST_PointOnSurface(p.geom), ${inFrame.frame.kx}, 0, 0, ${inFrame.frame.ky}, 0, 0))`
      : sql<number>`ST_Azimuth(ST_ClosestPoint(${geometry}, ST_PointOnSurface(p.geom))::geography, ST_PointOnSurface(p.geom)::geography)`;
    const axis = radians(BEARING_DEGREES[c.bearing]);
    const minCos = Math.cos(radians(SECTOR_HALF_WIDTH_DEG));
    return {
      distance,
      satisfied: (d) =>
        sql<boolean>`(${d} <= ${c.distanceM} AND ${d} > 0 AND coalesce(cos(${azimuth} - ${axis}) >= ${minCos}, false))`,
    };
  },
  // Too far: the metres beyond the distance; in range but off the sector (or on the reference): one margin.
  excess: (c, distance) => Math.max(distance - c.distanceM, distanceMargin(c.distanceM)),
  labels: {
    en: { area: '{bearing} of the reference, within {m} m', place: '{distance} {bearing} of {ref}' },
    zh: { area: '{bearing}侧 {m} 米以内', place: '{ref}以{bearing}{distance}' },
    words: {
      en: bearingWords(['north', 'north-east', 'east', 'south-east', 'south', 'south-west', 'west', 'north-west']),
      zh: bearingWords(['北', '东北', '东', '东南', '南', '西南', '西', '西北']),
    },
  },
  searchArea: { kind: 'sector', metres: 'distanceM', sector: { field: 'bearing', degrees: BEARING_DEGREES, halfWidthDeg: SECTOR_HALF_WIDTH_DEG } },
  // "north of X": within the distance said, else within X's "near" radius.
  plan: ({ bearing, distanceM }, { ref, nearM, metres }) => {
    if (!bearing) return undefined;
    if (distanceM !== undefined) return { fields: { bearing, distanceM: metres(distanceM) } };
    return { fields: { bearing, distanceM: nearM }, defaulted: `${bearing.replace('_', '-')} of "${ref}" -> within ${nearM} m` };
  },
};

/** Words for the bearings, in the order of BEARING_DEGREES (clockwise from north). */
function bearingWords(words: string[]): Record<Bearing, string> {
  return Object.fromEntries(Object.keys(BEARING_DEGREES).map((b, i) => [b, words[i]!])) as Record<Bearing, string>;
}
