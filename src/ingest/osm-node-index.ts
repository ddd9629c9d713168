import type { Position } from './feature.js';

/**
 * Node coordinates, sorted by id for binary search: ids as float64 (OSM ids exceed 2^32 but stay
 * far below 2^53) and lon/lat as int32 in 1e-7 degrees, OSM's own precision.
 */
export class NodeIndex {
  private ids = new Float64Array(1 << 16);
  private lons = new Int32Array(1 << 16);
  private lats = new Int32Array(1 << 16);
  private size = 0;
  private sorted = true;

  add(id: number, lon: number, lat: number): void {
    if (this.size === this.ids.length) this.grow();
    if (this.size > 0 && id <= this.ids[this.size - 1]!) this.sorted = false;
    this.ids[this.size] = id;
    this.lons[this.size] = Math.round(lon * 1e7);
    this.lats[this.size] = Math.round(lat * 1e7);
    this.size++;
  }

  private grow(): void {
    const n = this.ids.length * 2;
    const ids = new Float64Array(n);
    ids.set(this.ids);
    const lons = new Int32Array(n);
    lons.set(this.lons);
    const lats = new Int32Array(n);
    lats.set(this.lats);
    this.ids = ids;
    this.lons = lons;
    this.lats = lats;
  }

  /** Sorts once if nodes came out of order inside the node section (rare, but cheap to support). */
  finish(): void {
    if (this.sorted) return;
    const order = Array.from({ length: this.size }, (_, i) => i).sort((a, b) => this.ids[a]! - this.ids[b]!);
    const ids = new Float64Array(this.size);
    const lons = new Int32Array(this.size);
    const lats = new Int32Array(this.size);
    order.forEach((from, to) => {
      ids[to] = this.ids[from]!;
      lons[to] = this.lons[from]!;
      lats[to] = this.lats[from]!;
    });
    this.ids = ids;
    this.lons = lons;
    this.lats = lats;
    this.sorted = true;
  }

  get count(): number {
    return this.size;
  }

  /** [lon, lat] of a node, or undefined when the file does not have it. */
  get(id: number): Position | undefined {
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.ids[mid]!;
      if (v < id) lo = mid + 1;
      else if (v > id) hi = mid - 1;
      else return [this.lons[mid]! / 1e7, this.lats[mid]! / 1e7];
    }
    return undefined;
  }
}
