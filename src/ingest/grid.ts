/**
 * A uniform grid over lon/lat cells holding item numbers, for the candidate lookups of context.ts.
 */

/**
 * A uniform grid over lon/lat cells holding item numbers; an item is in every cell its bbox touches.
 * `candidates` returns each item once per query (a stamp per item instead of a set).
 */
export class Grid {
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
