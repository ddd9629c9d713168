/**
 * A CQL2 tree to one parameterised SQL predicate over `places`. Property names come from an allow-list (the
 * queryables) and become column references or `tags ->> $n`; every literal, pattern, tag key and geometry is a
 * bound parameter, so no part of a filter is ever SQL text.
 */
import { sql, type RawBuilder } from 'kysely';
import { FilterError, type Filter, type GeometryLiteral, type Literal, type PropertyRef, type Scalar } from './ast.ts';

/** Queryable scalar properties and the columns they read. */
const COLUMNS: Record<string, string> = { name: 'name', category: 'category', source: 'source', sourceId: 'source_id' };
/** `tags.<key>`: one OSM tag (or an imported property) by key. */
const TAG_PROPERTY = /^tags\.([A-Za-z0-9_:.-]{1,100})$/;
export const GEOMETRY_PROPERTY = 'geometry';
export const QUERYABLE_NAMES = [...Object.keys(COLUMNS), 'tags.<key>', GEOMETRY_PROPERTY];

type Sql = RawBuilder<unknown>;

function unknownProperty(ref: PropertyRef): never {
  throw new FilterError(`unknown property '${ref.name}' (queryables: ${QUERYABLE_NAMES.join(', ')})`, ref.at);
}

function column(ref: PropertyRef): Sql {
  const name = COLUMNS[ref.name];
  if (name) return sql.ref(name);
  const tag = TAG_PROPERTY.exec(ref.name);
  if (tag) return sql`(tags ->> ${tag[1]!})`;
  if (ref.name === GEOMETRY_PROPERTY) throw new FilterError(`'${GEOMETRY_PROPERTY}' is compared only with S_INTERSECTS`, ref.at);
  return unknownProperty(ref);
}

/** Every queryable scalar is a string: a number or boolean literal against one is a type error, not a cast. */
function stringValue(lit: Literal): string {
  if (typeof lit.value !== 'string') throw new FilterError(`the queryable properties are strings: quote ${String(lit.value)} as '${String(lit.value)}'`, lit.at);
  return lit.value;
}

function operand(s: Scalar): Sql {
  return s.kind === 'property' ? column(s) : sql`${stringValue(s)}`;
}

const OPERATORS = { '=': '=', '<>': '<>', '<': '<', '>': '>', '<=': '<=', '>=': '>=' } as const;

function compileNode(filter: Filter): Sql {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return sql`(${sql.join(filter.args.map(compileNode), filter.kind === 'and' ? sql` AND ` : sql` OR `)})`;
    case 'not':
      return sql`(NOT ${compileNode(filter.arg)})`;
    case 'boolean':
      return filter.value ? sql`TRUE` : sql`FALSE`;
    case 'compare': {
      if (filter.left.kind === 'literal' && filter.right.kind === 'literal') {
        throw new FilterError('a comparison needs a property on one side', filter.left.at);
      }
      return sql`(${operand(filter.left)} ${sql.raw(OPERATORS[filter.op])} ${operand(filter.right)})`;
    }
    case 'like':
      // CQL2 and PostgreSQL agree: % any run, _ one character, backslash escapes. PostgreSQL refuses a
      // pattern ending in a lone escape with an error: refused here as a 400.
      if (/(^|[^\\])(\\\\)*\\$/.test(filter.pattern)) throw new FilterError('a LIKE pattern cannot end with an unescaped backslash', filter.property.at);
      return sql`(${column(filter.property)} LIKE ${filter.pattern})`;
    case 'between':
      return sql`(${column(filter.property)} BETWEEN ${stringValue(filter.low)} AND ${stringValue(filter.high)})`;
    case 'in':
      return sql`(${column(filter.property)} IN (${sql.join(filter.values.map((v) => sql`${stringValue(v)}`))}))`;
    case 'isNull':
      return sql`(${column(filter.property)} IS NULL)`;
    case 's_intersects':
      if (filter.property.name !== GEOMETRY_PROPERTY) {
        if (COLUMNS[filter.property.name] || TAG_PROPERTY.test(filter.property.name)) {
          throw new FilterError(`'${filter.property.name}' is not a geometry; S_INTERSECTS takes '${GEOMETRY_PROPERTY}'`, filter.property.at);
        }
        unknownProperty(filter.property);
      }
      return sql`ST_Intersects(geom, ${geometryValue(filter.geometry)})`;
  }
}

function geometryValue(g: GeometryLiteral): Sql {
  if (g.kind === 'bbox') {
    const [minLon, minLat, maxLon, maxLat] = g.bbox;
    if (!(minLon >= -180 && maxLon <= 180 && minLat >= -90 && maxLat <= 90 && minLon <= maxLon && minLat <= maxLat)) {
      throw new FilterError('a BBOX is minLon, minLat, maxLon, maxLat in WGS84 degrees', g.at);
    }
    return sql`ST_MakeEnvelope(${minLon}, ${minLat}, ${maxLon}, ${maxLat}, 4326)`;
  }
  checkGeometry(g.geojson, g.at, 0);
  // ST_MakeValid: a self-crossing polygon (a bow tie) would make GEOS fail the whole query.
  return sql`ST_MakeValid(ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify(g.geojson)}), 4326))`;
}

/** The shapes PostGIS would refuse with an error: refused here as a 400 instead. */
function checkGeometry(geojson: { type: string; coordinates?: unknown; geometries?: unknown }, at: number | string, depth: number): void {
  const fail = (why: string): never => {
    throw new FilterError(`invalid ${geojson.type}: ${why}`, at);
  };
  const position = (p: unknown) => {
    if (!Array.isArray(p) || p.length < 2 || p.length > 3 || !p.every((n) => typeof n === 'number' && Number.isFinite(n))) fail('a position is [lon, lat]');
    const [lon, lat] = p as number[];
    if (Math.abs(lon!) > 180 || Math.abs(lat!) > 90) fail('coordinates are WGS84 longitude, latitude in degrees');
  };
  const list = (v: unknown, min: number, each: (x: unknown) => void) => {
    if (!Array.isArray(v) || v.length < min) fail(`expected at least ${min} members`);
    (v as unknown[]).forEach(each);
  };
  const ring = (r: unknown) => {
    list(r, 4, position);
    const points = r as number[][];
    const [first, last] = [points[0]!, points[points.length - 1]!];
    if (first[0] !== last[0] || first[1] !== last[1]) fail('a polygon ring ends where it starts');
  };
  const polygon = (p: unknown) => list(p, 1, ring);
  const line = (l: unknown) => list(l, 2, position);
  switch (geojson.type) {
    case 'Point': return position(geojson.coordinates);
    case 'MultiPoint': return list(geojson.coordinates, 1, position);
    case 'LineString': return line(geojson.coordinates);
    case 'MultiLineString': return list(geojson.coordinates, 1, line);
    case 'Polygon': return polygon(geojson.coordinates);
    case 'MultiPolygon': return list(geojson.coordinates, 1, polygon);
    case 'GeometryCollection':
      if (depth > 0) fail('collections do not nest');
      return list(geojson.geometries, 1, (g) => {
        if (typeof g !== 'object' || g === null || typeof (g as { type?: unknown }).type !== 'string') fail('a member is a GeoJSON geometry');
        checkGeometry(g as { type: string }, at, depth + 1);
      });
    default:
      fail('unsupported geometry type');
  }
}

/** The SQL predicate of a filter, for `WHERE`; throws FilterError for unknown properties and type errors. */
export function compileFilter(filter: Filter): RawBuilder<boolean> {
  return compileNode(filter) as RawBuilder<boolean>;
}
