/**
 * `fn` with its result kept per argument, for pure functions that a bulk load calls with the same few
 * thousand values again and again (words, tag values). Bounded: the memory is emptied when it holds `max`
 * entries, so an endless stream of new arguments cannot grow it.
 */
export function memoizeBounded<T>(fn: (key: string) => T, max: number): (key: string) => T {
  const memory = new Map<string, T>();
  return (key) => {
    const known = memory.get(key);
    if (known !== undefined || memory.has(key)) return known as T;
    const value = fn(key);
    if (memory.size >= max) memory.clear();
    memory.set(key, value);
    return value;
  };
}
