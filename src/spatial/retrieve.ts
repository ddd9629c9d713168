import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import { toVectorLiteral } from '../embedding/space.ts';
import type { Constraint, SpatialPlan } from '../planning/plan.ts';
import { ROUTE_REF } from '../planning/plan.ts';
import type { GeoJsonGeometry, ResolvedReference } from './resolve.ts';

/**
 * Sparse spatial retrieval with dense scores in the same round trip: the plan's constraints become
 * PostGIS predicates on bound GeoJSON parameters (metres on geography, GiST-indexed DWithin windows),
 * targets become tag filters on bound keys and values, and pgvector's cosine distance scores each
 * candidate's description against the two embedded parts of the question. Only SQL written here runs:
 * the functions come from this allow-list, every value is a bound parameter, and there is a LIMIT.
 */
export const ALLOWED_SQL_FUNCTIONS = [
  'ST_GeomFromGeoJSON', 'ST_SetSRID', 'ST_DWithin', 'ST_Distance', 'ST_Intersects', 'ST_PointOnSurface',
  'ST_AsGeoJSON', 'ST_ForcePolygonCCW', 'ST_MakeLine', 'ST_MakePoint', 'ST_Centroid', 'ST_Transform',
  'regexp_split_to_array', 'coalesce', 'least', 'greatest',
] as const;

export interface Candidate {
  id: number;
  sourceId: string;
  name: string;
  category: string | null;
  tags: Record<string, string>;
  description: string;
  geometry: GeoJsonGeometry;
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

interface ConstraintSql {
  distance: RawBuilder<number>;
  satisfied: RawBuilder<boolean>;
  /** The index-backed window candidates must lie in (the constraint plus a margin for near misses). */
  window: RawBuilder<boolean>;
}

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

function compileConstraint(c: Constraint, geometry: GeoJsonGeometry): ConstraintSql {
  const geom = geometryParam(geometry);
  const geog = sql`${geom}::geography`;
  const distance = sql<number>`ST_Distance(p.geog, ${geog}, false)`;
  const margin = nearMissMargin(c);
  switch (c.fn) {
    case 'within_distance':
      return {
        distance,
        satisfied: sql<boolean>`ST_DWithin(p.geog, ${geog}, ${c.distanceM}, false)`,
        window: sql<boolean>`ST_DWithin(p.geog, ${geog}, ${c.distanceM + margin}, false)`,
      };
    case 'along':
    case 'between':
      return {
        distance,
        satisfied: sql<boolean>`ST_DWithin(p.geog, ${geog}, ${c.bufferM}, false)`,
        window: sql<boolean>`ST_DWithin(p.geog, ${geog}, ${c.bufferM + margin}, false)`,
      };
    case 'inside':
      return {
        distance,
        // A place is inside when its representative point is (an area candidate: its point on surface).
        satisfied: sql<boolean>`ST_Intersects(ST_PointOnSurface(p.geom), ${geom})`,
        window: sql<boolean>`ST_DWithin(p.geog, ${geog}, ${margin}, false)`,
      };
    case 'intersects':
      return {
        distance,
        satisfied: sql<boolean>`ST_Intersects(p.geom, ${geom})`,
        window: sql<boolean>`ST_DWithin(p.geog, ${geog}, ${margin}, false)`,
      };
    case 'nearest':
      return {
        distance,
        satisfied: sql<boolean>`true`,
        window: sql<boolean>`ST_DWithin(p.geog, ${geog}, ${NEAREST_WINDOW_M}, false)`,
      };
  }
}

const MULTI_VALUE_SEPARATOR = '\\s*;\\s*';

/** OSM tag filters as SQL on bound keys/values; multi-valued tags (`cuisine=donut;coffee_shop`) match by part. */
function tagMatchSql(plan: SpatialPlan): RawBuilder<boolean> {
  const clauses: RawBuilder<boolean>[] = plan.targets.tags.map(([key, values]) =>
    values.includes('*')
      ? sql<boolean>`(p.tags ? ${key} AND p.tags->>${key} NOT IN ('no', 'none'))`
      : sql<boolean>`coalesce(regexp_split_to_array(p.tags->>${key}, ${MULTI_VALUE_SEPARATOR}) && ${values}::text[], false)`,
  );
  if (plan.targets.categories.length) clauses.push(sql<boolean>`coalesce(p.category = ANY(${plan.targets.categories}::text[]), false)`);
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

/** Cosine similarity of a stored vector of the same model to the query vector; NULL without a query vector. */
function denseSimilarity(input: RetrieveInput, vector: number[] | undefined): RawBuilder<number | null> {
  if (!vector) return sql<number | null>`NULL::float8`;
  return sql<number | null>`CASE WHEN p.embedding_model = ${input.embeddingModel}
                  THEN 1 - (p.embedding <=> ${toVectorLiteral(vector)}::vector) END`;
}

export function buildRetrievalQuery(input: RetrieveInput) {
  const { plan } = input;
  const refs = new Map(input.references.map((r) => [r.id, r]));
  const compiled = plan.constraints.map((c) => compileConstraint(c, constraintGeometry(c, refs, plan)));
  const referencePlaceIds = input.references.flatMap((r) => (r.match?.placeId ? [r.match.placeId] : []));
  const referenceNames = input.references.flatMap((r) => (r.match ? [r.match.name] : []));
  const tagMatch = tagMatchSql(plan);
  const hasNearest = plan.constraints.some((c) => c.fn === 'nearest');
  const allSatisfied = sql.join(compiled.map((c) => c.satisfied), sql` AND `);
  const firstDistance = compiled[0]!.distance;
  const order = hasNearest
    ? sql`tag_match DESC, d0 ASC`
    : sql`(${allSatisfied}) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC`;
  return sql<{
    id: number;
    source_id: string;
    name: string;
    category: string | null;
    tags: Record<string, string>;
    description: string;
    geometry: string;
    distances: number[];
    satisfied: boolean[];
    tag_match: boolean;
    sem_sim: number | null;
    spa_sim: number | null;
  }>`
    WITH candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, p.tags, p.description, p.geom,
             ${firstDistance} AS d0,
             ARRAY[${sql.join(compiled.map((c) => c.distance))}]::float8[] AS distances,
             ARRAY[${sql.join(compiled.map((c) => c.satisfied))}]::boolean[] AS satisfied,
             ${tagMatch} AS tag_match,
             ${denseSimilarity(input, input.semanticVector)} AS sem_sim,
             ${denseSimilarity(input, input.spatialVector)} AS spa_sim
      FROM places p
      WHERE p.name IS NOT NULL
        AND coalesce(p.category, '') <> 'street'
        AND NOT (p.id = ANY(${referencePlaceIds}::bigint[]))
        AND NOT (p.name = ANY(${referenceNames}::text[]))
        AND ${sql.join(compiled.map((c) => c.window), sql` AND `)}
      ORDER BY ${order}
      LIMIT ${input.poolSize ?? POOL_SIZE}
    )
    SELECT id, source_id, name, category, tags, description,
           ST_AsGeoJSON(ST_ForcePolygonCCW(geom), 6) AS geometry,
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
    geometry: JSON.parse(r.geometry) as GeoJsonGeometry,
    distances: r.distances.map(Number),
    satisfied: r.satisfied,
    tagMatch: r.tag_match,
    semanticSimilarity: r.sem_sim,
    spatialSimilarity: r.spa_sim,
  }));
  return { candidates, query: { sql: compiled.sql, parameters: [...compiled.parameters] } };
}
