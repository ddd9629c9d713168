/**
 * One entry point for all input files: `readPlaces(path)` picks the reader.
 *
 * The content decides (a mislabelled file would otherwise fail deep inside a parser with an obscure
 * message): PBF starts with a BlobHeader whose type is `OSMHeader`, JSON with `{` (or the RS byte of
 * GeoJSONSeq), CSV with a header row naming coordinate columns. When the extension names a different
 * known format than the content, that is reported instead of guessing which one is right.
 */
import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { detectDelimiter, readCsv, type CsvReadOptions } from './csv.ts';
import { IngestError, type PlaceFeature } from './feature.ts';
import { readGeoJson, type GeoJsonReadOptions } from './geojson.ts';
import { readOsmPbf, type OsmReadOptions } from './osm.ts';

export type PlaceFormat = 'osm-pbf' | 'geojson' | 'csv';

export type ReadPlacesOptions = OsmReadOptions & GeoJsonReadOptions & CsvReadOptions & {
  /** Skip detection. */
  format?: PlaceFormat;
};

const EXTENSIONS: readonly [RegExp, PlaceFormat][] = [
  [/\.pbf$/i, 'osm-pbf'],
  [/\.(geojson|json|geojsonl|geojsons|geojsonseq|ndjson|jsonl)$/i, 'geojson'],
  [/\.(csv|tsv)$/i, 'csv'],
];

export function formatFromExtension(path: string): PlaceFormat | null {
  for (const [re, format] of EXTENSIONS) if (re.test(path)) return format;
  return null;
}

/** Format from the first bytes, or a description of what the bytes look like when unsupported. */
export function sniffFormat(head: Buffer): PlaceFormat | { unsupported: string } {
  // PBF: 4-byte big-endian BlobHeader length, then field 1 (0x0A) = type string "OSMHeader".
  if (head.length >= 16 && head.readUInt32BE(0) < 64 * 1024 && head[4] === 0x0a && head.subarray(5, 24).includes('OSMHeader')) {
    return 'osm-pbf';
  }
  let text = head.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const start = text.trimStart();
  if (start.startsWith('{') || start.startsWith('\u001e')) return 'geojson';
  if (start.startsWith('<')) {
    return { unsupported: /<osm[\s>]/.test(start) ? 'OSM XML (convert it with `osmium cat in.osm -o out.osm.pbf`)' : 'XML/HTML' };
  }
  if (head.includes(0)) return { unsupported: 'binary data that is not an OSM PBF file' };
  const firstLine = start.split(/\r?\n/)[0] ?? '';
  const delimiter = detectDelimiter(firstLine);
  const columns = firstLine.split(delimiter).map((c) => c.trim().replace(/^"|"$/g, '').toLowerCase());
  const has = (names: string[]) => names.some((n) => columns.includes(n));
  if ((has(['lon', 'lng', 'long', 'longitude']) && has(['lat', 'latitude'])) || has(['wkt', 'geometry_wkt'])) return 'csv';
  return { unsupported: 'text without a CSV header naming lon/lat or wkt columns' };
}

export async function detectFormat(path: string): Promise<PlaceFormat> {
  if (!existsSync(path)) throw new IngestError(path, 'file', 'file does not exist');
  const fh = await open(path, 'r');
  let head: Buffer;
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(4096), 0, 4096, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
  if (head.length === 0) throw new IngestError(path, 'file', 'file is empty');
  const byContent = sniffFormat(head);
  const byExtension = formatFromExtension(path);
  if (typeof byContent !== 'string') {
    throw new IngestError(
      path,
      'file',
      `unknown format: the content looks like ${byContent.unsupported}; supported are OSM PBF (.osm.pbf), GeoJSON (.geojson, .geojsonl) and CSV with lon/lat or wkt columns (.csv)`,
    );
  }
  if (byExtension && byExtension !== byContent) {
    throw new IngestError(path, 'file', `the extension says ${byExtension} but the content is ${byContent}; rename the file or pass { format }`);
  }
  return byContent;
}

/**
 * Reader options for the project's known data sets, so every caller ingests them the same way:
 * neighborhood ids are their slugs and Wikivoyage ids their (unique) titles.
 */
export const SOURCE_PRESETS = {
  osm: { source: 'osm' },
  nycNeighborhoods: { source: 'nyc-neighborhoods', idProperty: 'slug', defaultCategory: 'neighbourhood' },
  wikivoyage: { source: 'wikivoyage', idProperty: 'title', defaultCategory: 'destination' },
} as const satisfies Record<string, ReadPlacesOptions>;

/** Reads any supported file as PlaceFeatures (streaming; see each reader for its options). */
export async function* readPlaces(path: string, opts: ReadPlacesOptions = {}): AsyncGenerator<PlaceFeature> {
  const format = opts.format ?? (await detectFormat(path));
  if (format === 'osm-pbf') yield* readOsmPbf(path, opts);
  else if (format === 'geojson') yield* readGeoJson(path, opts);
  else yield* readCsv(path, opts);
}
