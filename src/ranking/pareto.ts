/** Indices of the points not dominated by any other (higher is better on both axes). */
export function paretoFront(points: ReadonlyArray<readonly [number, number]>): Set<number> {
  const front = new Set<number>();
  points.forEach(([x, y], i) => {
    const dominated = points.some(
      ([ox, oy], j) => j !== i && ox >= x && oy >= y && (ox > x || oy > y),
    );
    if (!dominated) front.add(i);
  });
  return front;
}
