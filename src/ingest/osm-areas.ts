/**
 * Area semantics of OSM ways and relations, and the assembly of (multi)polygons from member ways. Pure
 * geometry over node ids and coordinates, apart from the streaming reader (osm.ts).
 */
import type { PlaceGeometry, Position } from './feature.js';
import { orientRing, pointInRing, ringSignedArea2 } from './geometry.js';

type Tags = Record<string, string>;

/** Relation types that describe areas; every other relation (routes, restrictions, sites...) is skipped. */
export const AREA_RELATION_TYPES = new Set(['multipolygon', 'boundary']);

/**
 * When a closed way is an area. Keys map to `true` (any value except `no`) or to the values that
 * are lines even when closed (`except`), or to the only values that are areas (`only`).
 * `highway` and `barrier` are missing on purpose: a closed road is a loop and a closed fence is a
 * fence, unless the way says `area=yes`.
 */
export const AREA_KEYS: Readonly<Record<string, true | { except: readonly string[] } | { only: readonly string[] }>> = {
  building: true,
  'building:part': true,
  amenity: true,
  shop: true,
  tourism: true,
  office: true,
  craft: true,
  healthcare: true,
  historic: { except: ['citywalls', 'city_wall'] },
  landuse: true,
  leisure: { except: ['track', 'slipway'] },
  natural: { except: ['coastline', 'cliff', 'ridge', 'arete', 'tree_row', 'earth_bank'] },
  man_made: { except: ['cutline', 'embankment', 'pipeline', 'breakwater', 'groyne', 'dyke'] },
  place: true,
  military: true,
  sport: true,
  boundary: true,
  'area:highway': true,
  indoor: { except: ['wall', 'door'] },
  aeroway: { except: ['taxiway', 'runway', 'parking_position'] },
  power: { only: ['plant', 'substation', 'generator', 'transformer'] },
  public_transport: { only: ['platform', 'station'] },
  railway: { only: ['platform', 'station', 'roundhouse', 'turntable'] },
  waterway: { only: ['riverbank', 'dock', 'boatyard', 'dam'] },
};

/** Area semantics of a closed way's tags (see AREA_KEYS). */
export function isAreaTags(tags: Tags): boolean {
  if (tags.area === 'yes') return true;
  if (tags.area === 'no') return false;
  for (const key in tags) {
    const rule = AREA_KEYS[key];
    if (!rule) continue;
    const value = tags[key]!;
    if (value === 'no') continue;
    if (rule === true) return true;
    if ('except' in rule && !rule.except.includes(value)) return true;
    if ('only' in rule && rule.only.includes(value)) return true;
  }
  return false;
}

/** A member way kept for relation assembly: its (present) node ids and coordinates. */
export interface WayPath {
  wayId: number;
  refs: number[];
  coords: Position[];
}

interface Ring extends WayPath {
  area2: number;
  bbox: [number, number, number, number];
}

export type Assembly = { geometry: PlaceGeometry } | { error: string };

/** The geometric part of relation assembly, exported for unit tests with hand-made ways. */
export function assembleArea(segments: WayPath[]): Assembly {
  const rings = joinRings(segments);
  if ('error' in rings) return rings;

  // Largest first, so the containing candidates of a ring are the rings before it.
  const sorted = rings.rings.sort((a, b) => Math.abs(b.area2) - Math.abs(a.area2));
  const depth: number[] = [];
  const parent: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let p = -1;
    // Going backwards finds the smallest containing ring first: the direct parent.
    for (let j = i - 1; j >= 0; j--) {
      if (ringContains(sorted[j]!, sorted[i]!)) {
        p = j;
        break;
      }
    }
    parent.push(p);
    depth.push(p < 0 ? 0 : depth[p]! + 1);
  }

  const polygons = new Map<number, Position[][]>();
  for (let i = 0; i < sorted.length; i++) {
    if (depth[i]! % 2 === 0) polygons.set(i, [orientRing(sorted[i]!.coords, true)]);
    else polygons.get(parent[i]!)!.push(orientRing(sorted[i]!.coords, false));
  }
  const list = [...polygons.values()];
  if (list.length === 1) return { geometry: { type: 'Polygon', coordinates: list[0]! } };
  return { geometry: { type: 'MultiPolygon', coordinates: list } };
}

function joinRings(segments: WayPath[]): { rings: Ring[] } | { error: string } {
  const byEndpoint = new Map<number, number[]>();
  const addEnd = (node: number, i: number) => {
    const list = byEndpoint.get(node);
    if (list) list.push(i);
    else byEndpoint.set(node, [i]);
  };
  segments.forEach((s, i) => {
    addEnd(s.refs[0]!, i);
    addEnd(s.refs[s.refs.length - 1]!, i);
  });

  const used = new Uint8Array(segments.length);
  const rings: Ring[] = [];
  for (let i = 0; i < segments.length; i++) {
    if (used[i]) continue;
    used[i] = 1;
    const first = segments[i]!;
    const refs = first.refs.slice();
    const coords = first.coords.slice();
    const ways = [first.wayId];
    const waysText = () => (ways.length <= 4 ? `way/${ways.join(', way/')}` : `way/${ways.slice(0, 3).join(', way/')} and ${ways.length - 3} more ways`);
    while (refs[0] !== refs[refs.length - 1]) {
      const end = refs[refs.length - 1]!;
      const next = byEndpoint.get(end)?.find((j) => !used[j]);
      if (next === undefined) {
        return { error: `ring of ${waysText()} is open at node/${end}: no other member way continues it` };
      }
      used[next] = 1;
      const s = segments[next]!;
      ways.push(s.wayId);
      const forward = s.refs[0] === end;
      for (let k = 1; k < s.refs.length; k++) {
        const idx = forward ? k : s.refs.length - 1 - k;
        refs.push(s.refs[idx]!);
        coords.push(s.coords[idx]!);
      }
    }
    if (refs.length < 4) return { error: `ring of ${waysText()} has fewer than 3 distinct nodes` };
    rings.push({ wayId: first.wayId, refs, coords, area2: ringSignedArea2(coords), bbox: bboxOf(coords) });
  }
  return { rings };
}

function bboxOf(coords: readonly Position[]): [number, number, number, number] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of coords) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}

function ringContains(outer: Ring, inner: Ring): boolean {
  const [ox0, oy0, ox1, oy1] = outer.bbox;
  const [ix0, iy0, ix1, iy1] = inner.bbox;
  if (ix0 < ox0 || iy0 < oy0 || ix1 > ox1 || iy1 > oy1) return false;
  // Rings of a valid multipolygon may touch at nodes; test a vertex that is not on the outer ring.
  const shared = new Set(outer.refs);
  for (let k = 0; k < inner.refs.length; k++) {
    if (!shared.has(inner.refs[k]!)) return pointInRing(inner.coords[k]!, outer.coords);
  }
  return false;
}
