import type { FieldError } from '../problem.ts';

/** JSON nested deeper than this is refused (GeoJSON needs about 8 levels). */
export const MAX_JSON_DEPTH = 64;

/** A field path as the problem documents write it: `features.3.properties.name`. */
function fieldPath(path: readonly (string | number)[]): string {
  return path.length ? path.join('.').slice(0, 300) : '(root)';
}

/**
 * Walks parsed JSON without recursion (no stack overflow on hostile nesting): the first value nested
 * deeper than {@link MAX_JSON_DEPTH}, or (unless `nul` is false) the first string or key with a NUL
 * character, is an error.
 */
export function checkJsonValue(value: unknown, { nul = true }: { nul?: boolean } = {}): FieldError | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (nul && v.includes('\u0000')) return { in: 'body', field: fieldPath(path), message: 'must not contain NUL (U+0000) characters' };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (path.length >= MAX_JSON_DEPTH) {
      return { in: 'body', field: fieldPath(path), message: `nested deeper than ${MAX_JSON_DEPTH} levels` };
    }
    // Numbers, booleans and null (most of a GeoJSON body) are skipped without building a path.
    const visit = (child: unknown, key: string | number) => {
      if (typeof child === 'string' || (child !== null && typeof child === 'object')) stack.push({ value: child, path: [...path, key] });
    };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) visit(v[i], i);
    } else {
      for (const [key, child] of Object.entries(v)) {
        if (nul && key.includes('\u0000')) return { in: 'body', field: fieldPath([...path, key]), message: 'field names must not contain NUL (U+0000) characters' };
        visit(child, key);
      }
    }
  }
  return undefined;
}
