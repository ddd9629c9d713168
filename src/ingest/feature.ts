/**
 * The unit every ingest reader produces and the database writer consumes.
 *
 * Geometry types are declared here instead of importing `@types/geojson`: that package is only a
 * transitive dependency of turf, and the importer must not break when turf changes its typings.
 */

/** [lon, lat] in WGS84 (EPSG:4326), the RFC 7946 axis order. */
export type Position = [number, number];

export interface PointGeometry {
  type: 'Point';
  coordinates: Position;
}
export interface LineStringGeometry {
  type: 'LineString';
  coordinates: Position[];
}
export interface PolygonGeometry {
  type: 'Polygon';
  /** First ring is the exterior (counter-clockwise), the others holes (clockwise). */
  coordinates: Position[][];
}
export interface MultiPointGeometry {
  type: 'MultiPoint';
  coordinates: Position[];
}
export interface MultiLineStringGeometry {
  type: 'MultiLineString';
  coordinates: Position[][];
}
export interface MultiPolygonGeometry {
  type: 'MultiPolygon';
  coordinates: Position[][][];
}

export type PlaceGeometry =
  | PointGeometry
  | LineStringGeometry
  | PolygonGeometry
  | MultiPointGeometry
  | MultiLineStringGeometry
  | MultiPolygonGeometry;

export interface PlaceFeature {
  /** Data set the feature comes from (`osm`, `nyc-neighborhoods`, `wikivoyage`, ...). */
  source: string;
  /** Id inside the source: `node/123`, `way/45`, `relation/6` for OSM; the feature id or index otherwise. */
  sourceId: string;
  name: string | null;
  /** Normalised category (see category.ts), null when nothing in the data says what the place is. */
  category: string | null;
  /** All original attributes as strings, so nothing the source said is lost. */
  tags: Record<string, string>;
  /** One or a few English sentences (original prose when the source has it), used for embedding and answers. */
  description: string;
  /**
   * True when `description` is the sentence `describePlace` built from the tags (the source has no prose):
   * the loader may then rebuild it with facts from spatial joins (the street it is on, its neighbourhood).
   * Absent or false: the description is kept exactly as given (prose, or a caller's own text).
   */
  descriptionFromTags?: boolean;
  geometry: PlaceGeometry;
}

/**
 * A problem with one record of an input file. It carries the file, where in the file (`feature 12`,
 * `line 7`, `way/45`) and what is wrong, so a user can fix the data without a debugger.
 * Readers throw it, or hand it to `onWarning` when the caller asked them to skip bad records.
 */
export class IngestError extends Error {
  override readonly name = 'IngestError';
  constructor(
    readonly file: string,
    readonly location: string,
    readonly problem: string,
  ) {
    super(`${file}: ${location}: ${problem}`);
  }
}

/** Options shared by all readers. */
export interface ReaderOptions {
  /** Value of `PlaceFeature.source`; each reader has a default. */
  source?: string;
  /** Report invalid records through `onWarning` and continue instead of throwing. */
  skipInvalid?: boolean;
  /** Receives skipped records and non-fatal problems (e.g. OSM relations that cannot be assembled). */
  onWarning?: (warning: IngestError) => void;
  /**
   * `false`: leave `description` empty where it would be built from the tags (`descriptionFromTags`), for
   * a consumer that builds it anyway, such as the loader (which adds the street and neighbourhood).
   * Prose of the source is always kept. Default true.
   */
  describe?: boolean;
  /**
   * Progress by bytes: called as the input file is read (OSM: during the main pass), with the bytes read
   * so far and the file size. Once per chunk of the file, so cheap.
   */
  onBytes?: (read: number, total: number) => void;
}
