/**
 * A small WKT parser for CSV geometry columns: POINT, LINESTRING, POLYGON and their MULTI forms,
 * optional Z / M / ZM (extra ordinates are dropped) and an optional EWKT `SRID=4326;` prefix.
 * Output is validated like GeoJSON input (ranges, closed rings, orientation).
 * Errors say what was expected and at which character, because WKT in spreadsheets is often hand-made.
 */
import type { PlaceGeometry } from './feature.ts';
import { parseGeometry } from './geometry.ts';

type Token = { kind: 'word' | 'number' | '(' | ')' | ','; text: string; pos: number };

function tokenize(wkt: string): Token[] {
  const tokens: Token[] = [];
  const re = /([A-Za-z]+)|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|([(),])/y;
  let pos = 0;
  while (pos < wkt.length) {
    if (/\s/.test(wkt[pos]!)) {
      pos++;
      continue;
    }
    re.lastIndex = pos;
    const m = re.exec(wkt);
    if (!m) throw new Error(`WKT: unexpected character ${JSON.stringify(wkt[pos])} at position ${pos + 1}`);
    if (m[1]) tokens.push({ kind: 'word', text: m[1].toUpperCase(), pos: pos + 1 });
    else if (m[2]) tokens.push({ kind: 'number', text: m[2], pos: pos + 1 });
    else tokens.push({ kind: m[3] as '(' | ')' | ',', text: m[3]!, pos: pos + 1 });
    pos = re.lastIndex;
  }
  return tokens;
}

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private fail(expected: string): never {
    const t = this.peek();
    throw new Error(`WKT: expected ${expected} ${t ? `but found ${JSON.stringify(t.text)} at position ${t.pos}` : 'but the text ended'}`);
  }

  private take(kind: Token['kind'], expected: string): Token {
    const t = this.peek();
    if (!t || t.kind !== kind) this.fail(expected);
    this.i++;
    return t;
  }

  private accept(kind: Token['kind']): boolean {
    if (this.peek()?.kind === kind) {
      this.i++;
      return true;
    }
    return false;
  }

  end(): void {
    if (this.peek()) this.fail('the end of the geometry');
  }

  /** Geometry type and dimension words; returns the type. */
  header(): string {
    const type = this.take('word', 'a geometry type (POINT, LINESTRING, POLYGON, MULTI...)').text;
    const dim = this.peek();
    if (dim?.kind === 'word' && (dim.text === 'Z' || dim.text === 'M' || dim.text === 'ZM')) this.i++;
    if (this.peek()?.kind === 'word' && this.peek()!.text === 'EMPTY') throw new Error(`WKT: ${type} EMPTY has no location`);
    return type;
  }

  coord(): number[] {
    const values: number[] = [];
    while (this.peek()?.kind === 'number') values.push(Number(this.take('number', 'a number').text));
    if (values.length < 2) this.fail('a coordinate "lon lat"');
    if (values.length > 4) throw new Error(`WKT: a coordinate has ${values.length} numbers (missing comma?)`);
    return values.slice(0, 2);
  }

  /** ( x y, x y, ... ) */
  coordList(): number[][] {
    this.take('(', '"("');
    const list = [this.coord()];
    while (this.accept(',')) list.push(this.coord());
    this.take(')', '"," or ")"');
    return list;
  }

  /** ( list, list, ... ) */
  listOf<T>(item: () => T): T[] {
    this.take('(', '"("');
    const out = [item()];
    while (this.accept(',')) out.push(item());
    this.take(')', '"," or ")"');
    return out;
  }

  /** MULTIPOINT accepts both (1 2, 3 4) and ((1 2), (3 4)). */
  multiPoint(): number[][] {
    return this.listOf(() => {
      if (this.accept('(')) {
        const c = this.coord();
        this.take(')', '")"');
        return c;
      }
      return this.coord();
    });
  }
}

export function parseWkt(wkt: string): PlaceGeometry {
  let text = wkt.trim();
  const srid = /^SRID=(\d+);/i.exec(text);
  if (srid) {
    // Coordinates are taken as lon/lat; another SRID would silently put places in the wrong spot.
    if (srid[1] !== '4326') throw new Error(`WKT: SRID=${srid[1]} is not supported, only 4326 (lon/lat WGS84)`);
    text = text.slice(srid[0].length);
  }
  if (text === '') throw new Error('WKT: empty geometry text');
  const p = new Parser(tokenize(text));
  const type = p.header();
  let geojson: { type: string; coordinates: unknown };
  switch (type) {
    case 'POINT': {
      const list = p.coordList();
      if (list.length !== 1) throw new Error(`WKT: POINT has ${list.length} coordinates, expected 1`);
      geojson = { type: 'Point', coordinates: list[0] };
      break;
    }
    case 'LINESTRING':
      geojson = { type: 'LineString', coordinates: p.coordList() };
      break;
    case 'POLYGON':
      geojson = { type: 'Polygon', coordinates: p.listOf(() => p.coordList()) };
      break;
    case 'MULTIPOINT':
      geojson = { type: 'MultiPoint', coordinates: p.multiPoint() };
      break;
    case 'MULTILINESTRING':
      geojson = { type: 'MultiLineString', coordinates: p.listOf(() => p.coordList()) };
      break;
    case 'MULTIPOLYGON':
      geojson = { type: 'MultiPolygon', coordinates: p.listOf(() => p.listOf(() => p.coordList())) };
      break;
    default:
      throw new Error(`WKT: geometry type ${type} is not supported (POINT, LINESTRING, POLYGON, MULTIPOINT, MULTILINESTRING, MULTIPOLYGON)`);
  }
  p.end();
  return parseGeometry(geojson);
}
