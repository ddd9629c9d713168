/**
 * GeoJSON reader: FeatureCollection (or a single Feature) -> PlaceFeatures.
 *
 * Parsing choice: a regular GeoJSON document is read with one JSON.parse. The project's files are a
 * few MB (the 17k-point Wikivoyage file is 5 MB and parses in ~50 ms), and a hand-written streaming
 * JSON tokenizer would be more code to trust than the memory it saves. Files above MAX_DOCUMENT_BYTES
 * are refused with advice instead of crashing V8. Large data should come as newline-delimited GeoJSON
 * (GeoJSONSeq, RFC 8142, `.geojsonl` / `.geojsons` / `.ndjson`), which IS streamed line by line.
 */
import { existsSync, statSync } from 'node:fs';
import { readStreamReporting } from './bytes.ts';
import { open, readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { normaliseCategory } from './category.ts';
import { describePlace, hasProse } from './describe.ts';
import { IngestError, type PlaceFeature, type ReaderOptions } from './feature.ts';
import { parseGeometry } from './geometry.ts';

export interface GeoJsonReadOptions extends ReaderOptions {
  /** Category for features without a `category` / `type` / `kind` property (Wikivoyage: `destination`). */
  defaultCategory?: string;
  /** Property holding a stable id. Default: the feature's `id`, then property `id`, then the feature number. */
  idProperty?: string;
  /** Name used in errors when `input` is an object rather than a path. */
  file?: string;
}

/** Above this a whole-document parse risks V8's string limit; use GeoJSONSeq instead. */
export const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

const NAME_KEYS = ['name', 'title', 'NAME', 'Name'];
const CATEGORY_KEYS = ['category', 'type', 'kind'];
const SEQ_EXTENSIONS = /\.(geojsonl|geojsons|geojsonseq|ndjson|jsonl)$/i;

/**
 * Reads GeoJSON from a path or an already parsed object. Features are numbered from 1 in errors
 * (`feature 3` is the third feature, like `line 3` is the third line of a CSV).
 */
export async function* readGeoJson(input: string | object, opts: GeoJsonReadOptions = {}): AsyncGenerator<PlaceFeature> {
  const file = typeof input === 'string' ? input : (opts.file ?? '<GeoJSON object>');
  const source = opts.source ?? (typeof input === 'string' ? baseName(input) : 'geojson');
  // Ids must be unique per source (the writer upserts on them); data sets do repeat "unique" slugs.
  const seenIds = new Map<string, number>();
  const convert = (raw: unknown, n: number, location: string): PlaceFeature | null => {
    try {
      const place = toPlace(raw, n, source, opts);
      const first = seenIds.get(place.sourceId);
      if (first !== undefined) {
        const unique = `${place.sourceId}#${n}`;
        opts.onWarning?.(new IngestError(file, location, `id ${JSON.stringify(place.sourceId)} is already used by feature ${first}; using ${JSON.stringify(unique)}`));
        place.sourceId = unique;
      }
      seenIds.set(place.sourceId, n);
      return place;
    } catch (e) {
      const err = new IngestError(file, location, e instanceof Error ? e.message : String(e));
      if (!opts.skipInvalid) throw err;
      opts.onWarning?.(err);
      return null;
    }
  };

  if (typeof input === 'string') {
    if (!existsSync(input)) throw new IngestError(file, 'file', 'file does not exist');
    if (SEQ_EXTENSIONS.test(input) || (await startsWithRecordSeparator(input))) {
      yield* readSequence(input, convert, opts.onBytes);
      return;
    }
  }

  const doc = typeof input === 'string' ? await parseDocument(input) : input;
  const features = topLevelFeatures(doc, file);
  // A document is read whole; its progress is the share of its features converted, in bytes of the file.
  const size = typeof input === 'string' && opts.onBytes ? statSync(input).size : 0;
  for (let i = 0; i < features.length; i++) {
    const place = convert(features[i], i + 1, `feature ${i + 1}`);
    if (size && (i % 1000 === 999 || i === features.length - 1)) opts.onBytes!(Math.round((size * (i + 1)) / features.length), size);
    if (place) yield place;
  }
}

function baseName(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  return base.replace(/\.(geo)?json[a-z]*$/i, '') || 'geojson';
}

async function parseDocument(path: string): Promise<unknown> {
  const size = statSync(path).size;
  if (size > MAX_DOCUMENT_BYTES) {
    throw new IngestError(path, 'file', `file is ${Math.round(size / 1e6)} MB, too large for a whole-document parse; convert it to newline-delimited GeoJSON (ogr2ogr -f GeoJSONSeq out.geojsons in.geojson)`);
  }
  const text = await readFile(path, 'utf8');
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    throw new IngestError(path, 'file', `invalid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function topLevelFeatures(doc: unknown, file: string): unknown[] {
  const d = doc as { type?: unknown; features?: unknown } | null;
  if (d && typeof d === 'object' && d.type === 'FeatureCollection') {
    if (!Array.isArray(d.features)) throw new IngestError(file, 'file', 'FeatureCollection has no `features` array');
    return d.features;
  }
  if (d && typeof d === 'object' && d.type === 'Feature') return [d];
  const what = d && typeof d === 'object' ? `type ${JSON.stringify(d.type)}` : typeof d;
  throw new IngestError(file, 'file', `expected a GeoJSON FeatureCollection or Feature, got ${what}`);
}

async function startsWithRecordSeparator(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(1), 0, 1, 0);
    return bytesRead === 1 && buffer[0] === 0x1e;
  } finally {
    await fh.close();
  }
}

async function* readSequence(
  path: string,
  convert: (raw: unknown, n: number, location: string) => PlaceFeature | null,
  onBytes?: (read: number, total: number) => void,
): AsyncGenerator<PlaceFeature> {
  const lines = createInterface({ input: readStreamReporting(path, onBytes, 'utf8'), crlfDelay: Infinity });
  let lineNo = 0;
  let n = 0;
  try {
    for await (const rawLine of lines) {
      lineNo++;
      const line = rawLine.replace(/^[\u001e\ufeff]+/, '').trim();
      if (line === '') continue;
      n++;
      const location = `feature ${n} (line ${lineNo})`;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch (e) {
        raw = new InvalidJson(e instanceof Error ? e.message : String(e));
      }
      const place = convert(raw, n, location);
      if (place) yield place;
    }
  } finally {
    lines.close();
  }
}

/** Marks a sequence line that is not JSON, so the problem goes through the normal skip/throw path. */
class InvalidJson {
  constructor(readonly message: string) {}
}

function toPlace(raw: unknown, n: number, source: string, opts: GeoJsonReadOptions): PlaceFeature {
  if (raw instanceof InvalidJson) throw new Error(`invalid JSON: ${raw.message}`);
  if (!raw || typeof raw !== 'object') throw new Error(`expected a Feature object, got ${raw === null ? 'null' : typeof raw}`);
  const f = raw as { type?: unknown; id?: unknown; properties?: unknown; geometry?: unknown };
  if (f.type !== 'Feature') throw new Error(`expected type "Feature", got ${JSON.stringify(f.type)}`);
  if (f.properties != null && (typeof f.properties !== 'object' || Array.isArray(f.properties))) {
    throw new Error('properties must be an object or null');
  }
  const props = (f.properties ?? {}) as Record<string, unknown>;
  const geometry = parseGeometry(f.geometry);

  const tags: Record<string, string> = {};
  for (const [key, value] of Object.entries(props)) {
    const s = stringify(value);
    if (s !== null) tags[key] = s;
  }

  const name = firstString(props, NAME_KEYS);
  const typed = firstString(props, CATEGORY_KEYS);
  const category = normaliseCategory(typed) ?? normaliseCategory(opts.defaultCategory);
  const idValue = opts.idProperty !== undefined ? props[opts.idProperty] : (f.id ?? props.id);
  const sourceId = typeof idValue === 'string' || typeof idValue === 'number' ? String(idValue) : String(n);

  const place: PlaceFeature = { source, sourceId, name, category, tags, description: '', geometry };
  place.descriptionFromTags = !hasProse(place);
  if (opts.describe !== false || !place.descriptionFromTags) place.description = describePlace(place);
  return place;
}

/** Tag value of a property: strings as they are, numbers/booleans as text, objects/arrays as JSON; null is no tag. */
function stringify(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

function firstString(props: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const key of keys) {
    const v = props[key];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return null;
}
