/**
 * CQL2 JSON (OGC 21-065 §8) to the typed tree: `{"op": "and", "args": [...]}`, `{"property": "name"}`,
 * literals, GeoJSON geometries and `{"bbox": [...]}`. Errors name the JSON pointer of the bad member.
 */
import { FilterError, MAX_FILTER_DEPTH, type ComparisonOp, type Filter, type GeometryLiteral, type Literal, type PropertyRef, type Scalar } from './ast.ts';

const COMPARISON_OPS = new Set<string>(['=', '<>', '<', '>', '<=', '>=']);
const GEOMETRY_TYPES = new Set(['Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon', 'GeometryCollection']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function property(value: unknown, at: string): PropertyRef {
  if (isObject(value) && typeof value.property === 'string' && value.property.length > 0) return { kind: 'property', name: value.property, at };
  throw new FilterError('expected a property reference {"property": "…"}', at);
}

function literal(value: unknown, at: string): Literal {
  if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return { kind: 'literal', value, at };
  throw new FilterError('expected a literal (a string, a number or a boolean)', at);
}

function scalar(value: unknown, at: string): Scalar {
  return isObject(value) && 'property' in value ? property(value, at) : literal(value, at);
}

function geometry(value: unknown, at: string): GeometryLiteral {
  if (isObject(value) && Array.isArray(value.bbox) && !('type' in value)) {
    const bbox = value.bbox;
    if (bbox.length === 4 && bbox.every((n) => typeof n === 'number' && Number.isFinite(n))) return { kind: 'bbox', bbox: bbox as [number, number, number, number], at };
    throw new FilterError('a bbox is four numbers [minLon, minLat, maxLon, maxLat]', `${at}/bbox`);
  }
  if (isObject(value) && typeof value.type === 'string' && GEOMETRY_TYPES.has(value.type)) {
    const key = value.type === 'GeometryCollection' ? 'geometries' : 'coordinates';
    if (!Array.isArray(value[key])) throw new FilterError(`a ${value.type} needs "${key}"`, `${at}/${key}`);
    return { kind: 'geometry', geojson: { type: value.type, [key]: value[key] }, at };
  }
  throw new FilterError('expected a GeoJSON geometry or {"bbox": [...]}', at);
}

function args(node: Record<string, unknown>, count: number | [number, number], at: string): unknown[] {
  const list = node.args;
  if (!Array.isArray(list)) throw new FilterError('expected "args" to be an array', `${at}/args`);
  const [min, max] = typeof count === 'number' ? [count, count] : count;
  if (list.length < min || list.length > max) {
    throw new FilterError(`'${String(node.op)}' takes ${min === max ? min : `${min} or more`} arguments, got ${list.length}`, `${at}/args`);
  }
  return list;
}

function parseNode(node: unknown, at: string, depth: number): Filter {
  if (depth > MAX_FILTER_DEPTH) throw new FilterError(`nested deeper than ${MAX_FILTER_DEPTH} levels`, at);
  if (typeof node === 'boolean') return { kind: 'boolean', value: node };
  if (!isObject(node) || typeof node.op !== 'string') throw new FilterError('expected an operation {"op": …, "args": […]}', at);
  const op = node.op.toLowerCase();
  if (op === 'and' || op === 'or') {
    const list = args(node, [2, Number.MAX_SAFE_INTEGER], at);
    return { kind: op, args: list.map((a, i) => parseNode(a, `${at}/args/${i}`, depth + 1)) };
  }
  if (op === 'not') return { kind: 'not', arg: parseNode(args(node, 1, at)[0], `${at}/args/0`, depth + 1) };
  if (COMPARISON_OPS.has(op)) {
    const [a, b] = args(node, 2, at);
    return { kind: 'compare', op: op as ComparisonOp, left: scalar(a, `${at}/args/0`), right: scalar(b, `${at}/args/1`) };
  }
  if (op === 'like') {
    const [a, b] = args(node, 2, at);
    if (typeof b !== 'string') throw new FilterError('a LIKE pattern is a string', `${at}/args/1`);
    return { kind: 'like', property: property(a, `${at}/args/0`), pattern: b };
  }
  if (op === 'between') {
    const [a, b, c] = args(node, 3, at);
    return { kind: 'between', property: property(a, `${at}/args/0`), low: literal(b, `${at}/args/1`), high: literal(c, `${at}/args/2`) };
  }
  if (op === 'in') {
    const [a, b] = args(node, 2, at);
    if (!Array.isArray(b) || b.length === 0) throw new FilterError('IN takes a non-empty array of literals', `${at}/args/1`);
    return { kind: 'in', property: property(a, `${at}/args/0`), values: b.map((v, i) => literal(v, `${at}/args/1/${i}`)) };
  }
  if (op === 'isnull') return { kind: 'isNull', property: property(args(node, 1, at)[0], `${at}/args/0`) };
  if (op === 's_intersects') {
    const [a, b] = args(node, 2, at);
    const aIsProperty = isObject(a) && 'property' in a;
    return aIsProperty
      ? { kind: 's_intersects', property: property(a, `${at}/args/0`), geometry: geometry(b, `${at}/args/1`) }
      : { kind: 's_intersects', property: property(b, `${at}/args/1`), geometry: geometry(a, `${at}/args/0`) };
  }
  throw new FilterError(`unsupported operator '${node.op}'`, `${at}/op`);
}

/** `text`: the filter parameter; it must be a JSON document. */
export function parseCql2Json(text: string): Filter {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    const match = /position (\d+)/.exec((error as Error).message);
    throw new FilterError('the filter is not valid JSON', match ? Number(match[1]) + 1 : 1);
  }
  return parseNode(document, '', 0);
}

/** An already-parsed CQL2 JSON value (a POST body, a test). */
export function cql2JsonToFilter(value: unknown): Filter {
  return parseNode(value, '', 0);
}
