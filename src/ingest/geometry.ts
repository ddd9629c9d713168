/**
 * Small planar geometry helpers shared by the readers: ring orientation (RFC 7946 wants exteriors
 * counter-clockwise and holes clockwise), point-in-ring, and validation of untrusted GeoJSON/WKT input.
 * Lon/lat are treated as planar: orientation and containment do not need geodesic accuracy.
 */
import type { PlaceGeometry, Position } from './feature.ts';

/** Twice the signed area of a closed ring (shoelace); > 0 means counter-clockwise. */
export function ringSignedArea2(ring: readonly Position[]): number {
  let sum = 0;
  for (let i = 0, n = ring.length - 1; i < n; i++) {
    const a = ring[i]!;
    const b = ring[i + 1]!;
    sum += a[0] * b[1] - b[0] * a[1];
  }
  return sum;
}

/** Returns the ring in the wanted orientation (reversed copy when needed). */
export function orientRing(ring: Position[], counterClockwise: boolean): Position[] {
  const ccw = ringSignedArea2(ring) > 0;
  return ccw === counterClockwise ? ring : ring.slice().reverse();
}

/** Polygon rings in RFC 7946 orientation: first ring CCW, the others CW. */
export function orientPolygon(rings: Position[][]): Position[][] {
  return rings.map((ring, i) => orientRing(ring, i === 0));
}

/** Even-odd ray casting; points exactly on the boundary may go either way. */
export function pointInRing(p: Position, ring: readonly Position[]): boolean {
  const [x, y] = p;
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Rewinds polygons to RFC 7946 orientation; other geometries are returned unchanged. */
export function orientGeometry(g: PlaceGeometry): PlaceGeometry {
  if (g.type === 'Polygon') return { type: 'Polygon', coordinates: orientPolygon(g.coordinates) };
  if (g.type === 'MultiPolygon') return { type: 'MultiPolygon', coordinates: g.coordinates.map(orientPolygon) };
  return g;
}

const GEOMETRY_TYPES = new Set(['Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon']);

/**
 * Checks an untrusted geometry and returns a clean copy ([lon, lat] only, polygons oriented).
 * Throws an Error whose message is the problem in words; callers wrap it into an IngestError.
 */
export function parseGeometry(value: unknown): PlaceGeometry {
  if (value === null || value === undefined) throw new Error('geometry is missing (null)');
  if (typeof value !== 'object') throw new Error(`geometry must be an object, got ${typeof value}`);
  const g = value as { type?: unknown; coordinates?: unknown };
  if (g.type === 'GeometryCollection') throw new Error('GeometryCollection is not supported; split it into features');
  if (typeof g.type !== 'string' || !GEOMETRY_TYPES.has(g.type)) throw new Error(`unknown geometry type ${JSON.stringify(g.type)}`);
  const c = g.coordinates;
  switch (g.type) {
    case 'Point':
      return { type: 'Point', coordinates: position(c, 'coordinates') };
    case 'MultiPoint':
      return { type: 'MultiPoint', coordinates: array(c, 'coordinates').map((p, i) => position(p, `coordinates[${i}]`)) };
    case 'LineString':
      return { type: 'LineString', coordinates: line(c, 'coordinates') };
    case 'MultiLineString':
      return { type: 'MultiLineString', coordinates: array(c, 'coordinates').map((l, i) => line(l, `coordinates[${i}]`)) };
    case 'Polygon':
      return { type: 'Polygon', coordinates: orientPolygon(polygon(c, 'coordinates')) };
    default:
      return {
        type: 'MultiPolygon',
        coordinates: array(c, 'coordinates').map((p, i) => orientPolygon(polygon(p, `coordinates[${i}]`))),
      };
  }
}

function array(v: unknown, where: string): unknown[] {
  if (!Array.isArray(v)) throw new Error(`${where} must be an array`);
  return v;
}

function position(v: unknown, where: string): Position {
  const a = array(v, where);
  if (a.length < 2) throw new Error(`${where} must have at least 2 numbers, got ${a.length}`);
  const [lon, lat] = a;
  if (typeof lon !== 'number' || !Number.isFinite(lon) || typeof lat !== 'number' || !Number.isFinite(lat)) {
    throw new Error(`${where} has a non-finite coordinate ${JSON.stringify(a)}`);
  }
  if (lon < -180 || lon > 180) throw new Error(`${where} longitude ${lon} is outside [-180, 180]`);
  if (lat < -90 || lat > 90) throw new Error(`${where} latitude ${lat} is outside [-90, 90] (are lon and lat swapped?)`);
  return [lon, lat];
}

function line(v: unknown, where: string): Position[] {
  const pts = array(v, where).map((p, i) => position(p, `${where}[${i}]`));
  if (pts.length < 2) throw new Error(`${where}: a line needs at least 2 positions, got ${pts.length}`);
  return pts;
}

function polygon(v: unknown, where: string): Position[][] {
  const rings = array(v, where).map((r, i) => {
    const ring = array(r, `${where}[${i}]`).map((p, j) => position(p, `${where}[${i}][${j}]`));
    if (ring.length < 4) throw new Error(`${where}[${i}]: a ring needs at least 4 positions, got ${ring.length}`);
    const first = ring[0]!;
    const last = ring[ring.length - 1]!;
    if (first[0] !== last[0] || first[1] !== last[1]) {
      throw new Error(`${where}[${i}]: ring is not closed (first ${JSON.stringify(first)} != last ${JSON.stringify(last)})`);
    }
    return ring;
  });
  if (rings.length === 0) throw new Error(`${where}: a polygon needs at least one ring`);
  return rings;
}
