/**
 * Streaming OSM PBF reader: nodes, ways and multipolygon/boundary relations -> PlaceFeatures.
 *
 * Two passes over the file, because relations come last in a sorted PBF but decide which ways
 * must be remembered:
 *   1. relations only (other blocks are inflated but not decoded): which ways are members of area
 *      relations, and how many relations use each;
 *   2. everything: node coordinates go into compact typed arrays, tagged nodes and ways are emitted
 *      as they stream by, member ways keep their node ids + coordinates until their relations are
 *      assembled, and the node index is dropped as soon as the relations start.
 * Memory is therefore ~16 bytes per node (id + fixed-point lon/lat) plus the member ways, never one
 * object per node. The extra pass costs a fraction of the main one.
 *
 * The file must be sorted nodes -> ways -> relations (osmium's `Sort.Type_then_ID`, what every
 * extract tool writes); otherwise a clear IngestError asks for `osmium sort`.
 */
import { createReadStream, existsSync } from 'node:fs';
import { readStreamReporting } from './bytes.js';
import { pipeline } from 'node:stream';
import { inflateSync } from 'node:zlib';
import { OSMTransform, parse as parseBlock } from 'osm-pbf-parser-node';
import { categoryForOsmTags, type GeometryKind } from './category.js';
import { describePlace } from './describe.js';
import { IngestError, type PlaceFeature, type PlaceGeometry, type Position, type ReaderOptions } from './feature.js';
import { orientRing } from './geometry.js';
import { AREA_RELATION_TYPES, assembleArea, isAreaTags, type Assembly, type WayPath } from './osm-areas.js';
import { NodeIndex } from './osm-node-index.js';

type Tags = Record<string, string>;
interface OsmNode {
  type: 'node';
  id: number;
  lat: number;
  lon: number;
  tags?: Tags;
}
interface OsmWay {
  type: 'way';
  id: number;
  refs: number[];
  tags?: Tags;
}
interface OsmMember {
  type: 'node' | 'way' | 'relation';
  ref: number;
  role: string;
}
interface OsmRelation {
  type: 'relation';
  id: number;
  members: OsmMember[];
  tags?: Tags;
}
type OsmEntity = OsmNode | OsmWay | OsmRelation;

/** Counters filled while reading; pass an object in `OsmReadOptions.stats` to get them. */
export { AREA_KEYS, assembleArea, isAreaTags, type WayPath } from './osm-areas.js';

export interface OsmReadStats {
  nodes: number;
  ways: number;
  relations: number;
  points: number;
  lines: number;
  polygons: number;
  /** Features from relations (Polygon or MultiPolygon). */
  relationAreas: number;
  /** Area relations whose tags are only `type` (old-style multipolygons: the tags are on the outer way). */
  untaggedAreaRelations: number;
  /** Area relations that could not be assembled (reported through onWarning). */
  failedRelations: number;
  /** Way node references not found in the file (cut by the extract). */
  missingNodeRefs: number;
}

export interface OsmReadOptions extends ReaderOptions {
  /** Filled in while reading. */
  stats?: OsmReadStats;
}

export function emptyOsmStats(): OsmReadStats {
  return {
    nodes: 0, ways: 0, relations: 0, points: 0, lines: 0, polygons: 0, relationAreas: 0,
    untaggedAreaRelations: 0, failedRelations: 0, missingNodeRefs: 0,
  };
}

/**
 * Tags that say nothing about the place itself: an element carrying only these is not a feature
 * (node soup from old imports, `created_by` left by editors).
 */
const NON_FEATURE_KEYS = new Set(['created_by', 'source', 'converted_by', 'attribution', 'fixme', 'FIXME', 'note', 'odbl', 'odbl:note']);

export function hasFeatureTags(tags: Tags | undefined, ignore?: string): boolean {
  if (!tags) return false;
  for (const key in tags) {
    if (key === ignore || NON_FEATURE_KEYS.has(key) || key.startsWith('source:')) continue;
    return true;
  }
  return false;
}

/**
 * The parser throws synchronously inside _transform on corrupt blocks (zlib errors, failed asserts),
 * which escapes the stream machinery as an uncaught exception; routing it to the callback turns it
 * into a stream error that the reader can report.
 */
class SafeOSMTransform extends OSMTransform {
  override _transform(chunk: unknown, encoding: BufferEncoding, next: (error?: Error | null) => void): void {
    try {
      super._transform(chunk, encoding, next);
    } catch (e) {
      next(e instanceof Error ? e : new Error(String(e)));
    }
  }

  override _flush(callback: (error?: Error | null) => void): void {
    try {
      super._flush(callback);
    } catch (e) {
      callback(e instanceof Error ? e : new Error(String(e)));
    }
  }
}

/** Iterates the entities of a PBF in the parser's batches (one await per block, not per entity). */
async function* batches(
  path: string,
  withTags: ConstructorParameters<typeof OSMTransform>[0],
  onBytes?: (read: number, total: number) => void,
): AsyncGenerator<OsmEntity[]> {
  // Few parsed blocks buffered ahead: the bytes read stay close to the bytes parsed (progress), and memory low.
  const transform = new SafeOSMTransform(withTags, { readableHighWaterMark: 2 });
  // pipeline (not pipe) so that read errors (permissions, truncation) reach the iterator.
  pipeline(readStreamReporting(path, onBytes), transform, () => {});
  for await (const batch of transform as AsyncIterable<Array<OsmEntity | { type?: undefined }>>) {
    // The header block has no `type`; it is the only such item.
    yield batch.filter((e): e is OsmEntity => e.type !== undefined);
  }
}

/**
 * Pass 1 only needs relations, which sit in the last few blocks. Raw mode hands over compressed blocks;
 * each is inflated and only blocks whose primitive groups hold relations are decoded, which makes
 * the first pass ~10x cheaper than a full parse.
 */
async function* relationBatches(path: string, onBlock: (n: number) => void): AsyncGenerator<OsmEntity[]> {
  const transform = new SafeOSMTransform({ writeRaw: true });
  pipeline(createReadStream(path), transform, () => {});
  let n = 0;
  for await (const chunk of transform as AsyncIterable<unknown>) {
    if (!Buffer.isBuffer(chunk)) continue; // the header block
    onBlock(++n);
    const block = inflateSync(chunk);
    if (!blockHasRelations(block)) continue;
    const items = parseBlock(block, { withTags: { node: false, way: false, relation: true } }) as OsmEntity[];
    yield items.filter((e) => e.type === 'relation');
  }
}

function readVarint(buf: Buffer, pos: number): [value: number, next: number] {
  let value = 0;
  let shift = 0;
  let byte: number;
  do {
    if (pos >= buf.length) throw new Error('truncated varint in PrimitiveBlock');
    byte = buf[pos++]!;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, pos];
}

/**
 * Walks the top-level protobuf fields of a PrimitiveBlock (osmformat.proto): field 2 is a
 * PrimitiveGroup, and a group holds one kind of element, identified by its first field
 * (1 nodes, 2 dense nodes, 3 ways, 4 relations).
 */
function blockHasRelations(buf: Buffer): boolean {
  let pos = 0;
  while (pos < buf.length) {
    let key: number;
    [key, pos] = readVarint(buf, pos);
    const field = Math.floor(key / 8);
    const wire = key & 7;
    if (wire === 2) {
      let len: number;
      [len, pos] = readVarint(buf, pos);
      if (field === 2 && len > 0 && Math.floor(readVarint(buf, pos)[0] / 8) === 4) return true;
      pos += len;
    } else if (wire === 0) [, pos] = readVarint(buf, pos);
    else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else throw new Error(`unexpected protobuf wire type ${wire} in PrimitiveBlock`);
  }
  return false;
}

function geometryKind(g: PlaceGeometry): GeometryKind {
  return g.type === 'Point' ? 'point' : g.type === 'LineString' ? 'line' : 'area';
}

function makeFeature(source: string, sourceId: string, tags: Tags, geometry: PlaceGeometry, describe: boolean): PlaceFeature {
  const feature: PlaceFeature = {
    source,
    sourceId,
    name: tags.name ?? null,
    category: categoryForOsmTags(tags, geometryKind(geometry)),
    tags,
    description: '',
    descriptionFromTags: true,
    geometry,
  };
  if (describe) feature.description = describePlace(feature);
  return feature;
}

/**
 * Reads an OSM PBF file and yields one PlaceFeature per tagged node (Point), tagged way (LineString or
 * Polygon) and tagged multipolygon/boundary relation ((Multi)Polygon). Problems with single elements
 * (missing nodes, relations that do not close) go to `onWarning`; broken files throw IngestError.
 */
export async function* readOsmPbf(path: string, opts: OsmReadOptions = {}): AsyncGenerator<PlaceFeature> {
  const source = opts.source ?? 'osm';
  const describe = opts.describe !== false;
  const stats = opts.stats ?? emptyOsmStats();
  const warn = (location: string, problem: string) => opts.onWarning?.(new IngestError(path, location, problem));
  if (!existsSync(path)) throw new IngestError(path, 'file', 'file does not exist');

  // Where a broken file broke: the data block in pass 1 (elements are not decoded there), else the last
  // element. The element's name is only built when needed: pass 2 visits every node of the file.
  let where = 'file header';
  let lastType: OsmEntity['type'] | null = null;
  let lastId = 0;
  const fail = (e: unknown): never => {
    if (e instanceof IngestError) throw e;
    const why = e instanceof Error ? e.message : String(e);
    const location = lastType === null ? where : `after ${lastType}/${lastId}`;
    throw new IngestError(path, location, `cannot read the PBF data (${why}); the file is truncated, corrupt or not OSM PBF`);
  };

  // Pass 1: which ways do tagged area relations need, and how often (so each can be dropped after its last use).
  const memberUses = new Map<number, number>();
  try {
    for await (const batch of relationBatches(path, (n) => (where = `data block ${n}`))) {
      for (const e of batch) {
        if (e.type !== 'relation' || !isAreaRelation(e) || !hasFeatureTags(e.tags, 'type')) continue;
        for (const m of e.members) if (m.type === 'way') memberUses.set(m.ref, (memberUses.get(m.ref) ?? 0) + 1);
      }
    }
  } catch (e) {
    fail(e);
  }

  // Pass 2.
  let nodes: NodeIndex | null = new NodeIndex();
  const memberWays = new Map<number, WayPath>();
  let phase: 'node' | 'way' | 'relation' = 'node';
  const order = { node: 0, way: 1, relation: 2 } as const;

  try {
    for await (const batch of batches(path, { withTags: true }, opts.onBytes)) {
      for (const e of batch) {
        if (order[e.type] < order[phase]) {
          throw new IngestError(path, `${e.type}/${e.id}`, `${e.type}s after ${phase}s: the file is not sorted by type (run \`osmium sort\`)`);
        }
        if (e.type !== phase) {
          if (phase === 'node') nodes!.finish();
          phase = e.type;
          // Relations only need the member ways: the node index can go.
          if (phase === 'relation') nodes = null;
        }
        lastType = e.type;
        lastId = e.id;

        if (e.type === 'node') {
          stats.nodes++;
          nodes!.add(e.id, e.lon, e.lat);
          if (hasFeatureTags(e.tags)) {
            stats.points++;
            yield makeFeature(source, `node/${e.id}`, e.tags!, { type: 'Point', coordinates: roundPos(e.lon, e.lat) }, describe);
          }
        } else if (e.type === 'way') {
          stats.ways++;
          const tagged = hasFeatureTags(e.tags);
          const uses = memberUses.get(e.id);
          if (!tagged && !uses) continue;
          const last = `way/${e.id}`;
          const resolved = resolveWay(e, nodes!);
          if (resolved.missing > 0) {
            stats.missingNodeRefs += resolved.missing;
            warn(last, `${resolved.missing} of ${e.refs.length} nodes are not in the file; using the others`);
          }
          if (uses) memberWays.set(e.id, resolved);
          if (!tagged) continue;
          const feature = wayFeature(e, resolved, source, describe);
          if (!feature) {
            warn(last, `has ${resolved.coords.length} node(s) in the file (${e.refs.length} referenced), too few for a line; skipped`);
            continue;
          }
          if (feature.geometry.type === 'Polygon') stats.polygons++;
          else stats.lines++;
          yield feature;
        } else {
          stats.relations++;
          if (!isAreaRelation(e)) continue;
          if (!hasFeatureTags(e.tags, 'type')) {
            stats.untaggedAreaRelations++;
            continue;
          }
          const last = `relation/${e.id}`;
          const result = assembleRelation(e, memberWays);
          // Release member ways this relation was the last user of.
          for (const m of e.members) {
            if (m.type !== 'way') continue;
            const left = (memberUses.get(m.ref) ?? 1) - 1;
            if (left <= 0) {
              memberUses.delete(m.ref);
              memberWays.delete(m.ref);
            } else memberUses.set(m.ref, left);
          }
          if ('error' in result) {
            stats.failedRelations++;
            warn(last, `cannot build the ${e.tags!.type} area: ${result.error}`);
            continue;
          }
          stats.relationAreas++;
          yield makeFeature(source, last, e.tags!, result.geometry, describe);
        }
      }
    }
  } catch (e) {
    fail(e);
  }
}

function roundPos(lon: number, lat: number): Position {
  // Same 1e-7 rounding as the node index, so a point and the way vertex on the same node are equal.
  return [Math.round(lon * 1e7) / 1e7, Math.round(lat * 1e7) / 1e7];
}

function isAreaRelation(r: OsmRelation): boolean {
  const type = r.tags?.type;
  return type !== undefined && AREA_RELATION_TYPES.has(type);
}

function resolveWay(way: OsmWay, nodes: NodeIndex): WayPath & { missing: number } {
  const refs: number[] = [];
  const coords: Position[] = [];
  let missing = 0;
  for (const ref of way.refs) {
    const p = nodes.get(ref);
    if (!p) {
      missing++;
      continue;
    }
    refs.push(ref);
    coords.push(p);
  }
  return { wayId: way.id, refs, coords, missing };
}

function wayFeature(way: OsmWay, p: WayPath, source: string, describe: boolean): PlaceFeature | null {
  if (p.coords.length < 2) return null;
  const tags = way.tags!;
  const closedInFile = way.refs.length >= 4 && way.refs[0] === way.refs[way.refs.length - 1];
  // Closure is judged on the resolved nodes: a ring whose first node was cut off is only a line now.
  const closed = closedInFile && p.refs.length >= 4 && p.refs[0] === p.refs[p.refs.length - 1];
  const geometry: PlaceGeometry =
    closed && isAreaTags(tags)
      ? { type: 'Polygon', coordinates: [orientRing(p.coords, true)] }
      : { type: 'LineString', coordinates: p.coords };
  return makeFeature(source, `way/${way.id}`, tags, geometry, describe);
}

/**
 * Builds a (Multi)Polygon from the relation's way members: segments are joined end to end on shared
 * node ids into closed rings; nesting depth decides outer (even) vs inner (odd), which is more robust
 * than trusting member roles, and each inner ring goes to the smallest ring containing it.
 */
function assembleRelation(rel: OsmRelation, memberWays: Map<number, WayPath>): Assembly {
  const segments: WayPath[] = [];
  for (const m of rel.members) {
    if (m.type !== 'way') continue; // label / admin_centre nodes, subarea relations
    if (m.role !== '' && m.role !== 'outer' && m.role !== 'inner') continue;
    const w = memberWays.get(m.ref);
    if (!w) return { error: `member way/${m.ref} is not in the file (outside the extract?)` };
    if (w.refs.length < 2) return { error: `member way/${m.ref} has fewer than 2 nodes in the file` };
    segments.push(w);
  }
  if (segments.length === 0) return { error: 'no outer/inner way members' };
  return assembleArea(segments);
}
