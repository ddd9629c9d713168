import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** One JSON value a line; a `.gz` file is read through gunzip (the larger check sets are stored compressed). */
export function readJsonLines<T>(path: string): T[] {
  const bytes = readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}
