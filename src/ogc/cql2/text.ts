/**
 * CQL2 text (OGC 21-065 §8) to the typed tree: a tokenizer and a recursive-descent parser over the grammar
 *
 *   filter   = or
 *   or       = and { OR and }
 *   and      = factor { AND factor }
 *   factor   = NOT factor | primary
 *   primary  = "(" or ")" | TRUE | FALSE | S_INTERSECTS "(" operand "," operand ")" | predicate
 *   predicate = scalar ( compOp scalar | [NOT] LIKE string | [NOT] BETWEEN literal AND literal
 *             | [NOT] IN "(" literal { "," literal } ")" | IS [NOT] NULL )
 *
 * Errors name the 1-based character position where the filter stops making sense.
 */
import { FilterError, MAX_FILTER_DEPTH, type ComparisonOp, type Filter, type GeometryLiteral, type Literal, type PropertyRef, type Scalar } from './ast.ts';

type TokenType = 'ident' | 'quotedIdent' | 'string' | 'number' | 'op' | 'punct' | 'end';

interface Token {
  type: TokenType;
  text: string;
  /** 1-based character position. */
  pos: number;
  value?: string | number;
}

const COMPARISON_OPS = new Set(['=', '<>', '<', '>', '<=', '>=']);
const IDENT_START = /[A-Za-z_:\u00C0-\uFFFF]/;
const IDENT_PART = /[A-Za-z0-9_:.\u00C0-\uFFFF]/;
const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/;

export const MAX_FILTER_TEXT_LENGTH = 10_000;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const pos = i + 1;
    if (c === "'") {
      let value = '';
      let j = i + 1;
      for (;;) {
        if (j >= text.length) throw new FilterError('unterminated string literal', pos);
        if (text[j] === "'") {
          if (text[j + 1] === "'") {
            value += "'";
            j += 2;
            continue;
          }
          break;
        }
        value += text[j];
        j++;
      }
      tokens.push({ type: 'string', text: text.slice(i, j + 1), pos, value });
      i = j + 1;
      continue;
    }
    if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) throw new FilterError('unterminated quoted property name', pos);
      const name = text.slice(i + 1, end);
      if (!name) throw new FilterError('empty quoted property name', pos);
      tokens.push({ type: 'quotedIdent', text: text.slice(i, end + 1), pos, value: name });
      i = end + 1;
      continue;
    }
    const number = (c === '-' || c === '.' || /\d/.test(c)) && NUMBER.exec(text.slice(i));
    if (number) {
      tokens.push({ type: 'number', text: number[0], pos, value: Number(number[0]) });
      i += number[0].length;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '<>' || two === '<=' || two === '>=') {
      tokens.push({ type: 'op', text: two, pos });
      i += 2;
      continue;
    }
    if (c === '=' || c === '<' || c === '>') {
      tokens.push({ type: 'op', text: c, pos });
      i++;
      continue;
    }
    if (c === '(' || c === ')' || c === ',') {
      tokens.push({ type: 'punct', text: c, pos });
      i++;
      continue;
    }
    if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < text.length && IDENT_PART.test(text[j]!)) j++;
      tokens.push({ type: 'ident', text: text.slice(i, j), pos });
      i = j;
      continue;
    }
    throw new FilterError(`unexpected character '${c}'`, pos);
  }
  tokens.push({ type: 'end', text: 'end of filter', pos: text.length + 1 });
  return tokens;
}

const isKeyword = (t: Token, word: string) => t.type === 'ident' && t.text.toUpperCase() === word;
const describe = (t: Token) => (t.type === 'end' ? 'end of filter' : `'${t.text}'`);

class Parser {
  private index = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const t = this.peek();
    if (t.type !== 'end') this.index++;
    return t;
  }

  private fail(expected: string, t: Token = this.peek()): never {
    throw new FilterError(`expected ${expected}, found ${describe(t)}`, t.pos);
  }

  private expectPunct(text: string): Token {
    const t = this.peek();
    if (t.type !== 'punct' || t.text !== text) this.fail(`'${text}'`);
    return this.next();
  }

  private keyword(word: string): boolean {
    if (!isKeyword(this.peek(), word)) return false;
    this.next();
    return true;
  }

  parse(): Filter {
    const filter = this.or();
    const t = this.peek();
    if (t.type !== 'end') this.fail('AND, OR or the end of the filter', t);
    return filter;
  }

  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_FILTER_DEPTH) throw new FilterError(`nested deeper than ${MAX_FILTER_DEPTH} levels`, this.peek().pos);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private or(): Filter {
    const args = [this.and()];
    while (this.keyword('OR')) args.push(this.and());
    return args.length === 1 ? args[0]! : { kind: 'or', args };
  }

  private and(): Filter {
    const args = [this.factor()];
    while (this.keyword('AND')) args.push(this.factor());
    return args.length === 1 ? args[0]! : { kind: 'and', args };
  }

  private factor(): Filter {
    if (this.keyword('NOT')) return this.nested(() => ({ kind: 'not', arg: this.factor() }));
    return this.primary();
  }

  private primary(): Filter {
    const t = this.peek();
    if (t.type === 'punct' && t.text === '(') {
      this.next();
      const inner = this.nested(() => this.or());
      this.expectPunct(')');
      return inner;
    }
    if ((isKeyword(t, 'TRUE') || isKeyword(t, 'FALSE')) && !this.startsComparison(1)) {
      this.next();
      return { kind: 'boolean', value: isKeyword(t, 'TRUE') };
    }
    if (isKeyword(t, 'S_INTERSECTS')) return this.spatial();
    return this.predicate();
  }

  /** `TRUE = x` is a comparison, a lone `TRUE` a boolean filter. */
  private startsComparison(offset: number): boolean {
    const t = this.peek(offset);
    return t.type === 'op';
  }

  private predicate(): Filter {
    const start = this.peek();
    const left = this.scalar();
    const t = this.peek();
    if (t.type === 'op' && COMPARISON_OPS.has(t.text)) {
      this.next();
      return { kind: 'compare', op: t.text as ComparisonOp, left, right: this.scalar() };
    }
    const negated = this.keyword('NOT');
    const afterNot = this.peek();
    const property = (): PropertyRef => {
      if (left.kind !== 'property') throw new FilterError(`${afterNot.text.toUpperCase()} needs a property name on its left`, start.pos);
      return left;
    };
    let filter: Filter;
    if (this.keyword('LIKE')) {
      const p = property();
      const pattern = this.next();
      if (pattern.type !== 'string') this.fail('a string pattern after LIKE', pattern);
      filter = { kind: 'like', property: p, pattern: pattern.value as string };
    } else if (this.keyword('BETWEEN')) {
      const p = property();
      const low = this.literal();
      if (!this.keyword('AND')) this.fail('AND in BETWEEN … AND …');
      filter = { kind: 'between', property: p, low, high: this.literal() };
    } else if (this.keyword('IN')) {
      const p = property();
      this.expectPunct('(');
      const values = [this.literal()];
      while (this.peek().type === 'punct' && this.peek().text === ',') {
        this.next();
        values.push(this.literal());
      }
      this.expectPunct(')');
      filter = { kind: 'in', property: p, values };
    } else if (!negated && this.keyword('IS')) {
      const p = property();
      const isNot = this.keyword('NOT');
      if (!this.keyword('NULL')) this.fail('NULL after IS');
      const isNull: Filter = { kind: 'isNull', property: p };
      return isNot ? { kind: 'not', arg: isNull } : isNull;
    } else {
      this.fail(negated ? 'LIKE, BETWEEN or IN after NOT' : 'a comparison operator, LIKE, BETWEEN, IN or IS NULL');
    }
    return negated ? { kind: 'not', arg: filter } : filter;
  }

  private scalar(): Scalar {
    const t = this.peek();
    if (t.type === 'quotedIdent') {
      this.next();
      return { kind: 'property', name: t.value as string, at: t.pos };
    }
    if (t.type === 'ident' && !isKeyword(t, 'TRUE') && !isKeyword(t, 'FALSE')) {
      if (['AND', 'OR', 'NOT', 'LIKE', 'BETWEEN', 'IN', 'IS', 'NULL'].includes(t.text.toUpperCase())) {
        this.fail('a property name or a literal', t);
      }
      this.next();
      return { kind: 'property', name: t.text, at: t.pos };
    }
    return this.literal();
  }

  private literal(): Literal {
    const t = this.next();
    if (t.type === 'string' || t.type === 'number') return { kind: 'literal', value: t.value!, at: t.pos };
    if (isKeyword(t, 'TRUE') || isKeyword(t, 'FALSE')) return { kind: 'literal', value: isKeyword(t, 'TRUE'), at: t.pos };
    this.fail('a literal (a quoted string, a number, TRUE or FALSE)', t);
  }

  private spatial(): Filter {
    this.next();
    this.expectPunct('(');
    const first = this.spatialOperand();
    this.expectPunct(',');
    const second = this.spatialOperand();
    this.expectPunct(')');
    const property = first.kind === 'property' ? first : second.kind === 'property' ? second : undefined;
    const geometry = first.kind !== 'property' ? first : second.kind !== 'property' ? second : undefined;
    if (!property || !geometry) throw new FilterError('S_INTERSECTS needs a geometry property and a geometry literal', this.peek().pos);
    return { kind: 's_intersects', property, geometry };
  }

  private spatialOperand(): PropertyRef | GeometryLiteral {
    const t = this.peek();
    const at = t.pos;
    if (t.type === 'quotedIdent') {
      this.next();
      return { kind: 'property', name: t.value as string, at: t.pos };
    }
    if (t.type !== 'ident') this.fail('a geometry property or a WKT or BBOX literal', t);
    if (isKeyword(t, 'BBOX')) {
      this.next();
      this.expectPunct('(');
      const values = [this.number()];
      for (let i = 0; i < 3; i++) {
        this.expectPunct(',');
        values.push(this.number());
      }
      this.expectPunct(')');
      return { kind: 'bbox', bbox: values as [number, number, number, number], at };
    }
    if (WKT_TYPES[t.text.toUpperCase()]) return { kind: 'geometry', geojson: this.wkt(), at };
    this.next();
    return { kind: 'property', name: t.text, at: t.pos };
  }

  private number(): number {
    const t = this.next();
    if (t.type !== 'number') this.fail('a number', t);
    return t.value as number;
  }

  private wkt(): { type: string; coordinates?: unknown; geometries?: unknown } {
    const t = this.next();
    const type = WKT_TYPES[t.text.toUpperCase()]!;
    if (type === 'GeometryCollection') {
      this.expectPunct('(');
      const geometries = [this.nested(() => this.wktMember())];
      while (this.peek().text === ',') {
        this.next();
        geometries.push(this.nested(() => this.wktMember()));
      }
      this.expectPunct(')');
      return { type, geometries };
    }
    const depth = { Point: 0, LineString: 1, MultiPoint: 1, Polygon: 2, MultiLineString: 2, MultiPolygon: 3 }[type]!;
    if (type === 'Point') {
      this.expectPunct('(');
      const point = this.position();
      this.expectPunct(')');
      return { type, coordinates: point };
    }
    // MULTIPOINT may list its points bare or each in parentheses.
    return { type, coordinates: this.positions(depth, type === 'MultiPoint') };
  }

  private wktMember() {
    const t = this.peek();
    if (t.type !== 'ident' || !WKT_TYPES[t.text.toUpperCase()]) this.fail('a WKT geometry', t);
    return this.wkt();
  }

  /** `depth` levels of parenthesised, comma-separated lists around positions. */
  private positions(depth: number, bareOrWrapped = false): unknown {
    this.expectPunct('(');
    const items: unknown[] = [];
    do {
      if (items.length > 0) this.next();
      if (depth === 1) {
        if (bareOrWrapped && this.peek().text === '(') {
          this.next();
          items.push(this.position());
          this.expectPunct(')');
        } else {
          items.push(this.position());
        }
      } else {
        items.push(this.nested(() => this.positions(depth - 1)));
      }
    } while (this.peek().type === 'punct' && this.peek().text === ',');
    this.expectPunct(')');
    return items;
  }

  private position(): number[] {
    const coordinates = [this.number(), this.number()];
    if (this.peek().type === 'number') coordinates.push(this.number());
    return coordinates;
  }
}

const WKT_TYPES: Record<string, string> = {
  POINT: 'Point',
  LINESTRING: 'LineString',
  POLYGON: 'Polygon',
  MULTIPOINT: 'MultiPoint',
  MULTILINESTRING: 'MultiLineString',
  MULTIPOLYGON: 'MultiPolygon',
  GEOMETRYCOLLECTION: 'GeometryCollection',
};

export function parseCql2Text(text: string): Filter {
  if (text.length > MAX_FILTER_TEXT_LENGTH) throw new FilterError(`the filter is longer than ${MAX_FILTER_TEXT_LENGTH} characters`, MAX_FILTER_TEXT_LENGTH + 1);
  if (!text.trim()) throw new FilterError('the filter is empty', 1);
  return new Parser(tokenize(text)).parse();
}
