import { describe, expect, it } from 'vitest';
import { ArrayColumns, ByteWriter, CopyWriter, writeEwkb } from '../../../src/ingest/binary.ts';
import type { PlaceGeometry } from '../../../src/ingest/feature.ts';

const hex = (g: PlaceGeometry) => {
  const w = new ByteWriter(16);
  writeEwkb(w, g);
  return Buffer.from(w.take()).toString('hex');
};

describe('EWKB', () => {
  it('encodes a point as PostGIS does (little endian, SRID flag, SRID 4326)', () => {
    // SELECT ST_AsEWKB('SRID=4326;POINT(1 2)'::geometry, 'NDR')
    expect(hex({ type: 'Point', coordinates: [1, 2] })).toBe('0101000020e6100000000000000000f03f0000000000000040');
  });

  it('encodes polygons ring by ring and multi geometries as headed parts', () => {
    const polygon = hex({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] });
    expect(polygon.slice(0, 26)).toBe('0103000020e6100000' + '01000000'); // type 3 + SRID, 1 ring
    expect(polygon.slice(26, 34)).toBe('04000000'); // 4 points
    expect(polygon.length / 2).toBe(9 + 4 + 4 + 4 * 16);
    const multi = hex({ type: 'MultiLineString', coordinates: [[[0, 0], [1, 1]], [[2, 2], [3, 3]]] });
    expect(multi.slice(0, 26)).toBe('0105000020e6100000' + '02000000');
    expect(multi.slice(26, 36)).toBe('0102000000'); // each part: byte order + LineString, no SRID
    expect(multi.length / 2).toBe(9 + 4 + 2 * (5 + 4 + 2 * 16));
  });
});

describe('binary COPY and binary arrays', () => {
  it('writes the COPY signature, length-prefixed fields, NULLs and the trailer', () => {
    const w = new CopyWriter();
    w.row(3);
    w.int4(7);
    w.text('é');
    w.vector(null);
    const bytes = Buffer.from(w.take());
    expect(bytes.subarray(0, 11).toString('latin1')).toBe('PGCOPY\n\xff\r\n\0');
    expect(bytes.readInt16BE(19)).toBe(3);
    expect(bytes.readInt32BE(21)).toBe(4);
    expect(bytes.readInt32BE(25)).toBe(7);
    expect(bytes.readInt32BE(29)).toBe(2); // 'é' is 2 bytes of UTF-8
    expect(bytes.readInt32BE(35)).toBe(-1);
    expect(bytes.readInt16BE(39)).toBe(-1);
    expect(bytes.length).toBe(41);
  });

  it('writes vectors as int16 dimension, int16 0 and float4 values', () => {
    const w = new CopyWriter();
    w.row(1);
    w.vector([0.5, -1]);
    const bytes = Buffer.from(w.take());
    expect(bytes.readInt32BE(21)).toBe(12);
    expect(bytes.readInt16BE(25)).toBe(2);
    expect(bytes.readInt16BE(27)).toBe(0);
    expect([bytes.readFloatBE(29), bytes.readFloatBE(33)]).toEqual([0.5, -1]);
  });

  it('writes one array per column with its header: dimensions, null flag, element type, length, lower bound', () => {
    const w = new ArrayColumns(['int4', 'text'], { geometry: 1, vector: 2 });
    for (const [n, s] of [[1, 'a'], [2, null]] as const) {
      w.row(2);
      w.int4(n);
      w.text(s);
    }
    const [ints, texts] = w.take();
    expect([0, 4, 8, 12, 16].map((o) => ints!.readInt32BE(o))).toEqual([1, 0, 23, 2, 1]);
    expect([0, 4, 8, 12, 16].map((o) => texts!.readInt32BE(o))).toEqual([1, 1, 25, 2, 1]);
    expect(texts!.readInt32BE(20)).toBe(1);
    expect(texts!.readInt32BE(25)).toBe(-1);
  });
});
