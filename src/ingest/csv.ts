/**
 * Streaming CSV reader (csv-parse): one place per row.
 *
 * Geometry comes from `lon`/`lat` (also `lng`, `longitude`/`latitude`), or from a `wkt` column
 * (POINT/LINESTRING/POLYGON/MULTI*, see wkt.ts); header names are matched case-insensitively.
 * `name`/`title`, `category`/`type`/`kind` and `description`/`summary`/`desc`/`byline` columns feed
 * the feature; every column except the coordinates is kept as a tag (empty cells are dropped).
 * Errors name the physical line (the header is line 1), which is what a spreadsheet user can find.
 */
import { existsSync } from 'node:fs';
import { readStreamReporting } from './bytes.ts';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import { normaliseCategory } from './category.ts';
import { describePlace, hasProse } from './describe.ts';
import { IngestError, type PlaceFeature, type PlaceGeometry, type ReaderOptions } from './feature.ts';
import { parseGeometry } from './geometry.ts';
import { parseWkt } from './wkt.ts';

export interface CsvReadOptions extends ReaderOptions {
  /** Field delimiter; sniffed from the header line (`,` `;` tab `|`) when absent. */
  delimiter?: string;
}

const LON = ['lon', 'lng', 'long', 'longitude'];
const LAT = ['lat', 'latitude'];
const WKT = ['wkt', 'geometry_wkt'];
const ID = ['id'];
const NAME = ['name', 'title'];
const CATEGORY = ['category', 'type', 'kind'];
/** Recognised columns are stored under their lower-case name so describePlace finds e.g. `Description`. */
const CANONICAL = new Set([...NAME, ...CATEGORY, 'description', 'summary', 'desc', 'byline']);

const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

export async function* readCsv(path: string, opts: CsvReadOptions = {}): AsyncGenerator<PlaceFeature> {
  if (!existsSync(path)) throw new IngestError(path, 'file', 'file does not exist');
  const source = opts.source ?? ((path.split(/[\\/]/).pop() ?? path).replace(/\.(csv|tsv|txt)$/i, '') || 'csv');
  const report = (err: IngestError) => {
    if (!opts.skipInvalid) throw err;
    opts.onWarning?.(err);
  };

  const delimiter = opts.delimiter ?? (await sniffDelimiter(path));
  const parser = parse({
    delimiter,
    bom: true,
    info: true,
    trim: true,
    skip_empty_lines: true,
    // Column-count problems are checked below so they get the same line-numbered error as the rest.
    relax_column_count: true,
    // Malformed quoting cannot be repaired; with skipInvalid csv-parse drops the record and tells us.
    skip_records_with_error: opts.skipInvalid === true,
    on_skip: (err: CsvError | undefined) => {
      if (err) opts.onWarning?.(new IngestError(path, `line ${lineOf(err) ?? '?'}`, err.message));
      return undefined;
    },
  });
  pipeline(readStreamReporting(path, opts.onBytes), parser, () => {});

  let header: string[] | null = null;
  let cols: Columns | null = null;
  // Ids must be unique per source (the writer upserts on them); only kept when an id column exists.
  const seenIds = new Map<string, number>();
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = info.lines;
      if (!header) {
        header = record.map((h, i) => h || `column_${i + 1}`);
        cols = findColumns(path, header);
        continue;
      }
      let place: PlaceFeature;
      try {
        place = toPlace(record, header, cols!, source, line, opts.describe !== false);
      } catch (e) {
        report(new IngestError(path, `line ${line}`, e instanceof Error ? e.message : String(e)));
        continue;
      }
      if (cols!.id >= 0) {
        const first = seenIds.get(place.sourceId);
        if (first !== undefined) {
          const unique = `${place.sourceId}#${line}`;
          opts.onWarning?.(new IngestError(path, `line ${line}`, `id ${JSON.stringify(place.sourceId)} is already used on line ${first}; using ${JSON.stringify(unique)}`));
          place.sourceId = unique;
        }
        seenIds.set(place.sourceId, line);
      }
      yield place;
    }
  } catch (e) {
    if (e instanceof IngestError) throw e;
    const err = e as CsvError;
    throw new IngestError(path, `line ${lineOf(err) ?? parser.info.lines}`, `invalid CSV: ${err.message}`);
  }
  if (!header) throw new IngestError(path, 'line 1', 'the file is empty (no header row)');
}

function lineOf(err: CsvError): number | undefined {
  const lines = (err as { lines?: unknown }).lines;
  return typeof lines === 'number' ? lines : undefined;
}

async function sniffDelimiter(path: string): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0);
    const first = buffer.subarray(0, bytesRead).toString('utf8').split(/\r?\n/)[0] ?? '';
    return detectDelimiter(first);
  } finally {
    await fh.close();
  }
}

/** The candidate that occurs most often in the header line outside quotes; `,` on ties or none. */
export function detectDelimiter(headerLine: string): string {
  const counts = new Map<string, number>([[',', 0], [';', 0], ['\t', 0], ['|', 0]]);
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best = ',';
  for (const [d, n] of counts) if (n > counts.get(best)!) best = d;
  return best;
}

interface Columns {
  lon: number;
  lat: number;
  wkt: number;
  id: number;
  name: number;
  category: number;
  /** Columns that are not geometry. */
  tagColumns: number[];
}

function findColumns(path: string, header: string[]): Columns {
  const lower = header.map((h) => h.toLowerCase());
  const seen = new Set<string>();
  for (const h of lower) {
    if (seen.has(h)) throw new IngestError(path, 'line 1', `column ${JSON.stringify(h)} appears twice in the header`);
    seen.add(h);
  }
  const find = (names: readonly string[]) => {
    for (const n of names) {
      const i = lower.indexOf(n);
      if (i >= 0) return i;
    }
    return -1;
  };
  const cols = { lon: find(LON), lat: find(LAT), wkt: find(WKT), id: find(ID), name: find(NAME), category: find(CATEGORY) };
  const hasLonLat = cols.lon >= 0 && cols.lat >= 0;
  if (!hasLonLat && cols.wkt < 0) {
    throw new IngestError(
      path,
      'line 1',
      `no geometry columns: expected lon/lat, longitude/latitude or wkt; the header has ${header.map((h) => JSON.stringify(h)).join(', ')}`,
    );
  }
  const geometryCols = new Set([hasLonLat ? cols.lon : -1, hasLonLat ? cols.lat : -1, cols.wkt]);
  return { ...cols, lon: hasLonLat ? cols.lon : -1, lat: hasLonLat ? cols.lat : -1, tagColumns: header.map((_, i) => i).filter((i) => !geometryCols.has(i)) };
}

function toPlace(record: string[], header: string[], cols: Columns, source: string, line: number, describe: boolean): PlaceFeature {
  if (record.length !== header.length) throw new Error(`has ${record.length} fields, the header has ${header.length}`);
  const geometry = rowGeometry(record, header, cols);

  const tags: Record<string, string> = {};
  for (const i of cols.tagColumns) {
    const value = record[i]!;
    if (value === '') continue;
    const key = CANONICAL.has(header[i]!.toLowerCase()) ? header[i]!.toLowerCase() : header[i]!;
    tags[key] = value;
  }
  const cell = (i: number) => (i >= 0 && record[i] !== '' ? record[i]! : null);
  const place: PlaceFeature = {
    source,
    sourceId: cell(cols.id) ?? String(line),
    name: cell(cols.name),
    category: normaliseCategory(cell(cols.category)),
    tags,
    description: '',
    geometry,
  };
  place.descriptionFromTags = !hasProse(place);
  if (describe || !place.descriptionFromTags) place.description = describePlace(place);
  return place;
}

function rowGeometry(record: string[], header: string[], cols: Columns): PlaceGeometry {
  const wkt = cols.wkt >= 0 ? record[cols.wkt]! : '';
  if (wkt !== '') return parseWkt(wkt);
  if (cols.lon < 0) throw new Error(`column ${JSON.stringify(header[cols.wkt])} is empty`);
  const number = (i: number) => {
    const v = record[i]!;
    if (v === '') throw new Error(`column ${JSON.stringify(header[i])} is empty`);
    if (!NUMBER.test(v)) throw new Error(`column ${JSON.stringify(header[i])} is not a number: ${JSON.stringify(v)}`);
    return Number(v);
  };
  return parseGeometry({ type: 'Point', coordinates: [number(cols.lon), number(cols.lat)] });
}
