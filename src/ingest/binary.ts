/**
 * Compact binary encodings for bulk loading: EWKB geometries and PostgreSQL's binary COPY format.
 *
 * Why: in the embedded database (PostgreSQL compiled to WASM) parsing text is the expensive part of a
 * load: GeoJSON geometries through json-c, and above all vectors as decimal text (measured on the Midtown
 * extract: ~4 s of a ~5 s COPY in text format went into parsing 9,339 vector literals, versus ~1.5 s for
 * the whole load in binary format). Binary COPY hands PostgreSQL the values in its own wire format:
 * text as UTF-8, geometries as EWKB, vectors as float4, so no parser runs for them.
 */
import type { PlaceGeometry, Position } from './feature.ts';

/** A growable byte buffer written through a DataView (network byte order unless told otherwise). */
export class ByteWriter {
  private bytes: Uint8Array;
  private view: DataView;
  /** The same memory as a Buffer: Buffer#write encodes UTF-8 in place, with no view or result object per text. */
  private buffer: Buffer;
  length = 0;

  constructor(initialSize = 1 << 16) {
    this.bytes = new Uint8Array(initialSize);
    this.view = new DataView(this.bytes.buffer);
    this.buffer = Buffer.from(this.bytes.buffer, 0, this.bytes.length);
  }

  reserve(n: number): void {
    const needed = this.length + n;
    if (needed <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < needed) size *= 2;
    const bytes = new Uint8Array(size);
    bytes.set(this.bytes.subarray(0, this.length));
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer);
    this.buffer = Buffer.from(bytes.buffer, 0, bytes.length);
  }

  uint8(v: number): void {
    this.reserve(1);
    this.bytes[this.length++] = v;
  }

  int16(v: number): void {
    this.reserve(2);
    this.view.setInt16(this.length, v);
    this.length += 2;
  }

  int32(v: number, littleEndian = false): void {
    this.reserve(4);
    this.view.setInt32(this.length, v, littleEndian);
    this.length += 4;
  }

  uint32LE(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }

  float64LE(v: number): void {
    this.reserve(8);
    this.view.setFloat64(this.length, v, true);
    this.length += 8;
  }

  float32(v: number): void {
    this.reserve(4);
    this.view.setFloat32(this.length, v);
    this.length += 4;
  }

  /** float4 values in network byte order, one bounds check for all (a vector is hundreds of them). */
  float32s(values: ArrayLike<number>): void {
    this.reserve(4 * values.length);
    const view = this.view;
    let at = this.length;
    for (let i = 0; i < values.length; i++, at += 4) view.setFloat32(at, values[i]!);
    this.length = at;
  }

  setInt32At(offset: number, v: number): void {
    this.view.setInt32(offset, v);
  }

  /** UTF-8 bytes of `s`; returns how many were written. */
  utf8(s: string): number {
    this.reserve(s.length * 3);
    const written = this.buffer.write(s, this.length, 'utf8');
    this.length += written;
    return written;
  }

  /** The bytes written so far, in a buffer of their own (transferable, nothing else shares it). */
  take(): Uint8Array {
    const out = this.bytes.slice(0, this.length);
    this.length = 0;
    return out;
  }

  /** The bytes written so far without a copy; the writer starts over on a new buffer. */
  takeView(): Buffer {
    const out = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.length);
    this.bytes = new Uint8Array(256);
    this.view = new DataView(this.bytes.buffer);
    this.buffer = Buffer.from(this.bytes.buffer, 0, this.bytes.length);
    this.length = 0;
    return out;
  }
}

const WKB_TYPE = { Point: 1, LineString: 2, Polygon: 3, MultiPoint: 4, MultiLineString: 5, MultiPolygon: 6 } as const;
const EWKB_SRID_FLAG = 0x20000000;

/** Thrown for a NaN or infinite coordinate, which PostGIS would store without complaint. */
export class NonFiniteCoordinate extends Error {
  override name = 'NonFiniteCoordinate';
}

function writePosition(w: ByteWriter, p: Position): void {
  const [x, y] = p;
  if (!Number.isFinite(x) || !Number.isFinite(y)) throw new NonFiniteCoordinate(`coordinate [${x}, ${y}] is not a pair of finite numbers`);
  w.float64LE(x);
  w.float64LE(y);
}

function writePoints(w: ByteWriter, points: readonly Position[]): void {
  w.uint32LE(points.length);
  w.reserve(points.length * 16);
  for (const p of points) writePosition(w, p);
}

function writeRings(w: ByteWriter, rings: readonly (readonly Position[])[]): void {
  w.uint32LE(rings.length);
  for (const ring of rings) writePoints(w, ring);
}

function writeHeader(w: ByteWriter, type: number): void {
  w.uint8(1); // little endian
  w.uint32LE(type);
}

/** Appends the EWKB (little endian, with SRID) of a geometry: what PostGIS's binary input reads. */
export function writeEwkb(w: ByteWriter, g: PlaceGeometry, srid = 4326): void {
  w.uint8(1);
  w.uint32LE(WKB_TYPE[g.type] | EWKB_SRID_FLAG);
  w.uint32LE(srid);
  switch (g.type) {
    case 'Point':
      writePosition(w, g.coordinates);
      break;
    case 'LineString':
      writePoints(w, g.coordinates);
      break;
    case 'Polygon':
      writeRings(w, g.coordinates);
      break;
    case 'MultiPoint':
      w.uint32LE(g.coordinates.length);
      for (const p of g.coordinates) {
        writeHeader(w, WKB_TYPE.Point);
        writePosition(w, p);
      }
      break;
    case 'MultiLineString':
      w.uint32LE(g.coordinates.length);
      for (const line of g.coordinates) {
        writeHeader(w, WKB_TYPE.LineString);
        writePoints(w, line);
      }
      break;
    case 'MultiPolygon':
      w.uint32LE(g.coordinates.length);
      for (const polygon of g.coordinates) {
        writeHeader(w, WKB_TYPE.Polygon);
        writeRings(w, polygon);
      }
      break;
  }
}

/** The field writers shared by CopyWriter (rows) and ArrayColumns (columns). */
export interface RowWriter {
  /** Starts a row of `fields` values (written in column order by the calls that follow). */
  row(fields: number): void;
  null(): void;
  int4(v: number): void;
  bool(v: boolean): void;
  text(s: string | null): void;
  jsonb(json: string): void;
  geometry(g: PlaceGeometry): void;
  vector(v: ArrayLike<number> | null): void;
}

/**
 * Rows in PostgreSQL's binary COPY format (`COPY t (cols) FROM ... WITH (FORMAT binary)`): a signature,
 * then per row the field count and each field as a length-prefixed value in the type's binary form.
 */
export class CopyWriter implements RowWriter {
  readonly w = new ByteWriter(1 << 20);
  rows = 0;

  constructor() {
    this.header();
  }

  private header(): void {
    // "PGCOPY\n\377\r\n\0", flags, header extension length.
    for (const b of [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00]) this.w.uint8(b);
    this.w.int32(0);
    this.w.int32(0);
  }

  row(fields: number): void {
    this.w.int16(fields);
    this.rows++;
  }

  null(): void {
    this.w.int32(-1);
  }

  int4(v: number): void {
    this.w.int32(4);
    this.w.int32(v);
  }

  bool(v: boolean): void {
    this.w.int32(1);
    this.w.uint8(v ? 1 : 0);
  }

  /** A text value (or NULL). */
  text(s: string | null): void {
    if (s === null) return this.null();
    const at = this.w.length;
    this.w.int32(0);
    this.w.setInt32At(at, this.w.utf8(s));
  }

  /** A jsonb value from its JSON text: version byte 1, then the text. */
  jsonb(json: string): void {
    const at = this.w.length;
    this.w.int32(0);
    this.w.uint8(1);
    this.w.setInt32At(at, this.w.utf8(json) + 1);
  }

  geometry(g: PlaceGeometry): void {
    const at = this.w.length;
    this.w.int32(0);
    writeEwkb(this.w, g);
    this.w.setInt32At(at, this.w.length - at - 4);
  }

  /** A pgvector `vector`: int16 dimension, int16 unused (0), then float4 values. */
  vector(v: ArrayLike<number> | null): void {
    if (v === null) return this.null();
    this.w.int32(4 + 4 * v.length);
    this.w.int16(v.length);
    this.w.int16(0);
    this.w.float32s(v);
  }

  /** The finished COPY data (the writer starts over, ready for the next batch). */
  take(): Uint8Array {
    this.w.int16(-1);
    const out = this.w.take();
    this.rows = 0;
    this.header();
    return out;
  }
}

/** Element types of the arrays ArrayColumns can write; geometry and vector OIDs come from the database. */
export type ArrayElementType = 'int4' | 'bool' | 'text' | 'jsonb' | 'geometry' | 'vector';

const BUILTIN_OIDS = { int4: 23, bool: 16, text: 25, jsonb: 3802 } as const;
/** ndim, flags, element type, then length and lower bound of the one dimension. */
const ARRAY_HEADER_BYTES = 20;

/**
 * The same rows as CopyWriter, written as one binary-format array per column: node-postgres sends a
 * Buffer parameter in binary format, so `unnest($1::int4[], $2::text[], ...)` receives the values in
 * PostgreSQL's own binary form (no JSON, no decimal vectors to parse, no hex geometries).
 */
export class ArrayColumns implements RowWriter {
  private readonly columns: { oid: number; w: ByteWriter; count: number; nulls: boolean }[];
  private next = 0;

  constructor(types: readonly ArrayElementType[], oids: { geometry: number; vector: number }) {
    this.columns = types.map((t) => {
      const w = new ByteWriter(1 << 14);
      w.length = ARRAY_HEADER_BYTES; // filled in by take()
      return { oid: t === 'geometry' ? oids.geometry : t === 'vector' ? oids.vector : BUILTIN_OIDS[t], w, count: 0, nulls: false };
    });
  }

  private column() {
    const c = this.columns[this.next]!;
    this.next = (this.next + 1) % this.columns.length;
    c.count++;
    return c;
  }

  row(fields: number): void {
    if (fields !== this.columns.length || this.next !== 0) throw new Error(`row of ${fields} fields for ${this.columns.length} columns`);
  }

  null(): void {
    const c = this.column();
    c.nulls = true;
    c.w.int32(-1);
  }

  int4(v: number): void {
    const { w } = this.column();
    w.int32(4);
    w.int32(v);
  }

  bool(v: boolean): void {
    const { w } = this.column();
    w.int32(1);
    w.uint8(v ? 1 : 0);
  }

  text(s: string | null): void {
    if (s === null) return this.null();
    const { w } = this.column();
    const at = w.length;
    w.int32(0);
    w.setInt32At(at, w.utf8(s));
  }

  jsonb(json: string): void {
    const { w } = this.column();
    const at = w.length;
    w.int32(0);
    w.uint8(1);
    w.setInt32At(at, w.utf8(json) + 1);
  }

  geometry(g: PlaceGeometry): void {
    const { w } = this.column();
    const at = w.length;
    w.int32(0);
    writeEwkb(w, g);
    w.setInt32At(at, w.length - at - 4);
  }

  vector(v: ArrayLike<number> | null): void {
    if (v === null) return this.null();
    const { w } = this.column();
    w.int32(4 + 4 * v.length);
    w.int16(v.length);
    w.int16(0);
    w.float32s(v);
  }

  /** One Buffer per column: a one-dimensional array in binary format (array_recv). Call once. */
  take(): Buffer[] {
    return this.columns.map((c) => {
      c.w.setInt32At(0, 1); // dimensions
      c.w.setInt32At(4, c.nulls ? 1 : 0);
      c.w.setInt32At(8, c.oid | 0);
      c.w.setInt32At(12, c.count);
      c.w.setInt32At(16, 1); // lower bound
      return c.w.takeView();
    });
  }
}
