import { sql } from 'kysely';
import { isDistributed, shardKeysOfBoxes } from '../db/citus.ts';
import type { Db } from '../db/database.ts';
import type { LonLat, Reference, SpatialPlan } from '../planning/plan.ts';
import { poiConceptById } from '../lexicon/poi-concepts.ts';
import { referenceHeadConcept } from '../planning/lexicon-match.ts';
import { buildNameIndex, glossCandidates, type NameIndex } from './gloss-match.ts';
import { expandStreetName, normalizeName } from './names.ts';
import { constraintRefs, specOf } from './functions/index.ts';
import { clarify, placeHint, population, type Clarification } from './clarify.ts';
import {
  bySourceId, CONTAINED_SCORE, clippedCompound, clusterByLocation, dominant, isGenericPhrase, isLine, isPolygon, metresBetween, nameScore,
  notableReading, otherNameTokens, prominence, type GazetteerRow,
} from './gazetteer-match.ts';

export type { Clarification, ClarificationOption } from './clarify.ts';

/** A reference of the plan, located in the database. */
export interface ResolvedReference {
  id: string;
  text: string;
  /** What it was matched to (absent for coordinates). */
  match?: { placeId?: number; name: string; sourceId?: string; category: string | null; hint?: string };
  /** `point` for landmarks and coordinates (a polygon landmark is represented by its centroid), `polygon` for areas, `line` for streets. */
  shape: 'point' | 'polygon' | 'line';
  /** GeoJSON geometry the constraints are measured against. */
  geometry: GeoJsonGeometry;
  /** Centroid, used for routes and "between". */
  centroid: LonLat;
  /** A country's ISO 3166-1 code (its `country_code`): "in X" then also holds for the places tagged with it. */
  countryCode?: string;
  /** An area's land border (a MultiLineString, empty for an island), where the data has one: "near the border" measures to it. */
  landBorder?: GeoJsonGeometry;
}

export type GeoJsonGeometry = { type: string; coordinates: unknown };

export type ResolveResult =
  | { ok: true; references: ResolvedReference[] }
  | { ok: false; clarification: Clarification };

/** How good a polygon of each category is as an "inside X" area: named districts first, then parks, then generic places. */
const AREA_CATEGORY_RANK: Record<string, number> = {
  country: 3, neighbourhood: 3, suburb: 3, quarter: 3, borough: 3, city: 3, town: 3, village: 3,
  park: 2, garden: 2, square: 2, nature_reserve: 2,
  administrative_area: 1, district: 1, place: 1,
};

/**
 * Finds each reference of the plan in the gazetteer (the places table itself). Exact normalised names
 * (also `name:<lang>` and `alt_name` tags) win, trigram similarity finds near spellings. When a name
 * matches several distant places, context decides (the other references, the asker's position, where
 * the data is); when nothing decides, the caller gets a clarification with the options instead of a guess.
 * `dataVersion`: placesVersion(db) as read by the caller (unset: read here, when a name needs the cache).
 */
export async function resolveReferences(db: Db, plan: SpatialPlan, near?: LonLat, dataVersion?: Promise<string>): Promise<ResolveResult> {
  const resolved: ResolvedReference[] = [];
  const usage = referenceUsage(plan);
  let cache: ReturnType<typeof namedCache> | undefined;
  for (const ref of plan.references) {
    if (ref.point || ref.kind === 'coordinates') {
      const point = ref.point ?? near;
      if (!point) {
        return {
          ok: false,
          clarification: { question: 'Where are you? Send your position as "near": {"lon", "lat"}.', reference: ref.text, options: [] },
        };
      }
      resolved.push(pointReference(ref, point));
      continue;
    }
    const anchor = resolved[0]?.centroid ?? near;
    const shape = usage.get(ref.id) ?? 'point';
    // The anchor only decides between same-name places; rounded to ~100 m it still does, and repeats.
    const key = JSON.stringify([ref.text, ref.kind, ref.context, shape, anchor && [anchor.lon.toFixed(3), anchor.lat.toFixed(3)]]);
    cache ??= namedCache(db, await (dataVersion ?? placesVersion(db)));
    let result = cache.get(key);
    if (!result) {
      result = await resolveNamed(db, ref, shape, anchor);
      cache.set(key, result);
    }
    if (result.ok) result = { ok: true, reference: { ...result.reference, id: ref.id, text: ref.text } };
    if (!result.ok) return result;
    resolved.push(result.reference);
  }
  return { ok: true, references: resolved };
}

type NamedResult = Awaited<ReturnType<typeof resolveNamed>>;

/** Resolved names, valid while places_version (migration 0007) is unchanged; least recently used out first. */
const RESOLVED_CACHE_SIZE = 1000;
let resolvedCache: { db: Db; version: string; entries: Map<string, NamedResult> } | undefined;

/**
 * The version of the places data (migration 0007), which any change to places bumps. The question pipeline
 * starts this read before planning and hands the promise to resolveReferences: the round trip then overlaps
 * the planner's work instead of following it (in embedded mode the database thread answers while the main
 * thread plans; in server mode the network does).
 */
export async function placesVersion(db: Db): Promise<string> {
  const row = await db.selectFrom('places_version').select('version').executeTakeFirst();
  return String(row?.version ?? '');
}

/**
 * The cache of resolved names for the current data: looking a landmark up costs trigram searches and a
 * geometry fetch (measured: p50 ~20 ms server, more embedded), and the same landmarks come back all the
 * time. Any change to places, by any instance or the CLI, bumps the version and empties the cache.
 */
function namedCache(db: Db, version: string) {
  if (!resolvedCache || resolvedCache.db !== db || resolvedCache.version !== version) {
    resolvedCache = { db, version, entries: new Map() };
  }
  const entries = resolvedCache.entries;
  return {
    get(key: string): NamedResult | undefined {
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
      }
      return hit;
    },
    set(key: string, value: NamedResult): void {
      entries.set(key, value);
      if (entries.size > RESOLVED_CACHE_SIZE) entries.delete(entries.keys().next().value!);
    },
  };
}

/** How the plan uses each reference decides the geometry to fetch: an area for "inside", a line for "along". */
function referenceUsage(plan: SpatialPlan): Map<string, 'point' | 'polygon' | 'line'> {
  const usage = new Map<string, 'point' | 'polygon' | 'line'>();
  for (const c of plan.constraints) {
    const shape = specOf(c).referenceShape;
    if (shape !== 'any') for (const ref of constraintRefs(c)) usage.set(ref, shape);
  }
  for (const r of plan.references) {
    if (r.kind === 'street') usage.set(r.id, 'line');
    else if (!usage.has(r.id) && r.kind === 'area') usage.set(r.id, 'polygon');
  }
  return usage;
}

function pointReference(ref: Reference, point: LonLat): ResolvedReference {
  return {
    id: ref.id,
    text: ref.text,
    shape: 'point',
    geometry: { type: 'Point', coordinates: [point.lon, point.lat] },
    centroid: point,
  };
}

async function gazetteer(db: Db, text: string): Promise<GazetteerRow[]> {
  const lowered = text.toLowerCase();
  const normalized = normalizeName(text);
  // Each branch uses an index: the trigram GIN index on lower(name) (similarity, containment), and for
  // non-ASCII text the GIN index over place_names (Chinese and alternative names are in tags, migration
  // 0008). Branches are united by id, then the rows fetched once.
  const like = `%${lowered.replace(/[\\%_]/g, '')}%`;
  const nonAscii = /[^\x00-\x7f]/.test(text);
  const otherNames = otherNameTokens(text);
  const clipped = clippedCompound(text);
  const { rows } = await sql<GazetteerRow>`
    WITH ids AS (
      (SELECT id FROM places WHERE name IS NOT NULL AND lower(name) % ${lowered}
       ORDER BY similarity(lower(name), ${lowered}) DESC, source_id LIMIT 60)
      UNION
      (SELECT id FROM places WHERE name IS NOT NULL AND length(${normalized}) >= 4 AND lower(name) LIKE ${like}
       ORDER BY similarity(lower(name), ${lowered}) DESC, source_id LIMIT 60)
      UNION
      (SELECT id FROM places WHERE name IS NOT NULL AND ${nonAscii} AND place_names(tags, name) @> ARRAY[${text}]::text[]
       ORDER BY source_id LIMIT 20)
      UNION
      (SELECT id FROM places WHERE name IS NOT NULL AND coalesce(category, '') <> 'street' AND tag_tokens && ${otherNames}::text[]
       ORDER BY source_id LIMIT 20)
      UNION
      (SELECT id FROM places WHERE name IS NOT NULL AND ${clipped !== undefined} AND lower(name) LIKE ${clipped ?? ''}
       ORDER BY source_id LIMIT 20)
    ), matches AS (
      SELECT p.id, p.name, p.source_id, p.category, p.geom, p.geog, p.tags FROM places p JOIN ids USING (id)
    )
    SELECT m.id, m.name, m.source_id, m.category, GeometryType(m.geom) AS gtype,
           CASE WHEN GeometryType(m.geom) IN ('POLYGON', 'MULTIPOLYGON') THEN ST_Area(m.geog) ELSE 0 END AS area,
           ST_X(ST_Centroid(m.geom)) AS lon, ST_Y(ST_Centroid(m.geom)) AS lat, m.tags,
           (m.tags ? 'summary' OR m.tags ? 'byline') AS has_prose
    FROM matches m ORDER BY m.source_id`.execute(db);
  return rows;
}

async function resolveNamed(
  db: Db,
  ref: Reference,
  shape: 'point' | 'polygon' | 'line',
  anchor: LonLat | undefined,
): Promise<{ ok: true; reference: ResolvedReference } | { ok: false; clarification: Clarification }> {
  const text = shape === 'line' ? expandStreetName(ref.text) : ref.text;
  let rows = await gazetteer(db, text);
  if (shape === 'line') {
    const streets = rows.filter((r) => isLine(r) && r.category === 'street');
    if (streets.length) rows = streets;
  } else if (shape === 'polygon') {
    // An outline when one matches the name as well as anything does ("in Japan"); a place known only as a
    // point (a city of the world seed) is not traded for a polygon of another name ("Springfield Gardens").
    const areas = rows.filter(isPolygon);
    const bestOf = (some: GazetteerRow[]) => Math.max(0, ...some.map((r) => nameScore(r, text)));
    if (areas.length && bestOf(areas) >= bestOf(rows) - 0.05) rows = areas;
  }
  const scored = rows.map((r) => ({ row: r, score: nameScore(r, text) })).filter((s) => s.score >= 0.35);
  // A Chinese name the data does not carry: read it through its English gloss (and sound) instead.
  if (/\p{Script=Han}/u.test(text) && !scored.some((s) => s.score >= 1)) {
    for (const g of await glossedRows(db, text, shape)) if (!scored.some((s) => s.row.id === g.row.id)) scored.push(g);
  }
  if (scored.length === 0) return resolveByKind(db, ref, shape);
  const best = Math.max(...scored.map((s) => s.score));
  let top = scored.filter((s) => s.score >= best - 0.05).map((s) => s.row);
  const distinctNames = new Set(top.map((r) => normalizeName(r.name)));
  if (best < 1 && distinctNames.size > 1) {
    // Several names contain the words and none is exact: a notable place among them is what people mean
    // ("Port Authority": the bus terminal, not the deli named after it); else ask rather than guess.
    const notable = isGenericPhrase(text) ? undefined : notableReading(scored.filter((s) => s.score >= CONTAINED_SCORE));
    if (!notable) return { ok: false, clarification: clarify(ref.text, top) };
    top = scored.filter((s) => normalizeName(s.row.name) === normalizeName(notable.name)).map((s) => s.row);
  }

  // A street only when the best match is one: with no line of that name ("along the Vessel"), the place
  // found stands for the reference as any other does.
  const street = top.find((r) => isLine(r) && r.category === 'street');
  if (shape === 'line' && street) return { ok: true, reference: await streetReference(db, ref, street.name) };

  const clusters = clusterByLocation(top);
  let chosen = clusters[0]!;
  if (clusters.length > 1) {
    const decided = await pickCluster(db, clusters, ref, anchor, shape);
    if (!decided) return { ok: false, clarification: clarify(ref.text, clusters.map((c) => mainFeature(c, shape))) };
    chosen = decided;
  }
  const main = mainFeature(chosen, shape);
  return { ok: true, reference: await featureReference(db, ref, main, shape) };
}

/** How far below the best gloss reading a notable place's name may read and still be taken instead. */
const READING_MARGIN = 0.1;
/** How much more notable (prominence) the place of a near reading must be than those of the best readings. */
const NEAR_READING_DOMINANCE = 2;

let nameIndexCache: { db: Db; version: string; index: NameIndex } | undefined;

/** The word index of the gazetteer's distinct names, built once per data version. */
async function gazetteerNameIndex(db: Db): Promise<NameIndex> {
  const row = await db.selectFrom('places_version').select('version').executeTakeFirst();
  const version = String(row?.version ?? '');
  if (nameIndexCache?.db === db && nameIndexCache.version === version) return nameIndexCache.index;
  const { rows } = await sql<{ name: string }>`SELECT DISTINCT name FROM places WHERE name IS NOT NULL AND name ~ '[A-Za-z]'`.execute(db);
  const index = buildNameIndex(rows.map((r) => r.name));
  nameIndexCache = { db, version, index };
  return index;
}

/** Places whose English name reads as the Chinese reference; the score stays below an exact name's. */
async function glossedRows(db: Db, text: string, shape: 'point' | 'polygon' | 'line'): Promise<Array<{ row: GazetteerRow; score: number }>> {
  const all = glossCandidates(text, await gazetteerNameIndex(db), 40);
  if (all.length === 0) return [];
  // The best readings, and those within READING_MARGIN of them: a sound-alike of a few consonants reads as
  // many names about equally well (a gallery's owner as well as the museum asked for). A near reading is kept
  // below only when its place is far more notable than every best one's. A complete reading stands alone.
  const best = all[0]!.score;
  const margin = best >= 0.999 ? 1e-9 : READING_MARGIN;
  const candidates = all.filter((c) => c.score >= best - margin);
  const byName = new Map(candidates.map((c) => [c.name, c.score]));
  const { rows } = await sql<GazetteerRow>`
    SELECT id, name, source_id, category, GeometryType(geom) AS gtype,
           CASE WHEN GeometryType(geom) IN ('POLYGON', 'MULTIPOLYGON') THEN ST_Area(geog) ELSE 0 END AS area,
           ST_X(ST_Centroid(geom)) AS lon, ST_Y(ST_Centroid(geom)) AS lat, tags,
           (tags ? 'summary' OR tags ? 'byline') AS has_prose
    FROM places WHERE name = ANY(${[...byName.keys()]}::text[]) ORDER BY source_id`.execute(db);
  let usable = rows;
  if (shape === 'line') {
    const streets = rows.filter((r) => isLine(r) && r.category === 'street');
    if (streets.length) usable = streets;
  } else if (shape === 'polygon') {
    const areas = rows.filter(isPolygon);
    if (areas.length) usable = areas;
  }
  // Among equally good readings, the name of the most notable place (a landmark is what people refer to).
  const notability = new Map<string, number>();
  for (const r of usable) notability.set(r.name, Math.max(notability.get(r.name) ?? -Infinity, prominence(r)));
  const bestNotability = Math.max(...usable.filter((r) => byName.get(r.name)! >= best - 1e-9).map((r) => notability.get(r.name)!));
  usable = usable.filter((r) => byName.get(r.name)! >= best - 1e-9 || notability.get(r.name)! >= bestNotability + NEAR_READING_DOMINANCE);
  const top = Math.max(...notability.values());
  usable = usable.filter((r) => notability.get(r.name)! >= top - 1);
  // A complete reading (every segment and every word accounted for) counts as an exact name; so does a good
  // reading still shared by several names: where they are (the other references, where the data is) then
  // decides, as it does between same-name places.
  const tied = new Set(usable.map((r) => r.name)).size > 1;
  return usable.map((row) => {
    const score = byName.get(row.name) ?? 0;
    return { row, score: score >= 0.999 || (tied && score >= 0.8) ? 1 : 0.95 * score };
  });
}

/**
 * No name matches: the reference may name a kind of place ("the bus terminal", "城东客运站" ends in 客运站).
 * One notable place of that kind (Wikidata-linked, or the only one) is taken; several become a clarification.
 */
async function resolveByKind(
  db: Db,
  ref: Reference,
  shape: 'point' | 'polygon' | 'line',
): Promise<{ ok: true; reference: ResolvedReference } | { ok: false; clarification: Clarification }> {
  const conceptId = referenceHeadConcept(ref.text);
  const concept = conceptId ? poiConceptById.get(conceptId) : undefined;
  const notFound = { ok: false as const, clarification: { question: `I could not find "${ref.text}". Which place do you mean?`, reference: ref.text, options: [] } };
  if (!concept || concept.categories.length === 0) return notFound;
  const { rows } = await sql<GazetteerRow>`
    SELECT id, name, source_id, category, GeometryType(geom) AS gtype,
           CASE WHEN GeometryType(geom) IN ('POLYGON', 'MULTIPOLYGON') THEN ST_Area(geog) ELSE 0 END AS area,
           ST_X(ST_Centroid(geom)) AS lon, ST_Y(ST_Centroid(geom)) AS lat, tags,
           (tags ? 'summary' OR tags ? 'byline') AS has_prose
    FROM places
    WHERE name IS NOT NULL AND category = ANY(${concept.categories}::text[])
    ORDER BY (tags ? 'wikidata') DESC, ST_Area(geog) DESC, source_id
    LIMIT 20`.execute(db);
  const notable = rows.filter((r) => r.tags.wikidata);
  const pick = rows.length === 1 ? rows[0] : notable.length === 1 ? notable[0] : undefined;
  if (pick) return { ok: true, reference: await featureReference(db, ref, pick, shape) };
  if (rows.length === 0) return notFound;
  return { ok: false, clarification: clarify(ref.text, clusterByLocation(rows).map((c) => mainFeature(c, shape))) };
}

function mainFeature(cluster: GazetteerRow[], shape: 'point' | 'polygon' | 'line'): GazetteerRow {
  const ranked = [...cluster].sort((a, b) => {
    if (shape === 'polygon') {
      const areaRank = (r: GazetteerRow) => AREA_CATEGORY_RANK[r.category ?? ''] ?? 0;
      if (areaRank(a) !== areaRank(b)) return areaRank(b) - areaRank(a);
    }
    return prominence(b) - prominence(a) || bySourceId(a, b);
  });
  return ranked[0]!;
}

/** Chooses among distant same-name places by the question's context, the other references, or where the data is. */
async function pickCluster(
  db: Db,
  clusters: GazetteerRow[][],
  ref: Reference,
  anchor: LonLat | undefined,
  shape: 'point' | 'polygon' | 'line',
): Promise<GazetteerRow[] | undefined> {
  if (ref.context) {
    const context = normalizeName(ref.context);
    const matching = clusters.filter((c) =>
      c.some((r) => Object.values(r.tags).some((v) => normalizeName(String(v)).includes(context)) || r.source_id.includes(context.replace(/ /g, '-'))),
    );
    if (matching.length === 1) return matching[0];
  }
  // "inside X": a named district is what an area reference means, when exactly one place found is one.
  if (shape === 'polygon') {
    const districts = clusters.filter((c) => c.some((r) => isPolygon(r) && (AREA_CATEGORY_RANK[r.category ?? ''] ?? 0) >= 3));
    if (districts.length === 1) return districts[0];
  }
  if (anchor) {
    const byDistance = [...clusters].sort((a, b) => metresBetween(a[0]!, anchor) - metresBetween(b[0]!, anchor));
    const [first, second] = byDistance;
    if (metresBetween(first![0]!, anchor) * 3 < metresBetween(second![0]!, anchor)) return first;
  }
  // A gazetteer's prominence: a city ten times as populous as every other of its name is the one meant
  // (Paris, France rather than Paris, Texas); closer sizes are asked about.
  const populations = clusters.map((c) => Math.max(...c.map(population)));
  const largest = populations.indexOf(Math.max(...populations));
  if (populations[largest]! > 0 && populations.every((p, i) => i === largest || p * 10 <= populations[largest]!)) return clusters[largest];
  // A famous place and namesakes elsewhere ("the Whitney": the museum, not a building of that name).
  const famous = dominant(clusters.map((c) => mainFeature(c, shape)), true);
  if (famous) return clusters.find((c) => c.includes(famous));
  // Where the data is: a place surrounded by many known places beats one at the edge of the map.
  const densities = await placesNear(db, clusters.map((c) => mainFeature(c, shape)), 1000);
  const order = densities.map((d, i) => ({ d, i })).sort((a, b) => b.d - a.d);
  if (order[0]!.d >= 3 * Math.max(order[1]!.d, 1)) return clusters[order[0]!.i];
  return undefined;
}

/**
 * How many places lie within `metres` of each point, in one query: one query per point would be as many
 * fan-outs to every shard on Citus, where a name copied in many cells then exhausts the pool. Citus reads only
 * the shards of the points' cells.
 */
async function placesNear(db: Db, points: readonly LonLat[], metres: number): Promise<number[]> {
  const degrees = metres / 111_320;
  const boxes = points.map((p) => {
    const dx = degrees / Math.max(Math.cos((p.lat * Math.PI) / 180), 0.01);
    return [p.lon - dx, p.lat - degrees, p.lon + dx, p.lat + degrees] as const;
  });
  const shardKeys = (await isDistributed(db)) ? shardKeysOfBoxes(boxes) : null;
  const { rows } = await sql<{ i: number; n: number }>`
    SELECT c.i::int AS i, count(*)::int AS n
    FROM unnest(${points.map((p) => p.lon)}::float8[], ${points.map((p) => p.lat)}::float8[]) WITH ORDINALITY AS c(lon, lat, i)
    JOIN places p ON ST_DWithin(p.geog, ST_SetSRID(ST_MakePoint(c.lon, c.lat), 4326)::geography, ${metres})
    ${shardKeys ? sql`WHERE p.shard_key = ANY(${shardKeys}::int[])` : sql``}
    GROUP BY c.i`.execute(db);
  const counts = points.map(() => 0);
  for (const r of rows) counts[r.i - 1] = r.n;
  return counts;
}

async function featureReference(
  db: Db,
  ref: Reference,
  row: GazetteerRow,
  shape: 'point' | 'polygon' | 'line',
): Promise<ResolvedReference> {
  const asArea = shape === 'polygon' && isPolygon(row);
  const { rows } = await sql<{ geometry: string; source: string; country_code: string | null }>`
    SELECT ST_AsGeoJSON(${asArea ? sql`ST_ForcePolygonCCW(geom)` : sql`ST_Centroid(geom)`}, 7) AS geometry, source,
           CASE WHEN category = 'country' THEN tags->>'country_code' END AS country_code
    FROM places WHERE id = ${row.id}`.execute(db);
  const found = rows[0]!;
  const landBorder = asArea ? await landBorderOf(db, found.source, row.source_id) : undefined;
  return {
    id: ref.id,
    text: ref.text,
    match: { placeId: row.id, name: row.name, sourceId: row.source_id, category: row.category, hint: placeHint(row) },
    shape: asArea ? 'polygon' : 'point',
    geometry: JSON.parse(found.geometry),
    centroid: { lon: row.lon, lat: row.lat },
    ...(asArea && found.country_code ? { countryCode: found.country_code } : {}),
    ...(landBorder ? { landBorder } : {}),
  };
}

/** An area's land border (migration 0012), read on its own: under Citus the table is not joined with places. */
async function landBorderOf(db: Db, source: string, sourceId: string): Promise<GeoJsonGeometry | undefined> {
  const { rows } = await sql<{ border: string }>`
    SELECT ST_AsGeoJSON(border, 7) AS border FROM land_borders WHERE source = ${source} AND source_id = ${sourceId}`.execute(db);
  return rows[0] ? (JSON.parse(rows[0].border) as GeoJsonGeometry) : undefined;
}

/**
 * A street is all its line features carrying exactly that name, merged into as few lines as possible and
 * simplified by 2 m: every candidate's distance to it is computed on the sphere, and that costs per vertex
 * (Park Avenue in Midtown: 289 vertices in 37 ways, 45 after; its along-query measured 4x faster).
 */
async function streetReference(db: Db, ref: Reference, name: string): Promise<ResolvedReference> {
  const { rows } = await sql<{ geometry: string; lon: number; lat: number }>`
    SELECT ST_AsGeoJSON(ST_Multi(ST_Simplify(ST_LineMerge(ST_CollectionExtract(street, 2)), 0.00002, true)), 7) AS geometry,
           ST_X(ST_Centroid(street)) AS lon, ST_Y(ST_Centroid(street)) AS lat
    FROM (SELECT ST_Collect(geom) AS street FROM places
          WHERE name = ${name} AND category = 'street' AND GeometryType(geom) IN ('LINESTRING', 'MULTILINESTRING')) AS s`.execute(db);
  const row = rows[0]!;
  return {
    id: ref.id,
    text: ref.text,
    match: { name, category: 'street' },
    shape: 'line',
    geometry: JSON.parse(row.geometry),
    centroid: { lon: row.lon, lat: row.lat },
  };
}
