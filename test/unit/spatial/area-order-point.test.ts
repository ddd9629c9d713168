import { describe, expect, it } from 'vitest';
import type { GeoJsonGeometry } from '../../../src/spatial/resolve.ts';
import { areaOrderPoint, type Envelope } from '../../../src/spatial/windows.ts';

const square = (x: number, y: number, size: number) => [[[x, y], [x + size, y], [x + size, y + size], [x, y + size], [x, y]]];

describe('where the pools of an area start', () => {
  it('is the middle of the window when it lies in the area', () => {
    const area = { type: 'Polygon', coordinates: square(10, 20, 2) } as GeoJsonGeometry;
    expect(areaOrderPoint(area, [10, 20, 12, 22])).toEqual({ type: 'Point', coordinates: [11, 21] });
  });

  it('is inside the largest part when the window spans far-apart parts', () => {
    // A large mainland and two small islands across an ocean: the window's middle is in open water.
    const area = { type: 'MultiPolygon', coordinates: [square(2, 44, 6), square(-60, 14, 0.5), square(55, -21, 0.5)] } as GeoJsonGeometry;
    const window: Envelope = [-60, -21, 8, 50];
    const point = areaOrderPoint(area, window).coordinates as number[];
    expect(point[0]).toBeGreaterThan(2);
    expect(point[0]).toBeLessThan(8);
    expect(point[1]).toBeGreaterThan(44);
    expect(point[1]).toBeLessThan(50);
  });

  it('is inside a ring-shaped part, not in its hole', () => {
    // A C-shaped part (a square with a bite out of its middle row): the middle of its box is in the bite.
    const c = [[[0, 0], [6, 0], [6, 2], [2, 2], [2, 4], [6, 4], [6, 6], [0, 6], [0, 0]]];
    const area = { type: 'MultiPolygon', coordinates: [c, square(40, 40, 0.1)] } as GeoJsonGeometry;
    const [x, y] = areaOrderPoint(area, [0, 0, 40.1, 40.1]).coordinates as number[];
    expect(y).toBe(3);
    expect(x).toBeGreaterThan(0);
    expect(x).toBeLessThan(2);
  });
});
