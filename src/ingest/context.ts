/**
 * Spatial context for descriptions: the neighbourhood a place is in and the street it is on.
 *
 * Computed in TypeScript over two reference layers (named neighbourhood polygons, named street lines)
 * instead of SQL joins: in the embedded database (PostGIS in WASM) the nearest-street join of the 24k
 * Midtown places that need one took 12-19 s on geography and the neighbourhood join 3-5 s, against well
 * under a second for the grid lookups here.
 *
 * Rules (facts of the data only, nothing guessed):
 * - neighbourhood: the smallest named `neighbourhood` polygon containing the place: a point inside it,
 *   or every vertex of a line or polygon inside the same polygon (a street crossing two gets none);
 * - street: only for points and small areas (at most SMALL_AREA_M2, e.g. buildings) whose tags give no
 *   address (`addr:street`, `addr:full`), and not for streets themselves: the named street line nearest
 *   to them within STREET_DISTANCE_M (ties by name). Lines get no street.
 * Distances use a local equirectangular projection around each place (centimetre accuracy at 40 m).
 */
import type { PlaceGeometry, Position } from './feature.ts';

/** "The street it is on": the nearest named street within this distance. */
export const STREET_DISTANCE_M = 40;
/** Areas larger than this (parks, campuses) border several streets: they get no street. */
export const SMALL_AREA_M2 = 10_000;

const METRES_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;

export interface PlaceContext {
  street?: string;
  neighbourhood?: string;
}

/** What the context rules look at. */
export interface ContextSubject {
  category: string | null;
  tags: Readonly<Record<string, string>>;
  geometry: PlaceGeometry;
}

type Ring = readonly Position[];
type Bbox = [minX: number, minY: number, maxX: number, maxY: number];

function polygonsOf(g: PlaceGeometry): (readonly Ring[])[] {
  if (g.type === 'Polygon') return [g.coordinates];
  if (g.type === 'MultiPolygon') return g.coordinates;
  return [];
}

function linesOf(g: PlaceGeometry): Ring[] {
  if (g.type === 'LineString') return [g.coordinates];
  if (g.type === 'MultiLineString') return g.coordinates;
  if (g.type === 'Polygon') return g.coordinates;
  if (g.type === 'MultiPolygon') return g.coordinates.flat();
  return [];
}

/** Whether `test` holds for every vertex (stops at the first that fails; no arrays or closures created per call). */
function everyVertex(g: PlaceGeometry, test: (x: number, y: number) => boolean): boolean {
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
function inFlatRing(x: number, y: number, r: Float64Array): boolean {
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

function inRing(x: number, y: number, ring: Ring): boolean {
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

/** Whether a place may get a street: see the rules at the top of this file. */
export function mayHaveStreet(place: ContextSubject): boolean {
  if (place.category === 'street' || place.category === 'neighbourhood') return false;
  if (place.tags['addr:street'] || place.tags['addr:full']) return false;
  const t = place.geometry.type;
  if (t === 'Point' || t === 'MultiPoint') return true;
  if (t === 'Polygon' || t === 'MultiPolygon') return areaM2(place.geometry) <= SMALL_AREA_M2;
  return false;
}

/**
 * A uniform grid over lon/lat cells holding item numbers; an item is in every cell its bbox touches.
 * `candidates` returns each item once per query (a stamp per item instead of a set).
 */
class Grid {
  private readonly cells = new Map<number, number[]>();
  private stamps = new Int32Array(64);
  private query = 0;
  private readonly out: number[] = [];

  constructor(private readonly cell: number) {}

  /**
   * 15 bits of each cell number: the key stays a small integer (no boxed double per lookup). Cells 32,768
   * apart share a key; that only adds candidates, which every caller measures exactly anyway.
   */
  private static key(ix: number, iy: number): number {
    return ((ix & 0x7fff) << 15) | (iy & 0x7fff);
  }

  add(item: number, minX: number, minY: number, maxX: number, maxY: number): void {
    if (item >= this.stamps.length) {
      const stamps = new Int32Array(Math.max(item + 1, this.stamps.length * 2));
      stamps.set(this.stamps);
      this.stamps = stamps;
    }
    const x1 = Math.floor(maxX / this.cell);
    const y1 = Math.floor(maxY / this.cell);
    for (let ix = Math.floor(minX / this.cell); ix <= x1; ix++) {
      for (let iy = Math.floor(minY / this.cell); iy <= y1; iy++) {
        const k = Grid.key(ix, iy);
        const list = this.cells.get(k);
        if (list) list.push(item);
        else this.cells.set(k, [item]);
      }
    }
  }

  /** The items in the cells a bbox touches (a shared array, valid until the next call). */
  candidates(minX: number, minY: number, maxX: number, maxY: number): readonly number[] {
    const out = this.out;
    out.length = 0;
    const stamp = ++this.query;
    const x1 = Math.floor(maxX / this.cell);
    const y1 = Math.floor(maxY / this.cell);
    for (let ix = Math.floor(minX / this.cell); ix <= x1; ix++) {
      for (let iy = Math.floor(minY / this.cell); iy <= y1; iy++) {
        const list = this.cells.get(Grid.key(ix, iy));
        if (!list) continue;
        for (const item of list) {
          if (this.stamps[item] === stamp) continue;
          this.stamps[item] = stamp;
          out.push(item);
        }
      }
    }
    return out;
  }
}

function pointSegment2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / len2;
  t = t < 0 ? 0 : Math.min(t , 1);
  const ex = ax + t * dx - px;
  const ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

function segmentsCross(
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
function segmentDistance2(
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

/** About 55 m: a 40 m window around a point touches at most 3 x 3 cells. */
const STREET_CELL_DEGREES = 0.0005;
/** Neighbourhood polygons are large; a coarse grid of their bboxes finds the candidates. */
const AREA_CELL_DEGREES = 0.01;

interface Area {
  name: string;
  bbox: Bbox;
  /** Per polygon: outer ring, then holes, each flat [x, y, ...]. */
  polygons: Float64Array[][];
  size: number;
}

/** The reference layers and the lookups over them; layers grow while a load streams. */
export class ContextIndex {
  private readonly areas: Area[] = [];
  private readonly areaKeys = new Set<string>();
  private readonly areaGrid = new Grid(AREA_CELL_DEGREES);
  /** Street segments as flat coordinates (ax, ay, bx, by) and the number of their street's name. */
  private readonly segments: number[] = [];
  private readonly segmentStreet: number[] = [];
  private readonly streetNames: string[] = [];
  private readonly streetIds = new Map<string, number>();
  private readonly streetKeys = new Set<string>();
  private readonly streetGrid = new Grid(STREET_CELL_DEGREES);

  get size(): { neighbourhoods: number; streetSegments: number } {
    return { neighbourhoods: this.areas.length, streetSegments: this.segmentStreet.length };
  }

  /** Adds a named neighbourhood polygon; `key` (e.g. source/source id) ignores one added twice. */
  addNeighbourhood(name: string, geometry: PlaceGeometry, key?: string): void {
    if (key !== undefined) {
      if (this.areaKeys.has(key)) return;
      this.areaKeys.add(key);
    }
    const polygons = polygonsOf(geometry);
    if (polygons.length === 0) return;
    const [minX, minY, maxX, maxY] = bboxOf(geometry);
    this.areaGrid.add(this.areas.length, minX, minY, maxX, maxY);
    this.areas.push({
      name,
      bbox: [minX, minY, maxX, maxY],
      polygons: polygons.map((rings) => rings.map((ring) => Float64Array.from(ring.flat()))),
      size: areaM2(geometry),
    });
  }

  /** Adds a named street line; `key` ignores one added twice. */
  addStreet(name: string, geometry: PlaceGeometry, key?: string): void {
    if (key !== undefined) {
      if (this.streetKeys.has(key)) return;
      this.streetKeys.add(key);
    }
    let id = this.streetIds.get(name);
    if (id === undefined) {
      id = this.streetNames.length;
      this.streetIds.set(name, id);
      this.streetNames.push(name);
    }
    for (const line of linesOf(geometry)) {
      for (let i = 0; i + 1 < line.length; i++) {
        const [ax, ay] = line[i]!;
        const [bx, by] = line[i + 1]!;
        const s = this.segmentStreet.length;
        this.segments.push(ax, ay, bx, by);
        this.segmentStreet.push(id);
        this.streetGrid.add(s, Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
      }
    }
  }

  /** The smallest neighbourhood containing the whole geometry, if any. */
  neighbourhoodOf(g: PlaceGeometry): string | undefined {
    if (this.areas.length === 0) return undefined;
    const [minX, minY, maxX, maxY] = bboxOf(g);
    if (minX > maxX) return undefined; // no vertices
    let best: Area | undefined;
    for (const i of this.areaGrid.candidates(minX, minY, maxX, maxY)) {
      const area = this.areas[i]!;
      if (best && area.size >= best.size) continue;
      const b = area.bbox;
      if (minX < b[0] || minY < b[1] || maxX > b[2] || maxY > b[3]) continue;
      for (const rings of area.polygons) {
        const inside = g.type === 'Point'
          ? inPolygon(g.coordinates[0], g.coordinates[1], rings)
          : everyVertex(g, (x, y) => inPolygon(x, y, rings));
        if (inside) {
          best = area;
          break;
        }
      }
    }
    return best?.name;
  }

  /** The named street nearest to a point or small area within STREET_DISTANCE_M, if any. */
  streetNear(g: PlaceGeometry): string | undefined {
    if (this.segmentStreet.length === 0) return undefined;
    const isPoint = g.type === 'Point' || g.type === 'MultiPoint';
    if (!isPoint && g.type !== 'Polygon' && g.type !== 'MultiPolygon') return undefined;
    const [minX, minY, maxX, maxY] = bboxOf(g);
    // Local projection with its origin at the place: x scaled by cos(latitude), both axes in metres.
    const kx = Math.max(Math.cos((((minY + maxY) / 2) * Math.PI) / 180), 1e-6) * METRES_PER_DEGREE;
    const ky = METRES_PER_DEGREE;
    const dx = STREET_DISTANCE_M / kx;
    const dy = STREET_DISTANCE_M / ky;
    // The place as segments in that projection (a point is a segment of length 0), in a buffer reused
    // across calls: this runs for about half the features of a load.
    const own = ownSegments(g, isPoint, minX, minY, kx, ky);
    const n = ownLength;
    // The place's bbox in the projection is [0, w] x [0, h].
    const w = (maxX - minX) * kx;
    const h = (maxY - minY) * ky;
    let bestD2 = STREET_DISTANCE_M * STREET_DISTANCE_M;
    let best: string | undefined;
    const s = this.segments;
    for (const i of this.streetGrid.candidates(minX - dx, minY - dy, maxX + dx, maxY + dy)) {
      const o = i * 4;
      const qax = (s[o]! - minX) * kx;
      const qay = (s[o + 1]! - minY) * ky;
      const qbx = (s[o + 2]! - minX) * kx;
      const qby = (s[o + 3]! - minY) * ky;
      // The distance between the two bboxes is a lower bound of the segment's distance: most candidates
      // of the grid cells are farther than the best so far and need no exact distance. The margin
      // (1 mm², far above rounding) keeps every candidate that could tie, so the result is unchanged.
      const gx = Math.max(0, Math.min(qax, qbx) - w, -Math.max(qax, qbx));
      const gy = Math.max(0, Math.min(qay, qby) - h, -Math.max(qay, qby));
      if (gx * gx + gy * gy > bestD2 + 1e-6) continue;
      let d2 = Infinity;
      for (let e = 0; e < n && d2 > 0; e += 4) {
        const d = isPoint
          ? pointSegment2(own[e]!, own[e + 1]!, qax, qay, qbx, qby)
          : segmentDistance2(own[e]!, own[e + 1]!, own[e + 2]!, own[e + 3]!, qax, qay, qbx, qby);
        if (d < d2) d2 = d;
      }
      // A street segment lying inside the area (through a courtyard) touches it.
      if (!isPoint && d2 > 0 && s[o]! >= minX && s[o]! <= maxX && s[o + 1]! >= minY && s[o + 1]! <= maxY && insideArea(g, s[o]!, s[o + 1]!)) d2 = 0;
      if (d2 > bestD2) continue;
      const name = this.streetNames[this.segmentStreet[i]!]!;
      // Nearest first; equal distances (a corner) are decided by name, so the result never depends on order.
      if (d2 < bestD2 || best === undefined || name < best) {
        bestD2 = d2;
        best = name;
      }
    }
    return best;
  }

  /** Context for one place, following the rules at the top of this file. */
  contextOf(place: ContextSubject): PlaceContext {
    const context: PlaceContext = {};
    if (place.category !== 'neighbourhood') {
      const neighbourhood = this.neighbourhoodOf(place.geometry);
      if (neighbourhood) context.neighbourhood = neighbourhood;
    }
    if (mayHaveStreet(place)) {
      const street = this.streetNear(place.geometry);
      if (street) context.street = street;
    }
    return context;
  }
}

/** Reused by ownSegments; `ownLength` numbers of it are valid after a call. */
let ownBuffer = new Float64Array(256);
let ownLength = 0;

function ownPush(ax: number, ay: number, bx: number, by: number): void {
  if (ownLength + 4 > ownBuffer.length) {
    const grown = new Float64Array(ownBuffer.length * 2);
    grown.set(ownBuffer);
    ownBuffer = grown;
  }
  ownBuffer[ownLength++] = ax;
  ownBuffer[ownLength++] = ay;
  ownBuffer[ownLength++] = bx;
  ownBuffer[ownLength++] = by;
}

/**
 * The segments of a point (each vertex a segment of length 0) or of an area's rings, projected around
 * (minX, minY), as flat (ax, ay, bx, by) in the shared buffer; valid until the next call.
 */
function ownSegments(g: PlaceGeometry, isPoint: boolean, minX: number, minY: number, kx: number, ky: number): Float64Array {
  ownLength = 0;
  if (g.type === 'Point') {
    const x = (g.coordinates[0] - minX) * kx;
    const y = (g.coordinates[1] - minY) * ky;
    ownPush(x, y, x, y);
  } else if (isPoint) {
    everyVertex(g, (px, py) => {
      const x = (px - minX) * kx;
      const y = (py - minY) * ky;
      ownPush(x, y, x, y);
      return true;
    });
  } else {
    for (const ring of linesOf(g)) {
      for (let i = 0; i + 1 < ring.length; i++) {
        ownPush((ring[i]![0] - minX) * kx, (ring[i]![1] - minY) * ky, (ring[i + 1]![0] - minX) * kx, (ring[i + 1]![1] - minY) * ky);
      }
    }
  }
  return ownBuffer;
}

function inPolygon(x: number, y: number, rings: Float64Array[]): boolean {
  if (!inFlatRing(x, y, rings[0]!)) return false;
  for (let h = 1; h < rings.length; h++) if (inFlatRing(x, y, rings[h]!)) return false;
  return true;
}

function insideArea(g: PlaceGeometry, x: number, y: number): boolean {
  return polygonsOf(g).some((rings) => inRing(x, y, rings[0]!) && !rings.slice(1).some((hole) => inRing(x, y, hole)));
}
