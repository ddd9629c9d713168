/**
 * Places as newline-delimited JSON (`application/x-ndjson`): one place record per line, exactly the
 * loader's input. `npm run ingest -- --url` reads any supported file on the client and streams the records
 * to the running service, which loads them in one transaction as they arrive: the one safe way to load
 * into an embedded database that a service holds (one process per data directory).
 */
import { z } from 'zod';
import { IngestError, type PlaceFeature } from './feature.ts';
import { parseGeometry } from './geometry.ts';

export const PLACE_STREAM_TYPE = 'application/x-ndjson';

export function isPlaceStream(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === PLACE_STREAM_TYPE;
}

/** One line can hold a large polygon (a borough, a long street), but not an unbounded one. */
export const MAX_PLACE_LINE_BYTES = 32 * 1024 * 1024;

const SOURCE = /^[A-Za-z0-9_.:-]{1,64}$/;

const placeRecord = z.strictObject({
  source: z.string().regex(SOURCE, 'letters, digits, _ . : - (at most 64)').optional(),
  sourceId: z.string().min(1).max(512),
  name: z.string().max(1000).nullable(),
  category: z.string().max(200).nullable(),
  tags: z.record(z.string(), z.string()),
  description: z.string().max(100_000),
  descriptionFromTags: z.boolean().optional(),
  geometry: z.unknown(),
});

/** The line for one place (what the client sends). */
export function placeLine(place: PlaceFeature): string {
  return `${JSON.stringify(place)}\n`;
}

function toPlace(text: string, line: number, defaultSource: string): PlaceFeature {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new IngestError('request body', `line ${line}`, 'not valid JSON');
  }
  const parsed = placeRecord.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new IngestError('request body', `line ${line}`, `${issue.path.join('.') || '(record)'}: ${issue.message}`);
  }
  let geometry: PlaceFeature['geometry'];
  try {
    geometry = parseGeometry(parsed.data.geometry);
  } catch (error) {
    throw new IngestError('request body', `line ${line}`, `geometry: ${(error as Error).message}`);
  }
  const { source, descriptionFromTags, ...rest } = parsed.data;
  return { ...rest, source: source ?? defaultSource, geometry, ...(descriptionFromTags !== undefined ? { descriptionFromTags } : {}) };
}

/**
 * Reads place records from a byte stream, line by line, without holding more than one line: a bad line
 * throws an IngestError naming it (the caller's transaction then leaves the database as it was).
 */
export async function* readPlaceStream(body: ReadableStream<Uint8Array>, defaultSource: string): AsyncGenerator<PlaceFeature> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pending = '';
  let line = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      let text: string;
      try {
        text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      } catch {
        throw new IngestError('request body', `line ${line + 1}`, 'not valid UTF-8');
      }
      pending += text;
      let start = 0;
      let newline: number;
      while ((newline = pending.indexOf('\n', start)) >= 0) {
        const current = pending.slice(start, newline).trim();
        start = newline + 1;
        line++;
        if (current !== '') yield toPlace(current, line, defaultSource);
      }
      pending = pending.slice(start);
      if (pending.length > MAX_PLACE_LINE_BYTES) {
        throw new IngestError('request body', `line ${line + 1}`, `longer than ${MAX_PLACE_LINE_BYTES} bytes`);
      }
      if (done) break;
    }
    if (pending.trim() !== '') yield toPlace(pending.trim(), line + 1, defaultSource);
  } finally {
    reader.releaseLock();
  }
}
