/**
 * What a reference phrase is (street, area, city, landmark) from generic cues, and coordinates in text.
 * The cues are the words place names are built with, in any city; a gazetteer hint, when the caller has
 * one, takes precedence over them.
 */
import type { LonLat, ReferenceKind } from './plan.ts';
import { foldAligned } from './text.ts';

export type GazetteerHint = (text: string) => 'landmark' | 'street' | 'area' | 'city' | undefined;

const KINDS = new Set(['landmark', 'street', 'area', 'city']);

/** Calls the caller's gazetteer hint defensively: a throwing or odd hint must not break planning. */
export function safeHint(hint: GazetteerHint | undefined, text: string): 'landmark' | 'street' | 'area' | 'city' | undefined {
  if (!hint || !text) return undefined;
  try {
    const k: unknown = hint(text);
    return typeof k === 'string' && KINDS.has(k) ? (k as 'landmark' | 'street' | 'area' | 'city') : undefined;
  } catch {
    return undefined;
  }
}

/** Last words of street names ("Lexington Avenue", "W 34th St", "Rue de Rivoli" is handled by STREET_FIRST). */
export const STREET_LAST = new Set([
  'street', 'st', 'avenue', 'ave', 'av', 'road', 'rd', 'boulevard', 'blvd', 'lane', 'ln', 'drive', 'dr', 'way',
  'place', 'pl', 'parkway', 'pkwy', 'highway', 'hwy', 'expressway', 'expy', 'freeway', 'turnpike', 'tpke',
  'terrace', 'ter', 'court', 'ct', 'alley', 'row', 'crescent', 'embankment', 'quay', 'strasse', 'straße', 'gasse',
  'broadway', 'bowery', 'causeway', 'thoroughfare', 'mews', 'wynd', 'viaduct',
]);
/** First words of street names in other languages ("Rue de Rivoli", "Calle Mayor", "Via del Corso"). */
const STREET_FIRST = new Set(['rue', 'calle', 'via', 'avenida', 'avenue', 'boulevard', 'strada', 'carrer', 'rua', 'viale', 'corso', 'paseo', 'camino']);
/** Neighbourhood / area words. */
export const AREA_LAST = new Set([
  'district', 'village', 'heights', 'park', 'square', 'quarter', 'neighborhood', 'neighbourhood', 'borough', 'county',
  'island', 'hill', 'hills', 'gardens', 'side', 'bay', 'yards', 'plaza', 'commons', 'common', 'green', 'grounds',
  'reserve', 'forest', 'woods', 'valley', 'harbor', 'harbour', 'waterfront', 'ward', 'area', 'zone', 'campus',
  'beach', 'estate', 'downtown', 'midtown', 'uptown', 'precinct', 'province', 'state', 'region', 'arrondissement',
  'kiez', 'barrio', 'colonia', 'flats', 'meadow', 'meadows', 'oval', 'piazza', 'platz', 'plein', 'triangle', 'slope',
  'point', 'landing', 'corner', 'loop',
]);
/** Named-building words. */
export const LANDMARK_LAST = new Set([
  'building', 'terminal', 'station', 'tower', 'towers', 'museum', 'library', 'hotel', 'center', 'centre', 'hall',
  'church', 'cathedral', 'chapel', 'basilica', 'bridge', 'stadium', 'arena', 'airport', 'university', 'college',
  'school', 'headquarters', 'hq', 'memorial', 'monument', 'palace', 'castle', 'theater', 'theatre', 'hospital',
  'garden', 'opera', 'house', 'temple', 'mosque', 'synagogue', 'market', 'pier', 'statue', 'fountain', 'gate',
  'zoo', 'aquarium', 'observatory', 'institute', 'embassy', 'complex', 'exchange', 'capitol', 'courthouse', 'wharf',
  'lighthouse', 'abbey', 'fort', 'parliament', 'gallery', 'studios', 'studio', 'cinema', 'dome', 'mausoleum',
  'shrine', 'pavilion', 'port', 'dock', 'docks', 'apartments', 'plaza', 'hotel', 'inn',
  'restaurant', 'cafe', 'store', 'shop', 'depot', 'hub', 'bldg', 'headquarter', 'embarcadero', 'casino', 'club',
]);
/** Lower-case place words that may follow a capitalised name and belong to it ("Penn station", "Flatiron district"). */
export const PLACE_TAIL = new Set([...STREET_LAST, ...AREA_LAST, ...LANDMARK_LAST].filter((w) => w.length > 2));

/** Areas named as a single compound ("Koreatown", "Chinatown", "Midtown", "Georgetown"). */
const AREA_COMPOUND = /(town|ville|burg|borough|field|wood)$/;

/** Generic suffixes that describe, rather than name, an area: stripped from the reference text. */
export const AREA_GENERIC_TAIL = new Set(['area', 'neighborhood', 'neighbourhood', 'vicinity', 'region', 'surroundings', 'environs']);

/** Classifies an English (or Latin-script) reference phrase from its words. */
export function classifyKindEn(text: string): ReferenceKind | undefined {
  const words = foldAligned(text)
    .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0) return undefined;
  const last = words[words.length - 1]!;
  const first = words[0]!;
  // "city of X" is a city; "Tudor City", "Stuyvesant Town", "Old Town" are neighbourhoods (a hint knows better).
  if (first === 'city' && words[1] === 'of') return 'city';
  if (/^(city|town)$/.test(last) && words.length > 1) return 'area';
  if (STREET_LAST.has(last) && (words.length > 1 || last === 'broadway' || last === 'bowery')) {
    // "Madison Square" is an area, "Park Avenue" a street: the LAST word decides.
    return 'street';
  }
  if (STREET_FIRST.has(first) && words.length > 1 && !LANDMARK_LAST.has(last) && !AREA_LAST.has(last)) return 'street';
  if (/^\d+(st|nd|rd|th)$/.test(first) && words.length === 1) return 'street';
  if (LANDMARK_LAST.has(last) && !(last === 'plaza' && words.length === 1)) return 'landmark';
  if (AREA_LAST.has(last) && words.length > 1) return 'area';
  if (words.length === 1 && AREA_COMPOUND.test(last) && last.length > 6) return 'area';
  if (/^(upper|lower|east|west|north|south|downtown|midtown|old|greater|central)$/.test(first) && words.length > 1 && !STREET_LAST.has(last)) return 'area';
  return undefined;
}

const ZH_STREET = /(?:路|街|大道|大街|胡同|巷|弄|公路|高速|环路|马路|步行街|大马路)$/;
const ZH_CITY = /(?:市|城市)$/;
const ZH_AREA = /(?:区|县|镇|乡|村|山|街道|新区|开发区|公园|广场|商圈|园区|校园|片区|社区|花园|湿地|景区|岛|半岛|湾|山庄|小区|新城|老城|古镇|城区|一带|地区|省|州|坊|里弄|绿地|森林)$/;
const ZH_LANDMARK = /(?:站|车站|大厦|大楼|中心|馆|塔|寺|桥|机场|医院|学校|大学|学院|酒店|饭店|宾馆|剧院|教堂|总站|楼|门|宫|庙|院|体育场|体育馆|码头|商场|市场|大剧院|纪念碑|总部|银行|大使馆|领事馆|故居|遗址|陵|阁|亭|坛|城堡|影城|影院|书店|商店|百货|超市)$/;

/** Classifies a Chinese reference phrase from its suffix. */
export function classifyKindZh(text: string): ReferenceKind | undefined {
  const t = text.trim();
  if (!t) return undefined;
  if (/^[\x00-\x7F]+$/.test(t)) return classifyKindEn(t);
  if (ZH_STREET.test(t) && !/(?:步行街)$/.test(t)) return 'street';
  if (ZH_CITY.test(t) && t.length >= 2) return 'city';
  if (ZH_LANDMARK.test(t)) return 'landmark';
  if (ZH_AREA.test(t)) return 'area';
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Coordinates

export interface CoordinateMention {
  start: number;
  end: number;
  point: LonLat;
}

const NUM = '[+-]?\\d{1,3}(?:\\.\\d+)?';
const COORD_RE = new RegExp(
  `(?<![\\d.\\w])(?<a>${NUM})\\s*°?\\s*(?<ah>[NSEWnsew](?![A-Za-z]))?\\s*(?:,|;|\\s)\\s*(?<b>${NUM})\\s*°?\\s*(?<bh>[NSEWnsew](?![A-Za-z]))?(?![\\d.])`,
  'g',
);

function toPoint(a: number, ah: string | undefined, b: number, bh: string | undefined): LonLat | undefined {
  const A = ah?.toUpperCase();
  const B = bh?.toUpperCase();
  let lat: number;
  let lon: number;
  if (A === 'E' || A === 'W' || B === 'N' || B === 'S') {
    lon = A === 'W' ? -Math.abs(a) : a;
    lat = B === 'S' ? -Math.abs(b) : b;
  } else {
    // "lat, lon" is how people (and map apps) write positions; swap only when that cannot be right.
    lat = A === 'S' ? -Math.abs(a) : a;
    lon = B === 'W' ? -Math.abs(b) : b;
    if (!A && !B && Math.abs(lat) > 90 && Math.abs(lon) <= 90) [lat, lon] = [lon, lat];
  }
  if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180)) return undefined;
  return { lon, lat };
}

/** Coordinate pairs in the (original, not folded) text: "40.75, -73.98", "40.75N 73.98W". */
export function findCoordinates(text: string): CoordinateMention[] {
  const out: CoordinateMention[] = [];
  for (const m of text.matchAll(COORD_RE)) {
    const g = m.groups ?? {};
    const aText = g.a;
    const bText = g.b;
    if (!aText || !bText) continue;
    // Without a decimal point or hemisphere letters, "3, 4" is a list of numbers, not a position.
    const hasDecimal = aText.includes('.') && bText.includes('.');
    const hasHemi = Boolean(g.ah && g.bh);
    if (!hasDecimal && !hasHemi) continue;
    const point = toPoint(Number(aText), g.ah, Number(bText), g.bh);
    if (!point) continue;
    out.push({ start: m.index, end: m.index + m[0].length, point });
  }
  return out;
}

/** A coordinate pair starting at `pos` (after spaces), if any. */
export function coordinatesAt(text: string, pos: number): CoordinateMention | undefined {
  let i = pos;
  while (text[i] === ' ' || text[i] === '(' || text[i] === '[') i++;
  return findCoordinates(text.slice(i, i + 60))
    .filter((c) => c.start === 0)
    .map((c) => ({ start: c.start + i, end: c.end + i, point: c.point }))[0];
}
