import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import { toVectorLiteral } from '../embedding/space.ts';
import type { Constraint, SpatialPlan } from '../planning/plan.ts';
import { ROUTE_REF } from '../planning/plan.ts';
import type { GeoJsonGeometry, ResolvedReference } from './resolve.ts';

/**
 * Sparse spatial retrieval with dense scores in the same round trip. The work of a question is bounded by
 * index-driven pools, not by how many places lie in its window (a 1.5 km window of Midtown holds 2,900
 * candidates, a city millions):
 *   - spatial: the places nearest the first constraint's geometry (GiST nearest-first scan);
 *   - tagged: the places matching the plan's tag or category targets, nearest first (GIN over tag tokens;
 *     beyond TAGGED_POOL matches in the window, the farther ones count as untagged);
 *   - semantic: the places whose description is closest to the semantic part of the question
 *     (pgvector: exact inside a small window, HNSW for a large one, as the planner estimates);
 * each inside the window of the constraints as a bounding box in degrees (a superset of the real window).
 * Only the union, a few hundred rows, is then measured exactly: PostGIS distances in metres on the sphere,
 * the constraints, the tag match and pgvector's cosine similarities to the two embedded parts of the
 * question. Only SQL written here runs: the functions come from this allow-list, every value is a bound
 * parameter, and there is a LIMIT.
 */
export const ALLOWED_SQL_FUNCTIONS = [
  'ST_GeomFromGeoJSON', 'ST_SetSRID', 'ST_Distance', 'ST_Intersects', 'ST_PointOnSurface', 'ST_MakeEnvelope',
  'ST_XMin', 'ST_YMin', 'ST_XMax', 'ST_YMax', 'place_tag_tokens', 'unnest', 'coalesce',
] as const;

export interface Candidate {
  id: number;
  sourceId: string;
  name: string;
  category: string | null;
  tags: Record<string, string>;
  description: string;
  /** Bounding box [west, south, east, north]; the geometry itself is fetched for the answers only (placeGeometries). */
  bbox: [number, number, number, number];
  /** Metres to the geometry of each constraint, in constraint order. */
  distances: number[];
  /** Whether each constraint holds (nearest: decided after the query, from the rank). */
  satisfied: boolean[];
  tagMatch: boolean;
  /** Cosine similarity of the description to the semantic / spatial text; null without a vector. */
  semanticSimilarity: number | null;
  spatialSimilarity: number | null;
}

export interface RetrievalQuery {
  sql: string;
  parameters: unknown[];
}

export interface RetrievalResult {
  candidates: Candidate[];
  query: RetrievalQuery;
}

/** Bounds of the candidate pool and of near-miss windows around a constraint. */
export const POOL_SIZE = 400;
export const NEAREST_WINDOW_M = 3000;
/** Rows each index-driven pool contributes before the exact measurements (see the module comment). */
export const SPATIAL_POOL = 100;
export const TAGGED_POOL = 200;
export const SEMANTIC_POOL = 150;

type Envelope = [number, number, number, number];

/** Metres per degree of latitude, rounded down so that windows in degrees are never too small. */
const METRES_PER_DEGREE = 110_500;

function geometryParam(geometry: GeoJsonGeometry): RawBuilder<unknown> {
  return sql`ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify(geometry)}), 4326)`;
}

/** The geometry a constraint is measured against: a reference, the route line, or the segment between two references. */
function constraintGeometry(c: Constraint, refs: Map<string, ResolvedReference>, plan: SpatialPlan): GeoJsonGeometry {
  const segment = (a: string, b: string): GeoJsonGeometry => {
    const from = refs.get(a)!.centroid;
    const to = refs.get(b)!.centroid;
    return { type: 'LineString', coordinates: [[from.lon, from.lat], [to.lon, to.lat]] };
  };
  if (c.fn === 'between') return segment(c.refs[0], c.refs[1]);
  if (c.ref === ROUTE_REF) return segment(plan.route!.from, plan.route!.to);
  return refs.get(c.ref)!.geometry;
}

/** Margin beyond a constraint inside which near misses are still fetched (with a lower sparse score). */
export function nearMissMargin(c: Constraint): number {
  if (c.fn === 'within_distance') return Math.max(100, c.distanceM * 0.5);
  if (c.fn === 'along' || c.fn === 'between') return Math.max(50, c.bufferM * 0.5);
  return 150;
}

/** Metres from the constraint's geometry within which it holds (inside/intersects: on the geometry itself). */
function satisfiedReach(c: Constraint): number {
  if (c.fn === 'within_distance') return c.distanceM;
  if (c.fn === 'along' || c.fn === 'between') return c.bufferM;
  if (c.fn === 'nearest') return NEAREST_WINDOW_M;
  return 0;
}

/** Metres from the constraint's geometry within which candidates are fetched (the reach plus near misses). */
function windowReach(c: Constraint): number {
  return c.fn === 'nearest' ? NEAREST_WINDOW_M : satisfiedReach(c) + nearMissMargin(c);
}

function boundsOf(geometry: GeoJsonGeometry): Envelope {
  const box: Envelope = [Infinity, Infinity, -Infinity, -Infinity];
  const visit = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') {
      const [x, y] = c as number[];
      box[0] = Math.min(box[0], x!);
      box[1] = Math.min(box[1], y!);
      box[2] = Math.max(box[2], x!);
      box[3] = Math.max(box[3], y!);
    } else if (Array.isArray(c)) c.forEach(visit);
  };
  visit(geometry.coordinates);
  return box;
}

/** The box of a geometry grown by `metres` on every side, in degrees (a superset: degrees of longitude shrink poleward). */
export function expandedEnvelope(geometry: GeoJsonGeometry, metres: number): Envelope {
  const [x0, y0, x1, y1] = boundsOf(geometry);
  const dy = metres / METRES_PER_DEGREE;
  const poleward = Math.min(90, Math.max(Math.abs(y0 - dy), Math.abs(y1 + dy)));
  const cos = Math.cos((poleward * Math.PI) / 180);
  const dx = cos < 0.01 ? 360 : dy / cos;
  return [Math.max(-180, x0 - dx), Math.max(-90, y0 - dy), Math.min(180, x1 + dx), Math.min(90, y1 + dy)];
}

function intersectEnvelopes(boxes: Envelope[]): Envelope | null {
  const [x0, y0, x1, y1] = boxes.reduce((a, b) => [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])]);
  return x0 <= x1 && y0 <= y1 ? [x0, y0, x1, y1] : null;
}

function inEnvelope(box: Envelope | null): RawBuilder<boolean> {
  return box ? sql<boolean>`p.geom && ST_MakeEnvelope(${box[0]}, ${box[1]}, ${box[2]}, ${box[3]}, 4326)` : sql<boolean>`false`;
}

interface ConstraintSql {
  /** Metres on the sphere from a candidate to the constraint's geometry. */
  distance: RawBuilder<number>;
  /** Whether the constraint holds, given `d`, the candidate's distance to it. */
  satisfied: (d: RawBuilder<number>) => RawBuilder<boolean>;
}

function compileConstraint(c: Constraint, geometry: GeoJsonGeometry): ConstraintSql {
  const geom = geometryParam(geometry);
  const distance = sql<number>`ST_Distance(p.geog, ${geom}::geography, false)`;
  switch (c.fn) {
    case 'within_distance':
      return { distance, satisfied: (d) => sql<boolean>`(${d} <= ${c.distanceM})` };
    case 'along':
    case 'between':
      return { distance, satisfied: (d) => sql<boolean>`(${d} <= ${c.bufferM})` };
    case 'inside':
      // A place is inside when its representative point is (an area candidate: its point on surface).
      return { distance, satisfied: () => sql<boolean>`ST_Intersects(ST_PointOnSurface(p.geom), ${geom})` };
    case 'intersects':
      return { distance, satisfied: () => sql<boolean>`ST_Intersects(p.geom, ${geom})` };
    case 'nearest':
      return { distance, satisfied: () => sql<boolean>`true` };
  }
}

/**
 * The plan's tag targets as `key=value` tokens of place_tag_tokens (migration 0007), `key=*` for any value
 * but no/none; multi-valued tags (`cuisine=donut;coffee_shop`) match by part.
 */
/** Above this many tag tokens a plan's tag match is not answered from the tag index (see tagMatchSql). */
const MAX_INDEXED_TOKENS = 64;

export function tagTokens(plan: SpatialPlan): string[] {
  return plan.targets.tags.flatMap(([key, values]) => (values.includes('*') ? [`${key}=*`] : values.map((v) => `${key}=${v}`)));
}

/** Whether a place matches the plan's targets, in a form the indexes of migration 0007 can answer. */
function tagMatchSql(plan: SpatialPlan): RawBuilder<boolean> {
  const clauses: RawBuilder<boolean>[] = [];
  const tokens = tagTokens(plan);
  if (tokens.length > MAX_INDEXED_TOKENS) {
    // A plan with hundreds of tag values (only a hostile or broken planner writes one): the planner no longer
    // expects the tag index to pay, and `&&` would compare every token of a place with every value (measured:
    // 10,000 values, minutes). A hashed `= ANY` per token of the place bounds the work per row instead.
    clauses.push(sql<boolean>`EXISTS (SELECT FROM unnest(place_tag_tokens(p.tags)) AS t WHERE t = ANY(${tokens}::text[]))`);
  } else if (tokens.length) {
    clauses.push(sql<boolean>`place_tag_tokens(p.tags) && ${tokens}::text[]`);
  }
  if (plan.targets.categories.length) clauses.push(sql<boolean>`p.category = ANY(${plan.targets.categories}::text[])`);
  if (clauses.length === 0) return sql<boolean>`false`;
  return sql<boolean>`(${sql.join(clauses, sql` OR `)})`;
}

export interface RetrieveInput {
  plan: SpatialPlan;
  references: ResolvedReference[];
  /**
   * The two embedded parts of the question; both absent when the embeddings service is unavailable: the
   * dense scores are then left NULL here and computed by the caller from the candidates' descriptions.
   */
  semanticVector?: number[];
  spatialVector?: number[];
  embeddingModel: string;
  poolSize?: number;
}

export function buildRetrievalQuery(input: RetrieveInput) {
  const { plan } = input;
  const refs = new Map(input.references.map((r) => [r.id, r]));
  const geometries = plan.constraints.map((c) => constraintGeometry(c, refs, plan));
  const compiled = plan.constraints.map((c, i) => compileConstraint(c, geometries[i]!));
  const window = intersectEnvelopes(plan.constraints.map((c, i) => expandedEnvelope(geometries[i]!, windowReach(c))));
  const satisfiedWindow = intersectEnvelopes(plan.constraints.map((c, i) => expandedEnvelope(geometries[i]!, satisfiedReach(c))));
  const referencePlaceIds = input.references.flatMap((r) => (r.match?.placeId ? [r.match.placeId] : []));
  const referenceNames = input.references.flatMap((r) => (r.match ? [r.match.name] : []));
  const tagMatch = tagMatchSql(plan);
  const hasNearest = plan.constraints.some((c) => c.fn === 'nearest');
  const first = geometryParam(geometries[0]!);
  // The same clauses as the partial indexes of migration 0007, so that the planner can use them.
  const candidate = sql<boolean>`p.name IS NOT NULL AND coalesce(p.category, '') <> 'street'
        AND NOT (p.id = ANY(${referencePlaceIds}::bigint[])) AND NOT (p.name = ANY(${referenceNames}::text[]))`;
  const d = (i: number) => sql<number>`m.distances[${sql.raw(String(i + 1))}]`;
  const inWindow = sql.join(plan.constraints.map((c, i) => sql`${d(i)} <= ${windowReach(c)}`), sql` AND `);
  const allSatisfied = sql.join(compiled.map((c, i) => c.satisfied(d(i))), sql` AND `);
  const order = hasNearest
    ? sql`tag_match DESC, d0 ASC`
    : sql`(${allSatisfied}) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC`;
  const vector = (v: number[]) => sql`${toVectorLiteral(v)}::vector`;
  // Without query vectors (the embeddings service is down) the dense scores are left to the caller.
  const similarity = (v: number[] | undefined) =>
    v ? sql<number | null>`CASE WHEN p.embedding_model = ${input.embeddingModel} THEN 1 - (p.embedding <=> ${vector(v)}) END` : sql<null>`NULL::float8`;
  const semanticPool = input.semanticVector
    ? sql`UNION
      (SELECT p.id FROM places p WHERE ${candidate} AND ${inEnvelope(satisfiedWindow)} AND p.embedding_model = ${input.embeddingModel}
       ORDER BY p.embedding <=> ${vector(input.semanticVector)} LIMIT ${SEMANTIC_POOL})`
    : sql``;
  // tagged is ordered by ST_Distance, not <->: a nearest-first GiST scan would test the tags of every place
  // on its way (measured: 3,500 rows, ~1 s on a loaded machine), where the tag index finds the matches first.
  return sql<{
    id: number;
    source_id: string;
    name: string;
    category: string | null;
    tags: Record<string, string>;
    description: string;
    x0: number;
    y0: number;
    x1: number;
    y1: number;
    distances: number[];
    satisfied: boolean[];
    tag_match: boolean;
    sem_sim: number | null;
    spa_sim: number | null;
  }>`
    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE ${candidate} AND ${inEnvelope(window)} AND ${tagMatch}
      ORDER BY ST_Distance(p.geom, ${first}) LIMIT ${TAGGED_POOL}
    ), pool AS (
      (SELECT p.id FROM places p WHERE ${candidate} AND ${inEnvelope(window)}
       ORDER BY p.geom <-> ${first} LIMIT ${SPATIAL_POOL})
      UNION
      SELECT id FROM tagged
      ${semanticPool}
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[${sql.join(compiled.map((c) => c.distance))}]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, p.tags, p.description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[${sql.join(compiled.map((c, i) => c.satisfied(d(i))))}]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             ${similarity(input.semanticVector)} AS sem_sim,
             ${similarity(input.spatialVector)} AS spa_sim
      FROM measured m JOIN places p USING (id)
      WHERE ${inWindow}
      ORDER BY ${order}
      LIMIT ${input.poolSize ?? POOL_SIZE}
    )
    SELECT id, source_id, name, category, tags, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim
    FROM candidates`;
}

export async function retrieveCandidates(db: Db, input: RetrieveInput): Promise<RetrievalResult> {
  const query = buildRetrievalQuery(input);
  const compiled = query.compile(db);
  const { rows } = await query.execute(db);
  const candidates = rows.map((r) => ({
    id: r.id,
    sourceId: r.source_id,
    name: r.name,
    category: r.category,
    tags: r.tags,
    description: r.description,
    bbox: [r.x0, r.y0, r.x1, r.y1] as [number, number, number, number],
    distances: r.distances.map(Number),
    satisfied: r.satisfied,
    tagMatch: r.tag_match,
    semanticSimilarity: r.sem_sim,
    spatialSimilarity: r.spa_sim,
  }));
  return { candidates, query: { sql: compiled.sql, parameters: [...compiled.parameters] } };
}

/**
 * The GeoJSON geometries of the places answered (RFC 7946 ring orientation). Fetched apart from the
 * candidate query because printing GeoJSON for every pooled candidate cost more than ranking them
 * (measured in PGlite: ~0.8 ms per candidate, for 5 to 50 shown out of a few hundred).
 */
export async function placeGeometries(db: Db, ids: number[]): Promise<Map<number, GeoJsonGeometry>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ id: number; geometry: string }>`
    SELECT id, ST_AsGeoJSON(ST_ForcePolygonCCW(geom), 6) AS geometry FROM places WHERE id = ANY(${ids}::bigint[])`.execute(db);
  return new Map(rows.map((r) => [Number(r.id), JSON.parse(r.geometry) as GeoJsonGeometry]));
}
