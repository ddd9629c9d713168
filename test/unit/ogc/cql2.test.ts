import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/schema.ts';
import { ApiError } from '../../../src/http/problem.ts';
import { FilterError, filterPredicate, parseFilter, type Filter } from '../../../src/ogc/cql2/index.ts';
import { compileFilter } from '../../../src/ogc/cql2/compile.ts';
import { parseCql2Json } from '../../../src/ogc/cql2/json.ts';
import { parseCql2Text } from '../../../src/ogc/cql2/text.ts';
import { openTestDatabase, testMode, type TestDatabase } from '../../helpers/database.ts';

/** SQL text and parameters without a database. */
const offline = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const compiled = (filter: Filter) => offline.selectFrom('places').select('id').where(compileFilter(filter)).compile();

/** The tree without source positions, to compare shapes. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'at').map(([k, v]) => [k, shape(v)]));
  }
  return value;
}
const prop = (name: string) => ({ kind: 'property', name });
const lit = (value: string | number | boolean) => ({ kind: 'literal', value });

function positionOf(run: () => unknown): number | string {
  try {
    run();
  } catch (error) {
    if (error instanceof FilterError) return error.position;
    throw error;
  }
  throw new Error('expected a FilterError');
}

describe('CQL2 text parser', () => {
  it('reads every comparison operator', () => {
    for (const op of ['=', '<>', '<', '>', '<=', '>=']) {
      expect(shape(parseCql2Text(`name ${op} 'Bryant'`))).toEqual({ kind: 'compare', op, left: prop('name'), right: lit('Bryant') });
    }
  });

  it('binds AND tighter than OR, NOT tightest, parentheses first', () => {
    expect(shape(parseCql2Text("category = 'a' OR category = 'b' AND NOT name IS NULL"))).toEqual({
      kind: 'or',
      args: [
        { kind: 'compare', op: '=', left: prop('category'), right: lit('a') },
        {
          kind: 'and',
          args: [
            { kind: 'compare', op: '=', left: prop('category'), right: lit('b') },
            { kind: 'not', arg: { kind: 'isNull', property: prop('name') } },
          ],
        },
      ],
    });
    expect(shape(parseCql2Text("(category = 'a' OR category = 'b') and source = 'osm'"))).toMatchObject({ kind: 'and', args: [{ kind: 'or' }, { kind: 'compare' }] });
  });

  it('reads LIKE, BETWEEN, IN, IS [NOT] NULL, their NOT forms, quoted names, escaped quotes and tag properties', () => {
    expect(shape(parseCql2Text("name LIKE 'Caf%'"))).toEqual({ kind: 'like', property: prop('name'), pattern: 'Caf%' });
    expect(shape(parseCql2Text("name NOT LIKE 'Caf%'"))).toEqual({ kind: 'not', arg: { kind: 'like', property: prop('name'), pattern: 'Caf%' } });
    expect(shape(parseCql2Text("name BETWEEN 'A' AND 'C'"))).toEqual({ kind: 'between', property: prop('name'), low: lit('A'), high: lit('C') });
    expect(shape(parseCql2Text("category IN ('cafe', 'bakery')"))).toEqual({ kind: 'in', property: prop('category'), values: [lit('cafe'), lit('bakery')] });
    expect(shape(parseCql2Text("category NOT IN ('cafe')"))).toEqual({ kind: 'not', arg: { kind: 'in', property: prop('category'), values: [lit('cafe')] } });
    expect(shape(parseCql2Text('name IS NOT NULL'))).toEqual({ kind: 'not', arg: { kind: 'isNull', property: prop('name') } });
    expect(shape(parseCql2Text(`"tags.addr:street" = 'O''Hara Lane'`))).toEqual({ kind: 'compare', op: '=', left: prop('tags.addr:street'), right: lit("O'Hara Lane") });
    expect(shape(parseCql2Text("tags.cuisine = 'ramen'"))).toMatchObject({ left: prop('tags.cuisine') });
    expect(shape(parseCql2Text('TRUE'))).toEqual({ kind: 'boolean', value: true });
  });

  it('reads S_INTERSECTS with BBOX and WKT literals', () => {
    expect(shape(parseCql2Text('S_INTERSECTS(geometry, BBOX(-74, 40.7, -73.9, 40.8))'))).toEqual({
      kind: 's_intersects',
      property: prop('geometry'),
      geometry: { kind: 'bbox', bbox: [-74, 40.7, -73.9, 40.8] },
    });
    expect(shape(parseCql2Text('s_intersects(geometry, POINT(-73.98 40.75))'))).toMatchObject({ geometry: { geojson: { type: 'Point', coordinates: [-73.98, 40.75] } } });
    expect(shape(parseCql2Text('S_INTERSECTS(geometry, POLYGON((0 0, 1 0, 1 1, 0 0)))'))).toMatchObject({
      geometry: { geojson: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] } },
    });
    expect(shape(parseCql2Text('S_INTERSECTS(geometry, MULTIPOINT((1 2), (3 4)))'))).toMatchObject({ geometry: { geojson: { coordinates: [[1, 2], [3, 4]] } } });
    expect(shape(parseCql2Text('S_INTERSECTS(geometry, GEOMETRYCOLLECTION(POINT(1 2), LINESTRING(0 0, 1 1)))'))).toMatchObject({
      geometry: { geojson: { type: 'GeometryCollection', geometries: [{ type: 'Point' }, { type: 'LineString' }] } },
    });
  });

  it('names the 1-based position where a filter goes wrong', () => {
    expect(positionOf(() => parseCql2Text("name = 'x' AND"))).toBe(15); // the end
    expect(positionOf(() => parseCql2Text("name == 'x'"))).toBe(7);
    expect(positionOf(() => parseCql2Text("name = 'x"))).toBe(8);
    expect(positionOf(() => parseCql2Text('name ~ 1'))).toBe(6);
    expect(positionOf(() => parseCql2Text("(name = 'x'"))).toBe(12);
    expect(positionOf(() => parseCql2Text("category IN ()"))).toBe(14);
    expect(positionOf(() => parseCql2Text("'x' LIKE 'y'"))).toBe(1);
    expect(positionOf(() => parseCql2Text('name IS NUL'))).toBe(9);
    expect(positionOf(() => parseCql2Text(''))).toBe(1);
  });

  it('refuses nesting deeper than the limit instead of overflowing the stack', () => {
    const deep = `${'NOT '.repeat(60)}name IS NULL`;
    expect(() => parseCql2Text(deep)).toThrow(/nested deeper/);
    expect(() => parseCql2Text(`${'('.repeat(60)}TRUE${')'.repeat(60)}`)).toThrow(/nested deeper/);
  });
});

describe('CQL2 JSON parser', () => {
  it('reads every operator, and the same tree as the text form', () => {
    const pairs: [string, unknown][] = [
      ["name = 'a'", { op: '=', args: [{ property: 'name' }, 'a'] }],
      ["name <> 'a'", { op: '<>', args: [{ property: 'name' }, 'a'] }],
      ["name < 'a'", { op: '<', args: [{ property: 'name' }, 'a'] }],
      ["name > 'a'", { op: '>', args: [{ property: 'name' }, 'a'] }],
      ["name <= 'a'", { op: '<=', args: [{ property: 'name' }, 'a'] }],
      ["name >= 'a'", { op: '>=', args: [{ property: 'name' }, 'a'] }],
      ["name LIKE 'a%'", { op: 'like', args: [{ property: 'name' }, 'a%'] }],
      ["name BETWEEN 'a' AND 'b'", { op: 'between', args: [{ property: 'name' }, 'a', 'b'] }],
      ["category IN ('a', 'b')", { op: 'in', args: [{ property: 'category' }, ['a', 'b']] }],
      ['category IS NULL', { op: 'isNull', args: [{ property: 'category' }] }],
      ["NOT source = 'osm'", { op: 'not', args: [{ op: '=', args: [{ property: 'source' }, 'osm'] }] }],
      ["source = 'a' AND name = 'b'", { op: 'and', args: [{ op: '=', args: [{ property: 'source' }, 'a'] }, { op: '=', args: [{ property: 'name' }, 'b'] }] }],
      ["source = 'a' OR name = 'b'", { op: 'or', args: [{ op: '=', args: [{ property: 'source' }, 'a'] }, { op: '=', args: [{ property: 'name' }, 'b'] }] }],
      ['S_INTERSECTS(geometry, BBOX(1, 2, 3, 4))', { op: 's_intersects', args: [{ property: 'geometry' }, { bbox: [1, 2, 3, 4] }] }],
      ['S_INTERSECTS(geometry, POINT(1 2))', { op: 's_intersects', args: [{ property: 'geometry' }, { type: 'Point', coordinates: [1, 2] }] }],
    ];
    for (const [text, json] of pairs) {
      expect(shape(parseCql2Json(JSON.stringify(json))), text).toEqual(shape(parseCql2Text(text)));
    }
  });

  it('names the JSON pointer of the bad member', () => {
    expect(positionOf(() => parseCql2Json('{"op":"and","args":[{"op":"=","args":[{"property":"name"},"a"]},{"op":"nope","args":[]}]}'))).toBe('/args/1/op');
    expect(positionOf(() => parseCql2Json('{"op":"=","args":[{"property":"name"}]}'))).toBe('/args');
    expect(positionOf(() => parseCql2Json('{"op":"in","args":[{"property":"name"},[{"a":1}]]}'))).toBe('/args/1/0');
    expect(positionOf(() => parseCql2Json('{"op": "=", '))).toBeTypeOf('number');
  });
});

describe('CQL2 parsers on arbitrary input', () => {
  /** Parses and compiles, or fails with a FilterError: never another exception. */
  const onlyFilterErrors = (read: () => Filter) => {
    try {
      compiled(read());
    } catch (error) {
      if (!(error instanceof FilterError)) throw error;
    }
  };
  const words = fc.constantFrom('name', 'category', 'tags.x', '"tags.a b"', 'geometry', "'v'", "'it''s'", '1', '-2.5', 'TRUE', 'AND', 'OR', 'NOT', 'LIKE', 'IN', 'IS', 'NULL', 'BETWEEN', '=', '<>', '<=', '(', ')', ',', 'S_INTERSECTS', 'BBOX', 'POINT', 'POLYGON', '\\', '"');

  it('text: random strings and random token soups only ever fail with a FilterError', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (text) => onlyFilterErrors(() => parseCql2Text(text))), { numRuns: 2000 });
    fc.assert(fc.property(fc.array(words, { maxLength: 30 }), (tokens) => onlyFilterErrors(() => parseCql2Text(tokens.join(' ')))), { numRuns: 3000 });
  });

  it('JSON: random JSON documents only ever fail with a FilterError', () => {
    fc.assert(fc.property(fc.json({ maxDepth: 6 }), (text) => onlyFilterErrors(() => parseCql2Json(text))), { numRuns: 2000 });
    const node = fc.letrec((tie) => ({
      expr: fc.oneof(
        { depthSize: 'small', maxDepth: 5 },
        fc.boolean(),
        fc.record({ op: fc.constantFrom('and', 'or', 'not', '=', 'like', 'in', 'between', 'isNull', 's_intersects', 'x'), args: fc.array(tie('arg'), { maxLength: 4 }) }),
      ),
      arg: fc.oneof(
        { depthSize: 'small', maxDepth: 5 },
        fc.record({ property: fc.constantFrom('name', 'tags.k', 'geometry', 'nope') }),
        fc.string(),
        fc.integer(),
        fc.constant({ bbox: [0, 0, 1, 1] }),
        tie('expr'),
      ),
    }));
    fc.assert(fc.property(node.expr, (doc) => onlyFilterErrors(() => parseCql2Json(JSON.stringify(doc)))), { numRuns: 2000 });
  });
});

describe('CQL2 compiler: parameters only, names from the allow-list', () => {
  it('binds every value; property names become fixed column references', () => {
    const query = compiled(parseCql2Text("name = 'Joe''s' AND category IN ('cafe', 'bar') AND tags.cuisine LIKE 'ram%'"));
    expect(query.sql).toBe('select "id" from "places" where (("name" = $1) AND ("category" IN ($2, $3)) AND ((tags ->> $4) LIKE $5))');
    expect(query.parameters).toEqual(["Joe's", 'cafe', 'bar', 'cuisine', 'ram%']);
  });

  it('keeps injection attempts in parameters, and refuses names outside the allow-list', () => {
    const hostile = "x'); DROP TABLE places; --";
    const query = compiled(parseCql2Text(`name = '${hostile.replace(/'/g, "''")}'`));
    expect(query.sql).not.toContain('DROP');
    expect(query.parameters).toEqual([hostile]);
    const viaJson = compiled(parseCql2Json(JSON.stringify({ op: 'like', args: [{ property: 'name' }, hostile] })));
    expect(viaJson.parameters).toEqual([hostile]);
    for (const name of ['"name; DROP TABLE places"', 'description', 'embedding', '"tags.a\'); DROP TABLE places; --"', 'geom', 'id']) {
      expect(() => compiled(parseCql2Text(`${name} = 'x'`)), name).toThrow(/unknown property/);
    }
    expect(() => compiled(parseCql2Json(JSON.stringify({ op: '=', args: [{ property: 'pg_read_file' }, 'x'] })))).toThrow(/unknown property/);
  });

  it('refuses type errors and bad geometries with their position', () => {
    expect(positionOf(() => compiled(parseCql2Text('name = 5')))).toBe(8);
    expect(positionOf(() => compiled(parseCql2Text("'a' = 'b'")))).toBe(1);
    expect(positionOf(() => compiled(parseCql2Text('S_INTERSECTS(name, POINT(1 2))')))).toBe(14);
    expect(positionOf(() => compiled(parseCql2Text('S_INTERSECTS(geometry, POLYGON((0 0, 1 0, 1 1, 0 1)))')))).toBe(24);
    expect(positionOf(() => compiled(parseCql2Text('S_INTERSECTS(geometry, POINT(500 2))')))).toBe(24);
    expect(positionOf(() => compiled(parseCql2Text('S_INTERSECTS(geometry, BBOX(10, 0, 0, 1))')))).toBe(24);
  });

  it('turns a bad filter into a 400 problem naming the filter parameter and the position', () => {
    try {
      filterPredicate("category = 'cafe' AND AND", 'cql2-text');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      const apiError = error as ApiError;
      expect(apiError.status).toBe(400);
      expect(apiError.detail).toMatch(/at position 23/);
      expect(apiError.errors).toEqual([{ in: 'query', field: 'filter', message: expect.stringMatching(/position 23/) }]);
    }
    expect(parseFilter("name = 'a'", 'cql-text')).toMatchObject({ kind: 'compare' });
  });
});

describe(`CQL2 filters on PostGIS: each operator selects the right rows (${testMode} mode)`, () => {
  let db: TestDatabase;
  const rows = [
    { id: 'a', name: 'Alder Cafe', category: 'cafe', tags: { cuisine: 'coffee_shop' }, lon: -73.98, lat: 40.75 },
    { id: 'b', name: 'Birch Bakery', category: 'bakery', tags: { cuisine: 'bread' }, lon: -73.97, lat: 40.76 },
    { id: 'c', name: 'Cedar_Bar', category: 'bar', tags: {}, lon: -73.9, lat: 40.8 },
    { id: 'd', name: null, category: 'cafe', tags: { 'addr:street': "O'Hara Lane" }, lon: -73.5, lat: 41 },
    { id: 'e', name: 'Elm 100%', category: null, tags: {}, lon: -74.2, lat: 40.6 },
  ];
  const select = async (filter: string, lang: 'cql2-text' | 'cql2-json' = 'cql2-text') => {
    const found = await db.db.selectFrom('places').select('source_id').where(filterPredicate(filter, lang)).orderBy('source_id').execute();
    return found.map((r) => r.source_id).join('');
  };

  beforeAll(async () => {
    db = await openTestDatabase();
    for (const r of rows) {
      await sql`INSERT INTO places (source, source_id, name, category, tags, geom)
        VALUES ('test', ${r.id}, ${r.name}, ${r.category}, ${JSON.stringify(r.tags)}::jsonb, ST_SetSRID(ST_MakePoint(${r.lon}, ${r.lat}), 4326))`.execute(db.db);
    }
  }, 120_000);
  afterAll(async () => db?.dispose());

  it('comparison operators', async () => {
    expect(await select("category = 'cafe'")).toBe('ad');
    expect(await select("category <> 'cafe'")).toBe('bc'); // NULL is neither equal nor unequal
    expect(await select("name < 'C'")).toBe('ab');
    expect(await select("name > 'C'")).toBe('ce');
    expect(await select("name <= 'Birch Bakery'")).toBe('ab');
    expect(await select("name >= 'Cedar_Bar'")).toBe('ce');
  });

  it('AND, OR, NOT, IS NULL, IN, BETWEEN', async () => {
    expect(await select("category = 'cafe' AND name IS NOT NULL")).toBe('a');
    expect(await select("category = 'bar' OR category IS NULL")).toBe('ce');
    expect(await select("NOT (category = 'cafe')")).toBe('bc');
    expect(await select('name IS NULL')).toBe('d');
    expect(await select("category IN ('bar', 'bakery')")).toBe('bc');
    expect(await select("name BETWEEN 'B' AND 'D'")).toBe('bc');
    expect(await select('FALSE OR TRUE')).toBe('abcde');
  });

  it('LIKE with CQL2 wildcards and escapes, tag properties', async () => {
    expect(await select("name LIKE '%Ba%'")).toBe('bc');
    expect(await select("name LIKE 'Cedar\\_%'")).toBe('c');
    expect(await select("name LIKE '%\\%'")).toBe('e');
    expect(await select("name LIKE '_lder%'")).toBe('a');
    expect(await select("tags.cuisine = 'bread'")).toBe('b');
    expect(await select(`"tags.addr:street" = 'O''Hara Lane'`)).toBe('d');
    expect(await select('tags.cuisine IS NULL')).toBe('cde');
  });

  it('S_INTERSECTS with BBOX, WKT and GeoJSON', async () => {
    expect(await select('S_INTERSECTS(geometry, BBOX(-74, 40.7, -73.95, 40.77))')).toBe('ab');
    expect(await select('S_INTERSECTS(geometry, POLYGON((-73.91 40.79, -73.89 40.79, -73.89 40.81, -73.91 40.81, -73.91 40.79)))')).toBe('c');
    expect(await select('S_INTERSECTS(geometry, POINT(-73.5 41))')).toBe('d');
    const json = { op: 'and', args: [{ op: 's_intersects', args: [{ property: 'geometry' }, { type: 'Polygon', coordinates: [[[-75, 40], [-73, 40], [-73, 42], [-75, 42], [-75, 40]]] }] }, { op: '=', args: [{ property: 'category' }, 'cafe'] }] };
    expect(await select(JSON.stringify(json), 'cql2-json')).toBe('ad');
  });

  it('inputs PostgreSQL or GEOS would fail on: a self-crossing polygon works, a pattern ending in a lone escape is refused', async () => {
    // A bow tie around the first two places.
    expect(await select('S_INTERSECTS(geometry, POLYGON((-74 40.7, -73.92 40.8, -73.92 40.7, -74 40.8, -74 40.7)))')).toBe('ab');
    expect(() => filterPredicate("name LIKE 'Elm\\'", 'cql2-text')).toThrow(/unescaped backslash/);
    expect(await select("name LIKE 'Elm\\\\'")).toBe('');
  });

  it('an injection attempt is a value that matches nothing, and the table is intact', async () => {
    expect(await select("name = 'x''; DROP TABLE places; --'")).toBe('');
    expect(await select("name LIKE '%'' OR ''1''=''1'")).toBe('');
    expect(await select('TRUE')).toBe('abcde');
  });
});
