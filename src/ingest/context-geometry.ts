/**
 * Plane geometry for the spatial context of descriptions (context.ts): bounding boxes, point in polygon,
 * segment distances and areas, over GeoJSON coordinates in degrees or a local projection in metres.
 */
import type { PlaceGeometry, Position } from './feature.ts';

export const METRES_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;

export type Ring = readonly Position[];
export type Bbox = [minX: number, minY: number, maxX: number, maxY: number];

export function polygonsOf(g: PlaceGeometry): (readonly Ring[])[] {
  if (g.type === 'Polygon') return [g.coordinates];
  if (g.type === 'MultiPolygon') return g.coordinates;
  return [];
}

export function linesOf(g: PlaceGeometry): Ring[] {
  if (g.type === 'LineString') return [g.coordinates];
  if (g.type === 'MultiLineString') return g.coordinates;
  if (g.type === 'Polygon') return g.coordinates;
  if (g.type === 'MultiPolygon') return g.coordinates.flat();
  return [];
}

/** Whether `test` holds for every vertex (stops at the first that fails; no arrays or closures created per call). */
export function everyVertex(g: PlaceGeometry, test: (x: number, y: number) => boolean): boolean {
  switch (g.type) {
    case 'Point':
      return test(g.coordinates[0], g.coordinates[1]);
    case 'MultiPoint':
    case 'LineString':
      for (const p of g.coordinates) if (!test(p[0], p[1])) return false;
      return true;
    case 'MultiLineString':
    case 'Polygon':
      for (const part of g.coordinates) for (const p of part) if (!test(p[0], p[1])) return false;
      return true;
    case 'MultiPolygon':
      for (const polygon of g.coordinates) for (const ring of polygon) for (const p of ring) if (!test(p[0], p[1])) return false;
      return true;
  }
}

/** Grows `b` to cover the positions (a plain loop: bboxOf runs several times for every feature of a load). */
function extend(b: Bbox, positions: readonly Position[]): void {
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i]!;
    const x = p[0];
    const y = p[1];
    if (x < b[0]) b[0] = x;
    if (y < b[1]) b[1] = y;
    if (x > b[2]) b[2] = x;
    if (y > b[3]) b[3] = y;
  }
}

export function bboxOf(g: PlaceGeometry): Bbox {
  if (g.type === 'Point') {
    const [x, y] = g.coordinates;
    return [x, y, x, y];
  }
  const b: Bbox = [Infinity, Infinity, -Infinity, -Infinity];
  switch (g.type) {
    case 'MultiPoint':
    case 'LineString':
      extend(b, g.coordinates);
      break;
    case 'MultiLineString':
    case 'Polygon':
      for (const part of g.coordinates) extend(b, part);
      break;
    case 'MultiPolygon':
      for (const polygon of g.coordinates) for (const ring of polygon) extend(b, ring);
  }
  return b;
}

/** Even-odd test against a ring stored as flat [x0, y0, x1, y1, ...]. */
export function inFlatRing(x: number, y: number, r: Float64Array): boolean {
  let inside = false;
  const n = r.length;
  for (let i = 0, j = n - 2; i < n; j = i, i += 2) {
    const xi = r[i]!;
    const yi = r[i + 1]!;
    const xj = r[j]!;
    const yj = r[j + 1]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export function inRing(x: number, y: number, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const xi = ring[i]![0];
    const yi = ring[i]![1];
    const xj = ring[j]![0];
    const yj = ring[j]![1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Planar area in square metres (local projection at the geometry's first vertex), holes subtracted. */
export function areaM2(g: PlaceGeometry): number {
  const polygons = polygonsOf(g);
  if (polygons.length === 0) return 0;
  const first = polygons[0]![0]![0]!;
  const k = Math.cos((first[1] * Math.PI) / 180) * METRES_PER_DEGREE * METRES_PER_DEGREE;
  let total = 0;
  for (const rings of polygons) {
    for (let r = 0; r < rings.length; r++) {
      const ring = rings[r]!;
      let sum = 0;
      for (let i = 0; i + 1 < ring.length; i++) sum += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
      const a = Math.abs(sum / 2) * k;
      total += r === 0 ? a : -a;
    }
  }
  return total;
}

export function pointSegment2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / len2;
  t = t < 0 ? 0 : Math.min(t , 1);
  const ex = ax + t * dx - px;
  const ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

export function segmentsCross(
  p1x: number, p1y: number, p2x: number, p2y: number,
  q1x: number, q1y: number, q2x: number, q2y: number,
): boolean {
  const d1 = (q2x - q1x) * (p1y - q1y) - (q2y - q1y) * (p1x - q1x);
  const d2 = (q2x - q1x) * (p2y - q1y) - (q2y - q1y) * (p2x - q1x);
  const d3 = (p2x - p1x) * (q1y - p1y) - (p2y - p1y) * (q1x - p1x);
  const d4 = (p2x - p1x) * (q2y - p1y) - (p2y - p1y) * (q2x - p1x);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/** Squared distance between two segments (planar); 0 when they cross. */
export function segmentDistance2(
  p1x: number, p1y: number, p2x: number, p2y: number,
  q1x: number, q1y: number, q2x: number, q2y: number,
): number {
  if (segmentsCross(p1x, p1y, p2x, p2y, q1x, q1y, q2x, q2y)) return 0;
  return Math.min(
    pointSegment2(p1x, p1y, q1x, q1y, q2x, q2y),
    pointSegment2(p2x, p2y, q1x, q1y, q2x, q2y),
    pointSegment2(q1x, q1y, p1x, p1y, p2x, p2y),
    pointSegment2(q2x, q2y, p1x, p1y, p2x, p2y),
  );
}

/**
 * The segments of a point (each vertex a segment of length 0) or of an area's rings, projected around
 * (minX, minY), as flat (ax, ay, bx, by): one buffer reused from call to call (the street lookup runs for
 * about half the features of a load), `length` numbers of it valid after `fill`.
 */
export class SegmentBuffer {
  data = new Float64Array(256);
  length = 0;

  private push(ax: number, ay: number, bx: number, by: number): void {
    if (this.length + 4 > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = ax;
    this.data[this.length++] = ay;
    this.data[this.length++] = bx;
    this.data[this.length++] = by;
  }

  fill(g: PlaceGeometry, isPoint: boolean, minX: number, minY: number, kx: number, ky: number): void {
    this.length = 0;
    if (g.type === 'Point') {
      const x = (g.coordinates[0] - minX) * kx;
      const y = (g.coordinates[1] - minY) * ky;
      this.push(x, y, x, y);
    } else if (isPoint) {
      everyVertex(g, (px, py) => {
        const x = (px - minX) * kx;
        const y = (py - minY) * ky;
        this.push(x, y, x, y);
        return true;
      });
    } else {
      for (const ring of linesOf(g)) {
        for (let i = 0; i + 1 < ring.length; i++) {
          this.push((ring[i]![0] - minX) * kx, (ring[i]![1] - minY) * ky, (ring[i + 1]![0] - minX) * kx, (ring[i + 1]![1] - minY) * ky);
        }
      }
    }
  }
}

export function inPolygon(x: number, y: number, rings: Float64Array[]): boolean {
  if (!inFlatRing(x, y, rings[0]!)) return false;
  for (let h = 1; h < rings.length; h++) if (inFlatRing(x, y, rings[h]!)) return false;
  return true;
}

export function insideArea(g: PlaceGeometry, x: number, y: number): boolean {
  return polygonsOf(g).some((rings) => inRing(x, y, rings[0]!) && !rings.slice(1).some((hole) => inRing(x, y, hole)));
}
