/**
 * How well a gazetteer row matches a reference as written (its names, other-name tags, shortened words,
 * trigrams), how notable it is among same-name rows, and how same-name rows group into distinct places.
 */
import { AREA_LAST, LANDMARK_LAST, STREET_LAST } from '../planning/references.ts';
import { normalizeName } from './names.ts';

export interface GazetteerRow {
  id: number;
  name: string;
  source_id: string;
  category: string | null;
  gtype: string;
  area: number;
  lon: number;
  lat: number;
  tags: Record<string, string>;
  has_prose: boolean;
}

/** Features that share a landmark's name but are parts of it (platforms, stop positions, entrances). */
export const PART_CATEGORIES: ReadonlySet<string> = new Set(['stop_position', 'platform', 'entrance', 'subway_entrance', 'stop', 'stop_area']);
/** Same-name features farther apart than this are different places. */
const SAME_PLACE_M = 800;

/** Tags under which a place carries the other names people call it by ("MSG", "The Met"). */
const OTHER_NAME_KEYS = ['short_name', 'alt_name', 'official_name', 'loc_name', 'name:en'];

/**
 * The tag tokens (migration 0010: `key=value`, indexed) that name a place by the text as written, with and
 * without a leading article: an acronym or a nickname found where mappers put it, not in a list of ours.
 */
export function otherNameTokens(text: string): string[] {
  const bare = text.trim().replace(/^the\s+/i, '');
  const forms = new Set([text.trim(), bare, `The ${bare}`]);
  return OTHER_NAME_KEYS.flatMap((k) => [...forms].filter(Boolean).map((f) => `${k}=${f}`));
}

const CLIPPED = /^(\p{L})-(\p{L}{3,})$/u;

/**
 * A compound clipped to its initial ("K-town" for a one-word "...town" name): the LIKE pattern of the
 * full word, or undefined when the text is not written that way.
 */
export function clippedCompound(text: string): string | undefined {
  const m = CLIPPED.exec(text.trim().toLowerCase());
  return m ? `${m[1]}%${m[2]}` : undefined;
}

function isClippedFrom(text: string, name: string): boolean {
  const m = CLIPPED.exec(text.trim().toLowerCase());
  const n = name.toLowerCase();
  return m !== null && !/\s/.test(n) && n.length > m[2]!.length + 1 && n.startsWith(m[1]!) && n.endsWith(m[2]!);
}

export function nameScore(row: GazetteerRow, text: string): number {
  const wanted = normalizeName(text);
  const names = [
    row.name, row.tags['name:zh'], row.tags['name:zh-Hans'], row.tags['name:zh-Hant'], row.tags['name:en'],
    row.tags.alt_name, row.tags.official_name, row.tags.short_name, row.tags.loc_name,
  ]
    .filter((n): n is string => Boolean(n))
    .map(normalizeName);
  if (names.includes(wanted)) return 1;
  if (isClippedFrom(text, row.name)) return 0.95;
  // A shortened name, word by word ("Penn Station" for Pennsylvania Station, "Lex Avenue"): as good as an
  // abbreviation expanded.
  if (names.some((n) => isWordPrefix(wanted, n))) return 0.9;
  if (names.some((n) => n.length >= 3 && wanted.length >= 3 && (n.includes(wanted) || wanted.includes(n)))) {
    const n = names.find((x) => x.includes(wanted) || wanted.includes(x))!;
    return 0.6 + 0.3 * (Math.min(n.length, wanted.length) / Math.max(n.length, wanted.length));
  }
  return trigramSimilarity(names[0] ?? '', wanted) * 0.8;
}

/** Every word of `short` begins the matching word of `long` (same number of words, at least one shortened). */
export function isWordPrefix(short: string, long: string): boolean {
  const a = short.split(' ');
  const b = long.split(' ');
  if (a.length !== b.length || short === long) return false;
  return a.every((w, i) => b[i]!.startsWith(w) && (w === b[i] || w.length >= 3));
}

function trigrams(text: string): Set<string> {
  const padded = `  ${text} `;
  const out = new Set<string>();
  for (let i = 0; i < padded.length - 2; i++) out.add(padded.slice(i, i + 3));
  return out;
}

function trigramSimilarity(a: string, b: string): number {
  const ta = trigrams(a);
  const tb = trigrams(b);
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return shared / (ta.size + tb.size - shared || 1);
}

export const isPolygon = (r: GazetteerRow) => r.gtype === 'POLYGON' || r.gtype === 'MULTIPOLYGON';
export const isLine = (r: GazetteerRow) => r.gtype === 'LINESTRING' || r.gtype === 'MULTILINESTRING';

const KIND_WORDS: ReadonlySet<string> = new Set([...STREET_LAST, ...AREA_LAST, ...LANDMARK_LAST]);

/** Only words for kinds of place ("the station", "the park"): no name to prefer a notable bearer of. */
export function isGenericPhrase(text: string): boolean {
  return normalizeName(text).split(' ').every((w) => KIND_WORDS.has(w));
}

/** nameScore of a name that contains the wanted words (or is contained in them). */
export const CONTAINED_SCORE = 0.6;
/** How much more notable than every other candidate a place must be to be taken without asking. */
const DOMINANCE = 2;

/**
 * The one candidate clearly more notable than every rival (a Wikidata-linked landmark among shops that borrow
 * its name), or undefined when none stands out. Rivals are the candidates of another name, or with
 * `everyRowRivals` all other candidates (distinct places that share a name).
 */
export function dominant(rows: GazetteerRow[], everyRowRivals = false): GazetteerRow | undefined {
  const ranked = [...rows].sort((a, b) => prominence(b) - prominence(a) || bySourceId(a, b));
  const first = ranked[0];
  if (!first) return undefined;
  const rival = everyRowRivals ? ranked[1] : ranked.find((r) => normalizeName(r.name) !== normalizeName(first.name));
  if (!rival) return first;
  return prominence(first) - prominence(rival) >= DOMINANCE ? first : undefined;
}

/**
 * Among names that all contain the words asked for: the notable places (less than DOMINANCE below the most
 * notable one), and of these the name closest to the words; undefined when two notable names read equally well.
 */
export function notableReading(scored: Array<{ row: GazetteerRow; score: number }>): GazetteerRow | undefined {
  if (scored.length === 0) return undefined;
  const top = Math.max(...scored.map((s) => prominence(s.row)));
  const notable = scored.filter((s) => prominence(s.row) > top - DOMINANCE).sort((a, b) => b.score - a.score || bySourceId(a.row, b.row));
  const first = notable[0]!;
  const rival = notable.find((s) => normalizeName(s.row.name) !== normalizeName(first.row.name));
  if (rival && first.score - rival.score < 0.02) return undefined;
  return first.row;
}

/**
 * The last tie-break of every ordering of places: their source ids, which a new load of the same data keeps
 * (row ids and the physical order of rows do not), so that the same question resolves the same way.
 */
export function bySourceId(a: { source_id: string }, b: { source_id: string }): number {
  return a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0;
}

/** Notability: features with Wikidata/Wikipedia links, prose, an outline and rich tags are the "main" one of a name. */
export function prominence(r: GazetteerRow): number {
  return (
    (r.tags.wikidata ? 2 : 0) + (r.tags.wikipedia ? 1 : 0) + (r.has_prose ? 1 : 0) + (isPolygon(r) ? 1 : 0) +
    (PART_CATEGORIES.has(r.category ?? '') ? -3 : 0) + Math.min(Object.keys(r.tags).length, 40) / 40
  );
}

export function metresBetween(a: { lon: number; lat: number }, b: { lon: number; lat: number }): number {
  const rad = Math.PI / 180;
  const x = (b.lon - a.lon) * rad * Math.cos(((a.lat + b.lat) / 2) * rad);
  const y = (b.lat - a.lat) * rad;
  return Math.sqrt(x * x + y * y) * 6_371_000;
}

/**
 * Groups same-name matches into places by single linkage: a feature within SAME_PLACE_M of any member of a
 * group joins it (and may merge groups), so a long place mapped in pieces (the High Line: a park of many
 * segments over 2 km) is one place, while same-name places across town stay apart.
 */
export function clusterByLocation(rows: GazetteerRow[]): GazetteerRow[][] {
  const clusters: GazetteerRow[][] = [];
  for (const row of rows) {
    const near = clusters.filter((c) => c.some((member) => metresBetween(member, row) < SAME_PLACE_M));
    if (near.length === 0) {
      clusters.push([row]);
      continue;
    }
    const [home, ...others] = near;
    home!.push(row);
    for (const other of others) {
      home!.push(...other);
      clusters.splice(clusters.indexOf(other), 1);
    }
  }
  return clusters;
}

