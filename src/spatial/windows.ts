/**
 * The window of a constraint in degrees: the boxes the GiST index is asked for (one box, or a chain of boxes
 * along a line), and the local planar frame distances are measured in when the window is small.
 */
import { sql, type RawBuilder } from 'kysely';
import type { GeoJsonGeometry } from './resolve.ts';

/** A line's window is a chain of boxes of about this length (fewer, longer ones past MAX_CORRIDOR_BOXES). */
const CORRIDOR_BOX_M = 250;
const MAX_CORRIDOR_BOXES = 24;
/** Windows up to this size (metres, either side; less the farther from the equator, see planarFrame) are measured in a local planar frame. */
const PLANAR_FRAME_MAX_M = 40_000;
const PLANAR_FRAME_MAX_LAT = 70;
const PLANAR_FRAME_MAX_ERROR = 0.002;
/** Metres per degree on PostGIS's sphere (radius 6,371,008.8 m). */
const SPHERE_METRES_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;

export type Envelope = [number, number, number, number];

/** Metres per degree of latitude, rounded down so that windows in degrees are never too small. */
const METRES_PER_DEGREE = 110_500;

function boundsOf(geometry: GeoJsonGeometry): Envelope {
  const box: Envelope = [Infinity, Infinity, -Infinity, -Infinity];
  const visit = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') {
      const [x, y] = c as number[];
      box[0] = Math.min(box[0], x!);
      box[1] = Math.min(box[1], y!);
      box[2] = Math.max(box[2], x!);
      box[3] = Math.max(box[3], y!);
    } else if (Array.isArray(c)) c.forEach(visit);
  };
  visit(geometry.coordinates);
  return box;
}

/** The box of a geometry grown by `metres` on every side, in degrees (a superset: degrees of longitude shrink poleward). */
export function expandedEnvelope(geometry: GeoJsonGeometry, metres: number): Envelope {
  const [x0, y0, x1, y1] = boundsOf(geometry);
  const dy = metres / METRES_PER_DEGREE;
  const poleward = Math.min(90, Math.max(Math.abs(y0 - dy), Math.abs(y1 + dy)));
  const cos = Math.cos((poleward * Math.PI) / 180);
  const dx = cos < 0.01 ? 360 : dy / cos;
  return [Math.max(-180, x0 - dx), Math.max(-90, y0 - dy), Math.min(180, x1 + dx), Math.min(90, y1 + dy)];
}

export function isArea(geometry: GeoJsonGeometry): boolean {
  return geometry.type === 'Polygon' || geometry.type === 'MultiPolygon';
}

export function boxCentre([x0, y0, x1, y1]: Envelope): GeoJsonGeometry {
  return { type: 'Point', coordinates: [(x0 + x1) / 2, (y0 + y1) / 2] };
}

type Ring = number[][];

/**
 * Where the nearest-first pools of an area start: the middle of its window when that lies in the area (most
 * areas), else a point inside its largest part. An area in far-apart parts (a country with overseas
 * territories) has the middle of its window in some other place, and the pools would fill with what is there.
 */
export function areaOrderPoint(area: GeoJsonGeometry, window: Envelope): GeoJsonGeometry {
  const centre = boxCentre(window);
  const polygons = (area.type === 'Polygon' ? [area.coordinates] : area.coordinates) as Ring[][];
  if (polygons.some((rings) => insidePolygon(centre.coordinates as number[], rings))) return centre;
  const largest = polygons.reduce((a, b) => (Math.abs(ringArea(b[0]!)) > Math.abs(ringArea(a[0]!)) ? b : a));
  return { type: 'Point', coordinates: pointInPolygon(largest) };
}

/** Even-odd rule over every ring: inside the outer ring and outside its holes. */
function insidePolygon([x, y]: number[], rings: Ring[]): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi! > y! !== yj! > y! && x! < ((xj! - xi!) * (y! - yi!)) / (yj! - yi!) + xi!) inside = !inside;
    }
  }
  return inside;
}

function ringArea(ring: Ring): number {
  let twice = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) twice += ring[j]![0]! * ring[i]![1]! - ring[i]![0]! * ring[j]![1]!;
  return twice / 2;
}

/** The middle of the widest stretch of the polygon on the horizontal line through the middle of its box. */
function pointInPolygon(rings: Ring[]): number[] {
  const [, y0, , y1] = boundsOf({ type: 'Polygon', coordinates: rings } as GeoJsonGeometry);
  const y = (y0 + y1) / 2;
  const xs: number[] = [];
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi! > y !== yj! > y) xs.push(xi! + ((y - yi!) * (xj! - xi!)) / (yj! - yi!));
    }
  }
  xs.sort((a, b) => a - b);
  let best: number[] = rings[0]![0]!;
  let width = -1;
  for (let i = 0; i + 1 < xs.length; i += 2) {
    if (xs[i + 1]! - xs[i]! > width) {
      width = xs[i + 1]! - xs[i]!;
      best = [(xs[i]! + xs[i + 1]!) / 2, y];
    }
  }
  return best;
}

/** The rings of a polygon or multipolygon as a MultiLineString (its ST_Boundary); another geometry as it is. */
export function outlineOf(geometry: GeoJsonGeometry): GeoJsonGeometry {
  if (geometry.type === 'Polygon') return { type: 'MultiLineString', coordinates: geometry.coordinates };
  if (geometry.type === 'MultiPolygon') return { type: 'MultiLineString', coordinates: (geometry.coordinates as number[][][][]).flat() };
  return geometry;
}

/** Whether a geometry has no position at all (an empty land border): it has no window. */
function isEmptyGeometry(geometry: GeoJsonGeometry): boolean {
  return Array.isArray(geometry.coordinates) && geometry.coordinates.flat(3).length === 0;
}

export function lineParts(geometry: GeoJsonGeometry): number[][][] {
  if (geometry.type === 'LineString') return [geometry.coordinates as number[][]];
  if (geometry.type === 'MultiLineString') return geometry.coordinates as number[][][];
  return [];
}

/** Rough metres between two lon/lat points (for cutting a line into boxes; never for answers). */
function roughMetres(a: number[], b: number[]): number {
  const kx = Math.cos((((a[1]! + b[1]!) / 2) * Math.PI) / 180);
  return Math.hypot((b[0]! - a[0]!) * kx, b[1]! - a[1]!) * METRES_PER_DEGREE;
}

/**
 * The window of a geometry as boxes in degrees, grown by `metres`: one box, or for a line a chain of boxes
 * along it (each piece of about CORRIDOR_BOX_M, long segments cut), whose union covers its corridor.
 */
export function windowBoxes(geometry: GeoJsonGeometry, metres: number): Envelope[] {
  if (isEmptyGeometry(geometry)) return [];
  const parts = lineParts(geometry);
  if (parts.length === 0) return [expandedEnvelope(geometry, metres)];
  const total = parts.reduce((sum, line) => sum + line.slice(1).reduce((l, p, i) => l + roughMetres(line[i]!, p), 0), 0);
  const pieceM = Math.max(CORRIDOR_BOX_M, total / MAX_CORRIDOR_BOXES);
  const boxes: Envelope[] = [];
  for (const line of parts) {
    let piece: number[][] = [line[0]!];
    let length = 0;
    for (let i = 1; i < line.length; i++) {
      const [a, b] = [line[i - 1]!, line[i]!];
      const d = roughMetres(a, b);
      const cuts = Math.max(1, Math.ceil(d / pieceM));
      for (let k = 1; k <= cuts; k++) {
        const p = [a[0]! + ((b[0]! - a[0]!) * k) / cuts, a[1]! + ((b[1]! - a[1]!) * k) / cuts];
        piece.push(p);
        length += d / cuts;
        if (length >= pieceM) {
          boxes.push(expandedEnvelope({ type: 'LineString', coordinates: piece }, metres));
          piece = [p];
          length = 0;
        }
      }
    }
    if (piece.length > 1) boxes.push(expandedEnvelope({ type: 'LineString', coordinates: piece }, metres));
  }
  if (boxes.length === 0) return [expandedEnvelope(geometry, metres)];
  // A street of many separate parts: neighbours (in the order of the parts) are joined until few enough.
  let merged = boxes;
  while (merged.length > MAX_CORRIDOR_BOXES) {
    merged = merged.flatMap((box, i) => (i % 2 ? [] : [i + 1 < merged.length ? unionBox([box, merged[i + 1]!]) : box]));
  }
  return merged;
}

export function boxArea(boxes: Envelope[]): number {
  return boxes.reduce((sum, [x0, y0, x1, y1]) => sum + (x1 - x0) * (y1 - y0), 0);
}

function unionBox(boxes: Envelope[]): Envelope {
  return boxes.reduce((a, b) => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])]);
}

function intersectEnvelopes(boxes: Envelope[]): Envelope | null {
  const [x0, y0, x1, y1] = boxes.reduce((a, b) => [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])]);
  return x0 <= x1 && y0 <= y1 ? [x0, y0, x1, y1] : null;
}

function envelopeSql(box: Envelope): RawBuilder<unknown> {
  return sql`ST_MakeEnvelope(${box[0]}, ${box[1]}, ${box[2]}, ${box[3]}, 4326)`;
}

/**
 * The window of all constraints: the boxes of the driving constraint (the smallest window), each clipped
 * to the bounding boxes of the others' windows; an OR of `&&`, which the GiST index answers as a BitmapOr.
 */
export function windowSql(perConstraint: Envelope[][], driver: number): RawBuilder<boolean> {
  // A constraint without a window (an empty border) leaves no place in the window of all.
  if (perConstraint.some((boxes) => boxes.length === 0)) return sql<boolean>`false`;
  const others = perConstraint.filter((_, i) => i !== driver).map(unionBox);
  const boxes = perConstraint[driver]!.flatMap((box) => {
    const clipped = intersectEnvelopes([box, ...others]);
    return clipped ? [clipped] : [];
  });
  if (boxes.length === 0) return sql<boolean>`false`;
  return sql<boolean>`(${sql.join(boxes.map((b) => sql`p.geom && ${envelopeSql(b)}`), sql` OR `)})`;
}

/**
 * A local equirectangular frame (metres east and north, scaled at the window's middle latitude) when the
 * window is small and far from the poles; null: measure on the sphere.
 */
export function planarFrame(boxes: Envelope[]): { kx: number; ky: number } | null {
  if (boxes.length === 0) return null;
  const [x0, y0, x1, y1] = unionBox(boxes);
  const mid = (y0 + y1) / 2;
  const kx = Math.cos((mid * Math.PI) / 180) * SPHERE_METRES_PER_DEGREE;
  const spanM = Math.max((x1 - x0) * kx, (y1 - y0) * SPHERE_METRES_PER_DEGREE);
  const poleward = Math.max(Math.abs(y0), Math.abs(y1));
  if (poleward > PLANAR_FRAME_MAX_LAT || spanM > 2 * PLANAR_FRAME_MAX_M) return null;
  // East-west metres are scaled by the cosine of the middle latitude: off by about tan(lat) x the latitude
  // difference (radians) at the window's north and south ends.
  const scaleError = Math.tan((poleward * Math.PI) / 180) * (((y1 - y0) / 2) * (Math.PI / 180));
  if (scaleError > PLANAR_FRAME_MAX_ERROR) return null;
  return { kx, ky: SPHERE_METRES_PER_DEGREE };
}

export function scaledGeometry(geometry: GeoJsonGeometry, kx: number, ky: number): GeoJsonGeometry {
  const scale = (c: unknown): unknown =>
    Array.isArray(c) && typeof c[0] === 'number' ? [(c[0] as number) * kx, (c[1] as number) * ky] : (c as unknown[]).map(scale);
  return { type: geometry.type, coordinates: scale(geometry.coordinates) } as GeoJsonGeometry;
}

