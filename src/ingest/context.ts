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
import type { PlaceGeometry } from './feature.ts';
import {
  areaM2, bboxOf, everyVertex, inPolygon, insideArea, linesOf, METRES_PER_DEGREE, pointSegment2, polygonsOf, segmentDistance2,
  SegmentBuffer, type Bbox,
} from './context-geometry.ts';
import { Grid } from './grid.ts';

export { areaM2, bboxOf };

/** "The street it is on": the nearest named street within this distance. */
export const STREET_DISTANCE_M = 40;
/** Areas larger than this (parks, campuses) border several streets: they get no street. */
export const SMALL_AREA_M2 = 10_000;

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

/** Whether a place may get a street: see the rules at the top of this file. */
export function mayHaveStreet(place: ContextSubject): boolean {
  if (place.category === 'street' || place.category === 'neighbourhood') return false;
  if (place.tags['addr:street'] || place.tags['addr:full']) return false;
  const t = place.geometry.type;
  if (t === 'Point' || t === 'MultiPoint') return true;
  if (t === 'Polygon' || t === 'MultiPolygon') return areaM2(place.geometry) <= SMALL_AREA_M2;
  return false;
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
  private readonly own = new SegmentBuffer();

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
    this.own.fill(g, isPoint, minX, minY, kx, ky);
    const own = this.own.data;
    const n = this.own.length;
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
