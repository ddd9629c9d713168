/**
 * `npx tsx eval/sets/build-midtown-own.ts [--check]`: writes eval/sets/midtown-own.jsonl, the project's own
 * tuning questions on the Midtown extract (half in Chinese), or with --check midtown-own-check.jsonl, a second
 * batch scored once as written, in the format of ../shared/eval/README.md.
 *
 * The questions were written for this project (not taken from any evaluation set). The gold is computed here
 * by SQL from the raw OSM tags and geometries of the loaded `places` table, never by the pipeline: a POI is a
 * named OSM point or polygon (its centroid), distances are geography distances, same-name features less than
 * 60 m apart count once, and the reference feature itself is left out.
 */
import { writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { runCommand } from '../../src/cli/context.ts';
import type { Db } from '../../src/db/database.ts';
import { scorerName } from '../spatial.ts';

type Tags = Array<[string, string[]]>;
type Ref =
  | { landmark: string; category?: string }
  | { area: string; nbhd?: boolean }
  | { street: string };
interface Spec {
  q: string;
  lang: 'en' | 'zh';
  type: 'within' | 'inside' | 'along' | 'nearest' | 'semantic';
  ref: Ref;
  rel: 'within_distance' | 'inside' | 'along' | 'nearest';
  d?: number;
  k?: number;
  what: string;
  tags: Tags;
}

const CAFE: Tags = [['amenity', ['cafe']], ['cuisine', ['coffee_shop']]];
const PHARMACY: Tags = [['amenity', ['pharmacy']], ['healthcare', ['pharmacy']]];
const RESTAURANT: Tags = [['amenity', ['restaurant']]];
const BAR: Tags = [['amenity', ['bar', 'pub']]];
const HOTEL: Tags = [['tourism', ['hotel', 'hostel', 'motel', 'guest_house']]];
const BAKERY: Tags = [['shop', ['bakery', 'pastry']]];
const BANK: Tags = [['amenity', ['bank']]];
const POST: Tags = [['amenity', ['post_office']]];
const COPY: Tags = [['shop', ['copyshop']]];
const HAIR: Tags = [['shop', ['hairdresser', 'barber']]];
const GALLERY: Tags = [['tourism', ['gallery']]];
const PIZZA: Tags = [['cuisine', ['pizza']]];
const BOOKS: Tags = [['shop', ['books']]];
const LIQUOR: Tags = [['shop', ['alcohol', 'wine']]];
const GYM: Tags = [['leisure', ['fitness_centre']], ['amenity', ['gym']]];
const SHOES: Tags = [['shop', ['shoes']]];
const FLORIST: Tags = [['shop', ['florist']]];
const BIKE: Tags = [['shop', ['bicycle']]];

const SPECS: Spec[] = [
  // English
  { q: 'no more than a six minute walk from the Chrysler Building, any pharmacies?', lang: 'en', type: 'within', ref: { landmark: 'Chrysler Building' }, rel: 'within_distance', d: 480, what: 'pharmacy', tags: PHARMACY },
  { q: 'pubs or bars within 250 m of the Empire State Building', lang: 'en', type: 'within', ref: { landmark: 'Empire State Building' }, rel: 'within_distance', d: 250, what: 'bar / pub', tags: BAR },
  { q: 'resturants within 150 meters of the Flatiron Building', lang: 'en', type: 'within', ref: { landmark: 'Flatiron Building' }, rel: 'within_distance', d: 150, what: 'restaurant', tags: RESTAURANT },
  { q: 'In the vicinity of Madison Square Park, are there any liquor stores?', lang: 'en', type: 'within', ref: { landmark: 'Madison Square Park' }, rel: 'within_distance', d: 500, what: 'liquor store', tags: LIQUOR },
  { q: 'restaurants near the Morgan Library & Museum', lang: 'en', type: 'within', ref: { landmark: 'The Morgan Library & Museum' }, rel: 'within_distance', d: 500, what: 'restaurant', tags: RESTAURANT },
  { q: 'coffee near the Crysler Building', lang: 'en', type: 'within', ref: { landmark: 'Chrysler Building' }, rel: 'within_distance', d: 500, what: 'cafe', tags: CAFE },
  { q: 'Which hotels are located in Murray Hill?', lang: 'en', type: 'inside', ref: { area: 'Murray Hill', nbhd: true }, rel: 'inside', what: 'hotel', tags: HOTEL },
  { q: 'art galleries in Chelsea please', lang: 'en', type: 'inside', ref: { area: 'Chelsea', nbhd: true }, rel: 'inside', what: 'gallery', tags: GALLERY },
  { q: "where to drink in Hell's Kitchen", lang: 'en', type: 'inside', ref: { area: "Hell's Kitchen", nbhd: true }, rel: 'inside', what: 'bar / pub', tags: BAR },
  { q: 'show me bakeries inside the Garment District', lang: 'en', type: 'inside', ref: { area: 'Garment District', nbhd: true }, rel: 'inside', what: 'bakery', tags: BAKERY },
  { q: 'pizza places on Eighth Avenue', lang: 'en', type: 'along', ref: { street: '8th Avenue' }, rel: 'along', d: 100, what: 'pizza', tags: PIZZA },
  { q: 'banks along Lexington Ave', lang: 'en', type: 'along', ref: { street: 'Lexington Avenue' }, rel: 'along', d: 100, what: 'bank', tags: BANK },
  { q: 'coffee shops on W 23rd St', lang: 'en', type: 'along', ref: { street: 'West 23rd Street' }, rel: 'along', d: 100, what: 'cafe', tags: CAFE },
  { q: 'shoe stores along Seventh Ave', lang: 'en', type: 'along', ref: { street: '7th Avenue' }, rel: 'along', d: 100, what: 'shoes', tags: SHOES },
  { q: 'closest post office to Bryant Park', lang: 'en', type: 'nearest', ref: { landmark: 'Bryant Park' }, rel: 'nearest', k: 1, what: 'post office', tags: POST },
  { q: 'which drugstor is closest to Madison Square Park?', lang: 'en', type: 'nearest', ref: { landmark: 'Madison Square Park' }, rel: 'nearest', k: 1, what: 'pharmacy', tags: PHARMACY },
  { q: 'the two nearest bookshops to the Empire State Building', lang: 'en', type: 'nearest', ref: { landmark: 'Empire State Building' }, rel: 'nearest', k: 2, what: 'books', tags: BOOKS },
  { q: 'I need to photocopy some documents, anything near Bryant Park?', lang: 'en', type: 'semantic', ref: { landmark: 'Bryant Park' }, rel: 'within_distance', d: 500, what: 'copy shop', tags: COPY },
  { q: 'somewhere to buy a bouquet close to Madison Square Park', lang: 'en', type: 'semantic', ref: { landmark: 'Madison Square Park' }, rel: 'within_distance', d: 500, what: 'florist', tags: FLORIST },
  { q: 'I want to get my bike fixed, anything within 800 m of Chelsea Market?', lang: 'en', type: 'semantic', ref: { landmark: 'Chelsea Market', category: 'mall' }, rel: 'within_distance', d: 800, what: 'bicycle shop', tags: BIKE },
  // Chinese
  { q: '克莱斯勒大厦附近的药店', lang: 'zh', type: 'within', ref: { landmark: 'Chrysler Building' }, rel: 'within_distance', d: 500, what: 'pharmacy', tags: PHARMACY },
  { q: '布莱恩特公园300米以内的咖啡馆', lang: 'zh', type: 'within', ref: { landmark: 'Bryant Park' }, rel: 'within_distance', d: 300, what: 'cafe', tags: CAFE },
  { q: '梅西百货周边有哪些餐厅', lang: 'zh', type: 'within', ref: { landmark: "Macy's" }, rel: 'within_distance', d: 500, what: 'restaurant', tags: RESTAURANT },
  { q: '熨斗大厦步行5分钟以内的酒吧', lang: 'zh', type: 'within', ref: { landmark: 'Flatiron Building' }, rel: 'within_distance', d: 400, what: 'bar / pub', tags: BAR },
  { q: '格拉梅西公园附近的餐厅', lang: 'zh', type: 'within', ref: { landmark: 'Gramercy Park' }, rel: 'within_distance', d: 500, what: 'restaurant', tags: RESTAURANT },
  { q: '摩根图书馆附近有面包店吗', lang: 'zh', type: 'within', ref: { landmark: 'The Morgan Library & Museum' }, rel: 'within_distance', d: 500, what: 'bakery', tags: BAKERY },
  { q: '距离宾夕法尼亚车站800米以内的酒店', lang: 'zh', type: 'within', ref: { landmark: 'Pennsylvania Station' }, rel: 'within_distance', d: 800, what: 'hotel', tags: HOTEL },
  { q: '切尔西有哪些画廊', lang: 'zh', type: 'inside', ref: { area: 'Chelsea', nbhd: true }, rel: 'inside', what: 'gallery', tags: GALLERY },
  { q: '默里山的酒店', lang: 'zh', type: 'inside', ref: { area: 'Murray Hill', nbhd: true }, rel: 'inside', what: 'hotel', tags: HOTEL },
  { q: '地狱厨房里的酒吧', lang: 'zh', type: 'inside', ref: { area: "Hell's Kitchen", nbhd: true }, rel: 'inside', what: 'bar / pub', tags: BAR },
  { q: '韩国城里有什么餐厅', lang: 'zh', type: 'inside', ref: { area: 'Koreatown', nbhd: true }, rel: 'inside', what: 'restaurant', tags: RESTAURANT },
  { q: '第八大道沿线的披萨店', lang: 'zh', type: 'along', ref: { street: '8th Avenue' }, rel: 'along', d: 100, what: 'pizza', tags: PIZZA },
  { q: '沿着列克星敦大道有哪些银行', lang: 'zh', type: 'along', ref: { street: 'Lexington Avenue' }, rel: 'along', d: 100, what: 'bank', tags: BANK },
  { q: '麦迪逊大道上的咖啡店', lang: 'zh', type: 'along', ref: { street: 'Madison Avenue' }, rel: 'along', d: 100, what: 'cafe', tags: CAFE },
  { q: '离帝国大厦最近的邮局', lang: 'zh', type: 'nearest', ref: { landmark: 'Empire State Building' }, rel: 'nearest', k: 1, what: 'post office', tags: POST },
  { q: '离麦迪逊广场公园最近的三家咖啡店', lang: 'zh', type: 'nearest', ref: { landmark: 'Madison Square Park' }, rel: 'nearest', k: 3, what: 'cafe', tags: CAFE },
  { q: '离克莱斯勒大厦最近的银行', lang: 'zh', type: 'nearest', ref: { landmark: 'Chrysler Building' }, rel: 'nearest', k: 1, what: 'bank', tags: BANK },
  { q: '布莱恩特公园附近哪里可以复印', lang: 'zh', type: 'semantic', ref: { landmark: 'Bryant Park' }, rel: 'within_distance', d: 500, what: 'copy shop', tags: COPY },
  { q: '中央车站附近可以理发的地方', lang: 'zh', type: 'semantic', ref: { landmark: 'Grand Central Terminal', category: 'attraction' }, rel: 'within_distance', d: 500, what: 'hairdresser', tags: HAIR },
  { q: '熨斗大厦附近想健身', lang: 'zh', type: 'semantic', ref: { landmark: 'Flatiron Building' }, rel: 'within_distance', d: 500, what: 'gym', tags: GYM },
];

const ATM: Tags = [['amenity', ['atm']], ['atm', ['yes']]];
const CHINESE: Tags = [['cuisine', ['chinese', 'cantonese', 'sichuan', 'szechuan', 'hunan', 'shanghai', 'dim_sum']]];
const SUSHI: Tags = [['cuisine', ['sushi']]];
const MUSEUM: Tags = [['tourism', ['museum']]];
const SUPERMARKET: Tags = [['shop', ['supermarket', 'grocery']]];
const BAGEL: Tags = [['cuisine', ['bagel']]];
const ICE: Tags = [['amenity', ['ice_cream']], ['shop', ['ice_cream']], ['cuisine', ['ice_cream', 'frozen_yogurt', 'gelato']]];
const DUNKIN: Tags = [['brand', ["Dunkin'"]], ['name', ["Dunkin'", "Dunkin' Donuts"]]];

/**
 * A second batch, written after the tuning above and scored once as it came (`--check`): an estimate of how
 * the mechanisms carry over to questions they were not tuned on.
 */
const CHECK_SPECS: Spec[] = [
  { q: "Any Dunkin' within a 5 min walk of Madison Square Garden?", lang: 'en', type: 'within', ref: { landmark: 'Madison Square Garden' }, rel: 'within_distance', d: 400, what: "Dunkin'", tags: DUNKIN },
  { q: "quick question: where's the nearest ATM to Greeley Square?", lang: 'en', type: 'nearest', ref: { landmark: 'Greeley Square' }, rel: 'nearest', k: 1, what: 'ATM', tags: ATM },
  { q: 'Chinese food in Kips Bay', lang: 'en', type: 'inside', ref: { area: 'Kips Bay', nbhd: true }, rel: 'inside', what: 'chinese', tags: CHINESE },
  { q: 'hotels along Park Ave', lang: 'en', type: 'along', ref: { street: 'Park Avenue' }, rel: 'along', d: 100, what: 'hotel', tags: HOTEL },
  { q: 'are there sushi places on Ninth Avenue?', lang: 'en', type: 'along', ref: { street: '9th Avenue' }, rel: 'along', d: 100, what: 'sushi', tags: SUSHI },
  { q: 'museums no more than 800 meters from Grand Central', lang: 'en', type: 'within', ref: { landmark: 'Grand Central Terminal', category: 'attraction' }, rel: 'within_distance', d: 800, what: 'museum', tags: MUSEUM },
  { q: 'grab a beer within two blocks of Greeley Square', lang: 'en', type: 'semantic', ref: { landmark: 'Greeley Square' }, rel: 'within_distance', d: 160, what: 'bar / pub', tags: BAR },
  { q: 'closest bank to the Empire State Bldg', lang: 'en', type: 'nearest', ref: { landmark: 'Empire State Building' }, rel: 'nearest', k: 1, what: 'bank', tags: BANK },
  { q: 'Which pharmacys are in the Flatiron District?', lang: 'en', type: 'inside', ref: { area: 'Flatiron District', nbhd: true }, rel: 'inside', what: 'pharmacy', tags: PHARMACY },
  { q: "I'd like a bagel near the Daily News Building", lang: 'en', type: 'semantic', ref: { landmark: 'Daily News Building' }, rel: 'within_distance', d: 500, what: 'bagel', tags: BAGEL },
  { q: 'somewhere I can print documents within 300 m of Penn Station', lang: 'en', type: 'semantic', ref: { landmark: 'Pennsylvania Station' }, rel: 'within_distance', d: 300, what: 'copy shop', tags: COPY },
  { q: 'the 4 closest ice cream shops to Madison Square Park', lang: 'en', type: 'nearest', ref: { landmark: 'Madison Square Park' }, rel: 'nearest', k: 4, what: 'ice cream', tags: ICE },
  { q: '麦迪逊广场花园附近的唐恩都乐', lang: 'zh', type: 'within', ref: { landmark: 'Madison Square Garden' }, rel: 'within_distance', d: 500, what: "Dunkin'", tags: DUNKIN },
  { q: '离先驱广场最近的自动取款机', lang: 'zh', type: 'nearest', ref: { landmark: 'Greeley Square' }, rel: 'nearest', k: 1, what: 'ATM', tags: ATM },
  { q: '基普斯湾的中餐馆', lang: 'zh', type: 'inside', ref: { area: 'Kips Bay', nbhd: true }, rel: 'inside', what: 'chinese', tags: CHINESE },
  { q: '公园大道沿线的酒店', lang: 'zh', type: 'along', ref: { street: 'Park Avenue' }, rel: 'along', d: 100, what: 'hotel', tags: HOTEL },
  { q: '第九大道上有寿司店吗', lang: 'zh', type: 'along', ref: { street: '9th Avenue' }, rel: 'along', d: 100, what: 'sushi', tags: SUSHI },
  { q: '中央车站800米以内的博物馆', lang: 'zh', type: 'within', ref: { landmark: 'Grand Central Terminal', category: 'attraction' }, rel: 'within_distance', d: 800, what: 'museum', tags: MUSEUM },
  { q: '帝国大厦附近步行十分钟的超市', lang: 'zh', type: 'within', ref: { landmark: 'Empire State Building' }, rel: 'within_distance', d: 800, what: 'supermarket', tags: SUPERMARKET },
  { q: '离洛克菲勒中心最近的银行', lang: 'zh', type: 'nearest', ref: { landmark: 'Rockefeller Center' }, rel: 'nearest', k: 1, what: 'bank', tags: BANK },
  { q: '熨斗区里的药店', lang: 'zh', type: 'inside', ref: { area: 'Flatiron District', nbhd: true }, rel: 'inside', what: 'pharmacy', tags: PHARMACY },
  { q: '在每日新闻大楼附近吃百吉饼', lang: 'zh', type: 'semantic', ref: { landmark: 'Daily News Building' }, rel: 'within_distance', d: 500, what: 'bagel', tags: BAGEL },
  { q: '宾州车站周边300米内可以打印的地方', lang: 'zh', type: 'semantic', ref: { landmark: 'Pennsylvania Station' }, rel: 'within_distance', d: 300, what: 'copy shop', tags: COPY },
  { q: '离麦迪逊广场公园最近的四家冰淇淋店', lang: 'zh', type: 'nearest', ref: { landmark: 'Madison Square Park' }, rel: 'nearest', k: 4, what: 'ice cream', tags: ICE },
];

/** SQL condition: the feature's raw tags match any [key, values] pair (";"-separated values count separately). */
function tagCondition(tags: Tags) {
  return sql.join(
    tags.map(([key, values]) =>
      values.includes('*')
        ? sql`(p.tags ? ${key} AND p.tags->>${key} NOT IN ('no', 'none'))`
        : sql`(p.tags ? ${key} AND EXISTS (SELECT 1 FROM unnest(string_to_array(p.tags->>${key}, ';')) v WHERE trim(v) = ANY(${values}::text[])))`,
    ),
    sql` OR `,
  );
}

async function referenceGeometry(db: Db, ref: Ref): Promise<{ names: string[]; source: string; geojson: string; excludeId?: number }> {
  if ('street' in ref) {
    const { rows } = await sql<{ g: string }>`
      SELECT ST_AsGeoJSON(ST_Multi(ST_LineMerge(ST_Collect(geom))), 7) AS g FROM places
      WHERE name = ${ref.street} AND category = 'street' AND GeometryType(geom) IN ('LINESTRING', 'MULTILINESTRING')`.execute(db);
    return { names: [ref.street], source: `osm_lines:name=${ref.street}`, geojson: rows[0]!.g };
  }
  if ('area' in ref) {
    const { rows } = await sql<{ g: string; source_id: string }>`
      SELECT ST_AsGeoJSON(geom, 7) AS g, source_id FROM places
      WHERE name = ${ref.area} AND GeometryType(geom) IN ('POLYGON', 'MULTIPOLYGON')
        AND (${ref.nbhd ?? false} = false OR (source = 'nyc-neighborhoods' AND source_id LIKE '%-manhattan'))
      ORDER BY (source = 'nyc-neighborhoods') DESC, ST_Area(geog) DESC LIMIT 1`.execute(db);
    return { names: [ref.area], source: rows[0]!.source_id, geojson: rows[0]!.g };
  }
  const { rows } = await sql<{ g: string; source_id: string; id: number }>`
    SELECT ST_AsGeoJSON(ST_Centroid(geom), 7) AS g, source_id, id FROM places
    WHERE name = ${ref.landmark} AND source = 'osm' AND (${ref.category ?? null}::text IS NULL OR category = ${ref.category ?? null})
      AND category NOT IN ('stop_position', 'platform', 'subway_entrance', 'entrance', 'parking_entrance')
    ORDER BY (tags ? 'wikidata') DESC, ST_Area(geog) DESC LIMIT 1`.execute(db);
  return { names: [ref.landmark], source: rows[0]!.source_id, geojson: rows[0]!.g, excludeId: rows[0]!.id };
}

interface Poi {
  id: number;
  name: string;
  lon: number;
  lat: number;
  osm_id: string;
  d: number;
}

async function pois(db: Db, spec: Spec, geojson: string, excludeId: number | undefined, within: number): Promise<Poi[]> {
  const ref = sql`ST_SetSRID(ST_GeomFromGeoJSON(${geojson}), 4326)`;
  const dist = spec.rel === 'inside' ? sql`CASE WHEN ST_Intersects(ST_Centroid(p.geom), ${ref}) THEN 0 ELSE ST_Distance(ST_Centroid(p.geom)::geography, ${ref}::geography) END` : sql`ST_Distance(ST_Centroid(p.geom)::geography, ${ref}::geography)`;
  const { rows } = await sql<Poi>`
    SELECT p.id, p.name, ST_X(ST_Centroid(p.geom)) AS lon, ST_Y(ST_Centroid(p.geom)) AS lat, p.source_id AS osm_id, ${dist} AS d
    FROM places p
    WHERE p.source = 'osm' AND p.name IS NOT NULL AND GeometryType(p.geom) IN ('POINT', 'POLYGON', 'MULTIPOLYGON')
      AND p.id <> ${excludeId ?? -1} AND (${tagCondition(spec.tags)})
      AND ST_DWithin(ST_Centroid(p.geom)::geography, ${ref}::geography, ${within})
    ORDER BY d, p.id`.execute(db);
  // Same normalised name less than 60 m apart: one place.
  const kept: Poi[] = [];
  for (const r of rows) {
    const dup = kept.some((k) => scorerName(k.name) === scorerName(r.name) && Math.hypot((k.lon - r.lon) * 84_000, (k.lat - r.lat) * 111_000) < 60);
    if (!dup) kept.push(r);
  }
  return kept;
}

const round = (n: number) => Math.round(n * 1e7) / 1e7;

const check = process.argv.includes('--check');
const out = check ? 'eval/sets/midtown-own-check.jsonl' : 'eval/sets/midtown-own.jsonl';

await runCommand(async ({ database }) => {
  const lines: string[] = [];
  let n = 0;
  for (const spec of check ? CHECK_SPECS : SPECS) {
    n++;
    const ref = await referenceGeometry(database.db, spec.ref);
    const around = await pois(database.db, spec, ref.geojson, ref.excludeId, 3000);
    let gold: Poi[];
    if (spec.rel === 'nearest') gold = around.slice(0, spec.k ?? 1);
    else if (spec.rel === 'inside') gold = around.filter((p) => p.d === 0);
    else gold = around.filter((p) => p.d <= (spec.d ?? 500));
    const item = {
      id: `${check ? 'check' : 'own'}-${String(n).padStart(2, '0')}`,
      question: spec.q,
      lang: spec.lang,
      type: spec.type,
      reference: { names: ref.names, geometry: JSON.parse(ref.geojson), source: ref.source },
      spatial: { relation: spec.rel, distance_m: spec.rel === 'within_distance' || spec.rel === 'along' ? (spec.d ?? null) : null, k: spec.rel === 'nearest' ? (spec.k ?? 1) : null },
      semantic: { description: spec.what, tags: spec.tags },
      gold: gold.map((p) => ({ name: p.name, lon: round(p.lon), lat: round(p.lat), osm_id: p.osm_id, distance_m: Math.round(p.d * 10) / 10 })),
      semantic_ok: around.map((p) => ({ name: p.name, lon: round(p.lon), lat: round(p.lat), osm_id: p.osm_id })),
    };
    if (gold.length === 0) console.error(`${item.id}: no gold (${spec.q})`);
    lines.push(JSON.stringify(item));
  }
  writeFileSync(out, `${lines.join('\n')}\n`);
  console.log(`wrote ${lines.length} questions to ${out}`);
});
