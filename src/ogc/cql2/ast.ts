/**
 * The typed syntax tree of a CQL2 filter (OGC 21-065): what the text and JSON parsers produce and the SQL
 * compiler consumes. The classes covered are Basic CQL2 (comparison, AND/OR/NOT, IS NULL), Advanced Comparison
 * Operators (LIKE, BETWEEN, IN) and the Basic Spatial Functions with any WKT or GeoJSON literal (S_INTERSECTS).
 */

export type ComparisonOp = '=' | '<>' | '<' | '>' | '<=' | '>=';

export interface PropertyRef {
  kind: 'property';
  name: string;
  /** Where the name stands in the filter (a 1-based position or a JSON pointer), for errors found later. */
  at: number | string;
}

export interface Literal {
  kind: 'literal';
  value: string | number | boolean;
  at: number | string;
}

export type Scalar = PropertyRef | Literal;

/** A GeoJSON geometry (RFC 7946, WGS84 lon/lat), or a bounding box. */
export type GeometryLiteral = (
  | { kind: 'geometry'; geojson: { type: string; coordinates?: unknown; geometries?: unknown } }
  | { kind: 'bbox'; bbox: [number, number, number, number] }
) & { at: number | string };

export type Filter =
  | { kind: 'and' | 'or'; args: Filter[] }
  | { kind: 'not'; arg: Filter }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'compare'; op: ComparisonOp; left: Scalar; right: Scalar }
  | { kind: 'like'; property: PropertyRef; pattern: string }
  | { kind: 'between'; property: PropertyRef; low: Literal; high: Literal }
  | { kind: 'in'; property: PropertyRef; values: Literal[] }
  | { kind: 'isNull'; property: PropertyRef }
  | { kind: 's_intersects'; property: PropertyRef; geometry: GeometryLiteral };

/** A filter that cannot be read or used; `position` is a 1-based character offset (text) or a JSON pointer. */
export class FilterError extends Error {
  constructor(
    readonly problem: string,
    readonly position: number | string,
  ) {
    super(typeof position === 'number' ? `${problem} at position ${position}` : `${problem} at ${position || '/'}`);
    this.name = 'FilterError';
  }
}

/** Deeper trees are refused: the parsers and the compiler recurse, and no useful filter nests this far. */
export const MAX_FILTER_DEPTH = 50;
