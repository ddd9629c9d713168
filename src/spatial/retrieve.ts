import { sql, type RawBuilder } from 'kysely';
import { isDistributed, shardKeysOfBoxes } from '../db/citus.ts';
import type { Db } from '../db/database.ts';
import { toVectorLiteral } from '../embedding/space.ts';
import type { Constraint, SpatialPlan } from '../planning/plan.ts';
import { hasTargets, ROUTE_REF } from '../planning/plan.ts';
import { isClosestK, SPATIAL_FUNCTIONS, specOf } from './functions/index.ts';
import { clauseSatisfiedSql, clausesOf } from './functions/logic.ts';
import { NEAREST_WINDOW_M } from './functions/nearest.ts';
import { poiConceptById } from '../lexicon/poi-concepts.ts';
import type { ConstraintSql, PlanarFrame } from './functions/spec.ts';
import type { GeoJsonGeometry, ResolvedReference } from './resolve.ts';
import { estimatedMatches, targetStatistics } from './tag-statistics.ts';
import { areaOrderPoint, boxArea, isArea, lineParts, outlineOf, planarFrame, scaledGeometry, windowBoxes, windowSql } from './windows.ts';

/**
 * Sparse spatial retrieval with dense scores in the same round trip. The work of a question is bounded by
 * index-driven pools, not by how many places lie in its window (a 1.5 km window of Midtown holds 2,900
 * candidates, a city millions):
 *   - spatial: the places nearest the driving constraint's geometry (GiST nearest-first scan; along a line,
 *     the corridor's places by distance, see below);
 *   - tagged: the places matching the plan's tag or category targets, nearest first (GIN over tag tokens;
 *     beyond TAGGED_POOL matches in the window, the farther ones count as untagged);
 *   - semantic: the places whose description is closest to the semantic part of the question (exact cosine
 *     over the window where the constraints hold, for a nearest question NEAREST_SEMANTIC_M of
 *     functions/nearest.ts; around a point or an area over its SEMANTIC_REACH nearest places only), when the
 *     tagged pool holds fewer than TAGGED_ENOUGH places;
 * each inside the window of the constraints in degrees (a superset of the real window). The window of a
 * line (a street, a route) is a chain of boxes along it, not its bounding box: Park Avenue's bounding box
 * holds 12,000 places, the boxes along it 1,200. The driving constraint is the one with the smallest window.
 * Only the union, a few hundred rows, is then measured exactly: distances in metres, the constraints, the
 * tag match and pgvector's cosine similarities to the two embedded parts of the question. Distances are
 * planar in a local equirectangular frame when the window is small (within 0.2 % of the sphere there, and
 * for 250 candidates 6.8 -> 1.9 ms to Chelsea's outline, 28 -> 2.8 ms to Park Avenue), on the sphere otherwise.
 * What each spatial function adds (its reach, its SQL, its near misses) is its spec in ./functions.
 * Only SQL written here and in the specs runs: the functions come from this allow-list, every value is a
 * bound parameter, and there is a LIMIT. Tags and descriptions are read for the answers only (placeDetails).
 */
const SHARED_SQL_FUNCTIONS = [
  'ST_GeomFromGeoJSON', 'ST_SetSRID', 'ST_Distance', 'ST_Intersects', 'ST_PointOnSurface', 'ST_MakeEnvelope',
  'ST_XMin', 'ST_YMin', 'ST_XMax', 'ST_YMax', 'ST_Affine', 'ST_Simplify', 'unnest', 'coalesce', 'count',
] as const;
/** The shared functions of the candidate query and those each spatial function's spec declares. */
export const ALLOWED_SQL_FUNCTIONS: readonly string[] = [
  ...new Set([...SHARED_SQL_FUNCTIONS, ...Object.values(SPATIAL_FUNCTIONS).flatMap((f) => f.sqlFunctions)]),
];

export interface Candidate {
  id: number;
  sourceId: string;
  name: string;
  category: string | null;
  /** Read with the candidates only when the caller computes the dense scores (no query vectors); else null. */
  description: string | null;
  /** Bounding box [west, south, east, north]; the geometry itself is fetched for the answers only (placeDetails). */
  bbox: [number, number, number, number];
  /** Metres to the geometry of each constraint, in constraint order. */
  distances: number[];
  /** Whether each constraint holds (nearest: decided after the query, from the rank). */
  satisfied: boolean[];
  tagMatch: boolean;
  /** Cosine similarity of the description to the semantic / spatial text; null without a vector. */
  semanticSimilarity: number | null;
  spatialSimilarity: number | null;
  /** The place's population (the world seed's cities), null without one. */
  population: number | null;
}

export interface RetrievalQuery {
  sql: string;
  parameters: unknown[];
}

export interface RetrievalResult {
  candidates: Candidate[];
  /** The tagged pool reached TAGGED_POOL: more places of the kind asked for may lie beyond it. */
  taggedPoolFull: boolean;
  query: RetrievalQuery;
}

/** Bounds of the candidate pool and of near-miss windows around a constraint. */
export const POOL_SIZE = 400;
/** Rows each index-driven pool contributes before the exact measurements (see the module comment). */
export const SPATIAL_POOL = 100;
export const TAGGED_POOL = 200;
export const SEMANTIC_POOL = 150;
/**
 * The semantic pool around a point or an area compares the vectors of this many places nearest to it (then
 * keeps those of its window): every vector of the window was 35 % of the SQL time of the dev questions
 * (4,300 places within 1 km of Bryant Park), these 600 are found by the GiST index in ~2.5 ms.
 */
export const SEMANTIC_REACH = 600;
/**
 * With this many places matching the tag targets the semantic pool is not drawn: a semantic score is 0.6 x
 * tag match + 0.4 x similarity, so a place found only by its description ranks below every tagged one of
 * similar distance.
 */
export const TAGGED_ENOUGH = 25;
/** Targets matching at most this many places of the whole table are looked up by their indexes first (see tagged). */
export const RARE_TARGET_MATCHES = 10_000;
/** Simplification of a reference line or outline for ordering pools (degrees: 1.1 m of latitude). */
const ORDER_TOLERANCE_DEG = 0.00001;

/** A place's population from its tag, NULL when it has none or not a number. */
const POPULATION_SQL = sql<number | null>`(CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END)`;

function populationDirection(plan: SpatialPlan) {
  return plan.order?.direction === 'asc' ? sql`ASC NULLS LAST` : sql`DESC NULLS LAST`;
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
  const ref = refs.get(c.ref)!;
  if (c.fn === 'border') return ref.landBorder ?? outlineOf(ref.geometry);
  return ref.geometry;
}

/** The country code of an "inside" constraint's reference, when it is a country (see functions/inside.ts). */
function constraintCountry(c: Constraint, refs: Map<string, ResolvedReference>): string | undefined {
  return c.fn === 'inside' ? refs.get(c.ref)?.countryCode : undefined;
}

/** The geometry of a clause: its constraint's, or its alternatives' together (the pools are ordered by distance to any). */
function clauseGeometry(members: GeoJsonGeometry[]): GeoJsonGeometry {
  return members.length === 1 ? members[0]! : ({ type: 'GeometryCollection', geometries: members } as unknown as GeoJsonGeometry);
}

/** Metres from the constraint's geometry within which candidates are fetched (the reach plus near misses). */
function windowReach(c: Constraint, nearestM = NEAREST_WINDOW_M): number {
  return c.fn === 'nearest' ? Math.max(nearestM, specOf(c).windowReach(c)) : specOf(c).windowReach(c);
}

/**
 * How far a nearest question looks: NEAREST_WINDOW_M, or ten times the near distance of the kind of place
 * asked for when that is larger (the nearest cities to a city are tens of kilometres away, not 3 km).
 */
export function nearestWindow(plan: SpatialPlan): number {
  const nearM = plan.targets.concepts.map((id) => poiConceptById.get(id)?.nearM ?? 0);
  return Math.max(NEAREST_WINDOW_M, 10 * Math.max(0, ...nearM));
}

/** A constraint's SQL from its function's spec, with the distance measured in the frame or on the sphere. */
function compileConstraint(c: Constraint, geometry: GeoJsonGeometry, frame: PlanarFrame, countryCode: string | undefined): ConstraintSql {
  const geom = geometryParam(geometry);
  const inFrame = frame ? { frame, geometry: geometryParam(scaledGeometry(geometry, frame.kx, frame.ky)) } : null;
  const distance = inFrame
    ? sql<number>`ST_Distance(ST_Affine(p.geom, ${inFrame.frame.kx}, 0, 0, ${inFrame.frame.ky}, 0, 0), ${inFrame.geometry})`
    : sql<number>`ST_Distance(p.geog, ${geom}::geography, false)`;
  return specOf(c).compile(c, { geometry: geom, distance, inFrame, ...(countryCode ? { countryCode } : {}) });
}

/**
 * The plan's tag targets as `key=value` tokens of `tag_tokens` (migrations 0007, 0009), `key=*` for any value
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
    clauses.push(sql<boolean>`EXISTS (SELECT FROM unnest(p.tag_tokens) AS t WHERE t = ANY(${tokens}::text[]))`);
  } else if (tokens.length) {
    clauses.push(sql<boolean>`p.tag_tokens && ${tokens}::text[]`);
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
  /** Places of the whole table matching the plan's targets, from the statistics (tag-statistics.ts); unknown: unset. */
  targetMatches?: number;
  /**
   * retrieveCandidates: the whole query at once, for a ranking that keeps untagged candidates beside tagged
   * ones (the evaluation's ablation without the semantic part, and its baselines). Unset: the tagged pool
   * alone first, which is all the default ranking keeps when it finds places.
   */
  allPools?: boolean;
  /** The tagged pool alone, without the spatial and semantic ones (see retrieveCandidates). */
  taggedOnly?: boolean;
  /**
   * Citus (src/db/citus.ts): every scan of places also filters on the shard keys its windows can meet, so
   * Citus reads only their shards. Each pool keeps the rows of its window, so the answers are the same.
   */
  distributed?: boolean;
}

export function buildRetrievalQuery(input: RetrieveInput) {
  const { plan } = input;
  const refs = new Map(input.references.map((r) => [r.id, r]));
  const geometries = plan.constraints.map((c) => constraintGeometry(c, refs, plan));
  const nearestM = nearestWindow(plan);
  const constraintWindows = plan.constraints.map((c, i) => windowBoxes(geometries[i]!, windowReach(c, nearestM)));
  // The window is that of the clauses that hold positively (a group's: the union of its alternatives'); a
  // negated clause only removes places from it.
  const clauses = clausesOf(plan.constraints).filter((k) => !k.negated);
  const windows = clauses.map((k) => k.members.flatMap((i) => constraintWindows[i]!));
  const semanticWindows = clauses.map((k) => k.members.flatMap((i) => windowBoxes(geometries[i]!, specOf(plan.constraints[i]!).semanticReach(plan.constraints[i]!))));
  const driver = windows.reduce((best, w, i) => (boxArea(w) < boxArea(windows[best]!) ? i : best), 0);
  const frame = planarFrame(constraintWindows.flat());
  const compiled = plan.constraints.map((c, i) => compileConstraint(c, geometries[i]!, frame, constraintCountry(c, refs)));
  const driverGeometry = clauseGeometry(clauses[driver]!.members.map((i) => geometries[i]!));
  const referencePlaceIds = input.references.flatMap((r) => (r.match?.placeId ? [r.match.placeId] : []));
  const referenceNames = input.references.flatMap((r) => (r.match ? [r.match.name] : []));
  const tagMatch = tagMatchSql(plan);
  const hasNearest = plan.constraints.some(isClosestK);
  const near = geometryParam(driverGeometry);
  const driverIsLine = lineParts(driverGeometry).length > 0;
  const driverIsArea = isArea(driverGeometry);
  // For ordering pools only (the measured distances use the exact geometry): a line or an outline simplified
  // within ORDER_TOLERANCE_DEG (about 1 m), folded to a constant when PostgreSQL plans the query. The cost of a
  // distance grows with the reference's vertices: Park Avenue's 289 become 99, and ordering its corridor's
  // 1,175 places took 7 of the question's 15 ms.
  const nearForOrder = driverIsLine || driverIsArea
    ? sql`ST_Simplify(${near}, ${ORDER_TOLERANCE_DEG}, true)`
    : near;
  // Nearest first by the GiST index, from the middle of an area (nearest to the area itself, every place
  // inside is at distance 0 and the scan measures each against all the edges), and except from a line: its
  // bounding box holds every place of the corridor at box distance 0, so a nearest-first scan would measure
  // each of them anyway; sorting the corridor (a few hundred rows) is cheaper.
  const nearestFirst = driverIsLine
    ? sql`ST_Distance(p.geom, ${nearForOrder})`
    : driverIsArea
      ? sql`p.geom <-> ${geometryParam(areaOrderPoint(driverGeometry, windows[driver]![0]!))}`
      : sql`p.geom <-> ${near}`;
  const inWindow = windowSql(windows, driver);
  const shardKeys = input.distributed ? shardKeysOfBoxes([...windows.flat(), ...semanticWindows.flat()]) : null;
  const inShards = shardKeys ? sql<boolean>` AND p.shard_key = ANY(${shardKeys}::int[])` : sql<boolean>``;
  // The same clauses as the partial indexes of migration 0007, so that the planner can use them.
  // A country's outline holds every place in it at distance 0: a candidate only when countries are asked for.
  const noCountries = plan.targets.categories.includes('country') ? sql`` : sql` AND coalesce(p.category, '') <> 'country'`;
  // "more than a million people", "the largest cities": the population tag, where a place has one (the world
  // seed's cities); a population order the question asked for keeps only places that have one. The CASE of
  // POPULATION_SQL tests the tag before casting it: the operands of AND may be evaluated in any order.
  const populous = plan.minPopulation !== undefined
    ? sql` AND ${POPULATION_SQL} >= ${plan.minPopulation}`
    : plan.order && !plan.order.assumed ? sql` AND ${POPULATION_SQL} IS NOT NULL` : sql``;
  const candidate = sql<boolean>`p.name IS NOT NULL AND coalesce(p.category, '') <> 'street'${noCountries}${populous}
        AND NOT (p.id = ANY(${referencePlaceIds}::bigint[])) AND NOT (p.name = ANY(${referenceNames}::text[]))${inShards}`;
  const d = (i: number) => sql<number>`m.distances[${sql.raw(String(i + 1))}]`;
  const inReach = (i: number) => sql<boolean>`${d(i)} <= ${windowReach(plan.constraints[i]!, nearestM)}`;
  const measuredInWindow = sql.join(clauses.map((k) => (k.members.length === 1 ? inReach(k.members[0]!) : sql`(${sql.join(k.members.map(inReach), sql` OR `)})`)), sql` AND `);
  const satisfied = clauseSatisfiedSql(plan.constraints, compiled.map((c, i) => c.satisfied(d(i))));
  const allSatisfied = sql.join(satisfied, sql` AND `);
  // Source ids last: places that tie (a chain's branches share a description, so their vectors) keep one order
  // across loads of the same data, whatever the row ids and the physical order.
  const order = plan.order
    ? sql`(${allSatisfied}) DESC, tag_match DESC, population ${populationDirection(plan)}, d0 ASC, p.source_id`
    : hasNearest
      ? sql`tag_match DESC, d0 ASC, p.source_id`
      : sql`(${allSatisfied}) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id`;
  // The pools of a population order ("the largest cities in X"), or of a constraint whose places are not
  // among the nearest to the window's middle (a border): only places that satisfy the constraints, the most
  // (or least) populous first or nearest first. Without it the pools hold the places nearest the middle of
  // the window, and the largest cities of a country or those along its border are missed.
  const poolFilter = plan.order || plan.constraints.some((c) => specOf(c).filtersPools)
    ? sql` AND ${sql.join(clauseSatisfiedSql(plan.constraints, compiled.map((c) => c.satisfied(c.distance))), sql` AND `)}`
    : sql``;
  const poolOrder = plan.order ? sql`${POPULATION_SQL} ${populationDirection(plan)}, ${nearestFirst}` : nearestFirst;
  // Each query vector is printed once (384 numbers), though the semantic one is used twice.
  const literals = new Map<number[], string>();
  const vector = (v: number[]) => {
    if (!literals.has(v)) literals.set(v, toVectorLiteral(v));
    return sql`${literals.get(v)!}::vector`;
  };
  // Without query vectors (the embeddings service is down) the dense scores are left to the caller, who
  // needs the descriptions.
  const similarity = (v: number[] | undefined) =>
    v ? sql<number | null>`CASE WHEN p.embedding_model = ${input.embeddingModel} THEN 1 - (p.embedding <=> ${vector(v)}) END` : sql<null>`NULL::float8`;
  const description = input.semanticVector ? sql<null>`NULL::text` : sql<string>`p.description`;
  // Drawn only when the tag targets found few places (a subquery PostgreSQL evaluates once, before the scan).
  // Around a point or an area: the vectors of the SEMANTIC_REACH places nearest to it, by the GiST index (the
  // window and the model checked on those, after the LIMIT: with them inside, PostgreSQL expected a few
  // hundred rows and sorted the whole window instead of stopping the scan). Along a line (a nearest-first
  // scan would measure the whole bounding box): the corridor.
  const drawSemantic = sql<boolean>`(SELECT count(*) FROM tagged) < ${TAGGED_ENOUGH} AND ${candidate}`;
  const semanticWindow = windowSql(semanticWindows, driver);
  // A clause without a window (the empty land border of an island) holds no place: no pool to draw, and a
  // nearest-first scan from an empty geometry would walk the whole index.
  const noWindow = windows.some((w) => w.length === 0);
  const semanticPool = !input.semanticVector || noWindow
    ? sql``
    : driverIsLine
      ? sql`UNION
      (SELECT p.id FROM places p WHERE ${drawSemantic} AND ${semanticWindow} AND p.embedding_model = ${input.embeddingModel}
       ORDER BY p.embedding <=> ${vector(input.semanticVector)} LIMIT ${SEMANTIC_POOL})`
      : sql`UNION
      (SELECT s.id FROM (
         SELECT p.id, p.embedding, p.embedding_model, ${semanticWindow} AS in_window FROM places p WHERE ${drawSemantic}
         ORDER BY ${nearestFirst} LIMIT ${SEMANTIC_REACH}) AS s
       WHERE s.in_window AND s.embedding_model = ${input.embeddingModel}
       ORDER BY s.embedding <=> ${vector(input.semanticVector)} LIMIT ${SEMANTIC_POOL})`;
  // The tagged places of the window. Targets that few places of the whole table have (by the statistics):
  // from the tag and category indexes alone, the window then checked on those few (hidden from the planner
  // by IS TRUE). Common targets: nearest first through the window, stopping at TAGGED_POOL matches, unless
  // the planner prefers to combine the indexes. PostGIS's estimate of a window, which would decide between
  // the two, fails on skewed data (7 places estimated for the 60,000 of a 3 km window at 100k places, see
  // migration 0009): walking that window for a rare target read 10,900 rows for 5 dog runs.
  const tagged = (input.targetMatches ?? Infinity) <= RARE_TARGET_MATCHES
    ? sql`SELECT p.id FROM places p WHERE ${candidate} AND ${tagMatch} AND (${inWindow}) IS TRUE${poolFilter}
      ORDER BY ${plan.order ? poolOrder : sql`ST_Distance(p.geom, ${nearForOrder})`} LIMIT ${TAGGED_POOL}`
    : sql`SELECT p.id FROM places p WHERE ${candidate} AND ${inWindow} AND ${tagMatch}${poolFilter}
      ORDER BY ${poolOrder} LIMIT ${TAGGED_POOL}`;
  return sql<{
    id: number;
    source_id: string;
    name: string;
    category: string | null;
    description: string | null;
    x0: number;
    y0: number;
    x1: number;
    y1: number;
    distances: number[];
    satisfied: boolean[];
    tag_match: boolean;
    sem_sim: number | null;
    spa_sim: number | null;
    population: string | null;
    tagged_n: number;
  }>`
    WITH tagged AS MATERIALIZED (
      ${tagged}
    ), pool AS (
      ${input.taggedOnly ? sql`SELECT id FROM tagged` : sql`(SELECT p.id FROM places p WHERE ${candidate} AND ${inWindow}${poolFilter}
       ORDER BY ${poolOrder} LIMIT ${SPATIAL_POOL})
      UNION
      SELECT id FROM tagged
      ${semanticPool}`}
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[${sql.join(compiled.map((c) => c.distance))}]::float8[] AS distances
      FROM places p JOIN pool USING (id)${shardKeys ? sql` WHERE true${inShards}` : sql``}
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, ${description} AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[${sql.join(satisfied)}]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             ${similarity(input.semanticVector)} AS sem_sim,
             ${similarity(input.spatialVector)} AS spa_sim,
             ${plan.order || plan.minPopulation !== undefined ? POPULATION_SQL : sql`NULL::bigint`} AS population
      FROM measured m JOIN places p USING (id)
      WHERE ${measuredInWindow}${inShards}
      ORDER BY ${order}
      LIMIT ${input.poolSize ?? POOL_SIZE}
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates`;
}

/** The candidate query of a question, with the estimate of its targets from this database's statistics. */
export async function retrievalQuery(db: Db, input: RetrieveInput) {
  const statistics = await targetStatistics(db);
  const targetMatches = statistics ? estimatedMatches(statistics, tagTokens(input.plan), input.plan.targets.categories) : undefined;
  const distributed = await isDistributed(db);
  return buildRetrievalQuery({ ...input, ...(targetMatches !== undefined ? { targetMatches } : {}), ...(distributed ? { distributed } : {}) });
}

/**
 * The candidates of a question. Most questions name a kind of place that some places of the window are: the
 * ranking then keeps those alone (src/ranking/rank.ts), and the query of the tagged pool alone finds them. The
 * whole query measured the spatial and semantic pools for nothing: 177 rows a question on average, of which
 * the ranking kept 30, and its planning alone cost more than the tagged query. Only when the tagged query
 * finds nothing (or the question names no kind of place) does the whole query run.
 */
export async function retrieveCandidates(db: Db, input: RetrieveInput): Promise<RetrievalResult> {
  if (hasTargets(input.plan) && !input.allPools) {
    const tagged = await runRetrieval(db, { ...input, taggedOnly: true });
    if (tagged.candidates.length > 0) return tagged;
  }
  return runRetrieval(db, { ...input, taggedOnly: false });
}

async function runRetrieval(db: Db, input: RetrieveInput): Promise<RetrievalResult> {
  const query = await retrievalQuery(db, input);
  const compiled = query.compile(db);
  const { rows } = await query.execute(db);
  const candidates = rows.map((r) => ({
    id: r.id,
    sourceId: r.source_id,
    name: r.name,
    category: r.category,
    description: r.description,
    bbox: [r.x0, r.y0, r.x1, r.y1] as [number, number, number, number],
    distances: r.distances.map(Number),
    satisfied: r.satisfied,
    tagMatch: r.tag_match,
    semanticSimilarity: r.sem_sim,
    spatialSimilarity: r.spa_sim,
    population: r.population === null ? null : Number(r.population),
  }));
  return { candidates, taggedPoolFull: (rows[0]?.tagged_n ?? 0) >= TAGGED_POOL, query: { sql: compiled.sql, parameters: [...compiled.parameters] } };
}

export interface PlaceDetails {
  geometry: GeoJsonGeometry;
  tags: Record<string, string>;
}

/**
 * The GeoJSON geometries (RFC 7946 ring orientation) and tags of the places answered. Read apart from the
 * candidate query because printing GeoJSON for every pooled candidate cost more than ranking them
 * (measured in PGlite: ~0.8 ms per candidate, for 5 to 50 shown out of a few hundred); reading the tags and
 * descriptions of all of them was a tenth of the candidate query (server, the 40 dev questions: 48 -> 43 ms).
 */
/** The descriptions of a few places (the reranker's excerpts); the retrieval leaves them unread when it can. */
export async function placeDescriptions(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ id: number; description: string | null }>`
    SELECT id, description FROM places WHERE id = ANY(${ids}::bigint[])`.execute(db);
  return new Map(rows.map((r) => [Number(r.id), r.description ?? '']));
}

export async function placeDetails(db: Db, ids: number[]): Promise<Map<number, PlaceDetails>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ id: number; geometry: string; tags: Record<string, string> }>`
    SELECT id, ST_AsGeoJSON(ST_ForcePolygonCCW(geom), 6) AS geometry, tags FROM places WHERE id = ANY(${ids}::bigint[])`.execute(db);
  return new Map(rows.map((r) => [Number(r.id), { geometry: JSON.parse(r.geometry) as GeoJsonGeometry, tags: r.tags }]));
}
