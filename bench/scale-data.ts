/**
 * Synthetic growth of the Midtown data for the scale benchmark (`npm run bench -- scale`): copies of the
 * extract laid side by side in a grid of tiles, so the table grows while the density of places per km² (what
 * the spatial pools and windows of a question see) stays that of a real city. Pure: no I/O, deterministic.
 *
 * - Tile 0 is the original data, untouched (names, ids, coordinates), so the dev questions still resolve
 *   their references to the real landmarks; tiles 1, 2, … spiral outwards around it.
 * - A tile is shifted by a whole number of city blocks (the extract's extent rounded up to blocks), so
 *   copies neither overlap nor leave gaps, like more of the same city.
 * - Every copied feature is moved by a small jitter (the same for all its vertices, so polygons and lines
 *   keep their shape and validity) and its name gets the tile as a suffix: copies are not exact
 *   duplicates, which would flatter the indexes (identical keys) and the name lookups.
 */
import type { PlaceFeature, PlaceGeometry, Position } from '../src/ingest/feature.ts';

/** A Manhattan block: ~80 m between streets (north-south), ~250 m between avenues (east-west), in degrees at 40.75° N. */
export const BLOCK_DEG: Position = [0.003, 0.0008];
/** Largest jitter of a copied feature, in degrees (~5 m). */
export const JITTER_DEG = 0.00005;

export type Bounds = [number, number, number, number];

/** [column, row] of tile `t` on a square spiral around tile 0 at [0, 0]: rings of 8, 16, 24, … tiles. */
export function tileCell(t: number): [number, number] {
  if (t === 0) return [0, 0];
  const ring = Math.ceil((Math.sqrt(t + 1) - 1) / 2);
  const side = 2 * ring;
  // Position along the ring (8 * ring tiles), counter-clockwise from just above its bottom-right corner.
  let k = t - (2 * ring - 1) ** 2;
  if (k < side) return [ring, -ring + 1 + k];
  k -= side;
  if (k < side) return [ring - 1 - k, ring];
  k -= side;
  if (k < side) return [-ring, ring - 1 - k];
  k -= side;
  return [-ring + 1 + k, -ring];
}

/** The shift between neighbouring tiles: the extent of the data rounded up to whole blocks. */
export function tileStep(bounds: Bounds, block: Position = BLOCK_DEG): Position {
  return [Math.ceil((bounds[2] - bounds[0]) / block[0]) * block[0], Math.ceil((bounds[3] - bounds[1]) / block[1]) * block[1]];
}

export function boundsOfFeatures(features: Iterable<PlaceFeature>): Bounds {
  const b: Bounds = [Infinity, Infinity, -Infinity, -Infinity];
  for (const f of features) {
    forEachPosition(f.geometry, ([x, y]) => {
      b[0] = Math.min(b[0], x);
      b[1] = Math.min(b[1], y);
      b[2] = Math.max(b[2], x);
      b[3] = Math.max(b[3], y);
    });
  }
  return b;
}

function forEachPosition(g: PlaceGeometry, fn: (p: Position) => void): void {
  const visit = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') fn(c as Position);
    else if (Array.isArray(c)) c.forEach(visit);
  };
  visit(g.coordinates);
}

function mapPositions(g: PlaceGeometry, fn: (p: Position) => Position): PlaceGeometry {
  const map = (c: unknown): unknown => (Array.isArray(c) && typeof c[0] === 'number' ? fn(c as Position) : (c as unknown[]).map(map));
  return { type: g.type, coordinates: map(g.coordinates) } as PlaceGeometry;
}

/** A deterministic number in [-1, 1) from a string (FNV-1a), so a copy's jitter is the same on every run. */
export function unitHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return ((h >>> 0) / 0x100000000) * 2 - 1;
}

/** The copy of a feature in tile `t` (t >= 1): shifted by whole tiles plus its jitter, name and id suffixed. */
export function copyFeature(f: PlaceFeature, t: number, step: Position, jitter = JITTER_DEG): PlaceFeature {
  const [col, row] = tileCell(t);
  const dx = col * step[0] + unitHash(`${f.sourceId}@${t}/x`) * jitter;
  const dy = row * step[1] + unitHash(`${f.sourceId}@${t}/y`) * jitter;
  return {
    ...f,
    sourceId: `${f.sourceId}@t${t}`,
    name: f.name === null ? null : `${f.name} · t${t}`,
    // A copy's prose (if any) would still name the original; a description from tags is rebuilt by the loader.
    tags: { ...f.tags },
    geometry: mapPositions(f.geometry, ([x, y]) => [round7(x + dx), round7(y + dy)]),
  };
}

function round7(v: number): number {
  return Math.round(v * 1e7) / 1e7;
}

/**
 * `n` features: the original extract (tile 0), then the extra points (Wikivoyage), then copies of the
 * extract tile after tile, cut at `n`. Below the size of the extract, only its first `n` features (for OSM
 * data, its nodes: shops and amenities before the ways of streets and buildings).
 */
export function* scaleFeatures(base: PlaceFeature[], extra: PlaceFeature[], n: number, step: Position): Generator<PlaceFeature> {
  let emitted = 0;
  for (const f of base) {
    if (emitted++ >= n) return;
    yield f;
  }
  for (const f of extra) {
    if (emitted++ >= n) return;
    yield f;
  }
  if (base.length === 0) return;
  for (let t = 1; ; t++) {
    for (const f of base) {
      if (emitted++ >= n) return;
      yield copyFeature(f, t, step);
    }
  }
}
