import { memoizeBounded } from '../memo.ts';

/**
 * THE category table: how OSM tags (and other sources' type fields) become one normalised category.
 *
 * Rule: the category is the value of the first key of `CATEGORY_RULES` that the feature carries
 * (ignoring the values `no` / `none`), lower-cased, the first part of a `;` list, spaces turned into `_`.
 * The raw OSM value is kept on purpose (`fast_food`, `books`, `museum`): it is what users and the
 * evaluation's tag filters talk about, and it keeps the mapping predictable. The only changes are
 * the documented normalisations below. Details such as cuisine stay in the tags.
 *
 * The order matters because features often carry several primary keys: a museum in a building is
 * `tourism=museum` + `building=yes` and must come out as `museum`, not `building`.
 */

/** What kind of geometry a feature has; only matters for streets. */
export type GeometryKind = 'point' | 'line' | 'area';

export interface CategoryRule {
  /** OSM key. */
  key: string;
  /** Why the key is in the table / where it sits; rendered by the docs. */
  note: string;
  /** Category when the value is `yes` (a key without a real value). Defaults to the key itself. */
  yes?: string;
  /** Value -> category, for the few values that are renamed. */
  rename?: Readonly<Record<string, string>>;
  /** Category for named line features with this key (named highway ways are streets). */
  namedLine?: string;
  /** English noun for the kind, `{v}` is the value in words (`{v} shop` -> `chocolate shop`). Default `{v}`. */
  noun?: string;
  /**
   * Secondary values: used only when no later key (before `building`) gives a category. `tourism=attraction`
   * is added to parks and squares as a label; Bryant Park is `leisure=park` first.
   */
  weak?: readonly string[];
  /** Keys from here on are fallbacks: a weak value of an earlier key wins over them. */
  fallback?: boolean;
}

export const CATEGORY_RULES: readonly CategoryRule[] = [
  { key: 'amenity', note: 'restaurants, cafes, banks, pharmacies, schools...' },
  { key: 'shop', note: 'shops; the value says what they sell (books, clothes)', noun: '{v} shop' },
  {
    key: 'tourism',
    note: 'museums, hotels, artworks; `attraction` only when nothing more specific is there (except building)',
    yes: 'attraction',
    weak: ['attraction', 'yes'],
  },
  { key: 'leisure', note: 'parks, gardens, fitness centres, playgrounds' },
  { key: 'historic', note: 'memorials, monuments, historic buildings', yes: 'historic_site', weak: ['yes'] },
  { key: 'healthcare', note: 'clinics and practices without an amenity tag' },
  { key: 'office', note: 'offices (company, government, ...)', noun: '{v} office', yes: 'office' },
  { key: 'craft', note: 'workshops and trades', noun: '{v} workshop' },
  { key: 'public_transport', note: 'stations, stops and platforms' },
  {
    key: 'railway',
    note: 'rail and subway stations, entrances, tracks; lifecycle values (abandoned, adjacent...) give way to later keys',
    noun: 'railway {v}',
    // The High Line footway carries railway=adjacent; it is a street-like path first.
    weak: ['abandoned', 'adjacent', 'disused', 'razed', 'dismantled', 'proposed', 'construction'],
  },
  { key: 'aeroway', note: 'airport features' },
  {
    key: 'highway',
    note: 'named highway ways are `street` (what "along X Street" questions need); other highway features keep their value (bus_stop, traffic_signals, footway)',
    namedLine: 'street',
  },
  { key: 'place', note: 'named places: neighbourhood, suburb, square, city' },
  {
    key: 'boundary',
    note: 'boundary relations; administrative ones become `administrative_area`',
    rename: { administrative: 'administrative_area' },
  },
  { key: 'landuse', note: 'land use areas', noun: '{v} area' },
  { key: 'natural', note: 'trees, water, rock, ...' },
  {
    key: 'building',
    note: 'buildings without any of the keys above; `building=yes` becomes `building`',
    yes: 'building',
    noun: '{v} building',
    fallback: true,
  },
  { key: 'man_made', note: 'bridges, towers, piers (after building: a tower building is a building first)' },
  { key: 'waterway', note: 'rivers, canals, docks' },
  { key: 'emergency', note: 'fire hydrants, defibrillators, phones' },
];

/**
 * Renames applied to every category, whatever the source: OSM spells `neighbourhood` the British way,
 * and the NYC neighborhood file's `kind=neighborhood` / `sub-neighborhood` must land on the same
 * category (questions say "in Koreatown" whichever level the polygon has; `kind` stays in the tags).
 */
export const CATEGORY_ALIASES: Readonly<Record<string, string>> = {
  neighborhood: 'neighbourhood',
  sub_neighborhood: 'neighbourhood',
  sub_neighbourhood: 'neighbourhood',
};

/** Category of the NYC neighborhood polygons and the default of Wikivoyage points. */
export const NEIGHBOURHOOD_CATEGORY = 'neighbourhood';
export const DESTINATION_CATEGORY = 'destination';

/** Values that state the absence of the thing, never a category. */
const NEGATIVE_VALUES = new Set(['no', 'none', 'false', '0']);

/** Lower case, first part of a `;` list, spaces/dashes to `_`, then the global aliases. Null when empty. */
export function normaliseCategory(value: string | null | undefined): string | null {
  return value == null ? null : normaliseOnce(value);
}

// A load classifies every feature (twice, with its description): the same few hundred values
// (`yes`, `restaurant`, `residential`) come back thousands of times, so each is normalised once.
const normaliseOnce = memoizeBounded(normaliseUncached, 10_000);

function normaliseUncached(value: string): string | null {
  const first = value.split(';')[0]!.trim().toLowerCase().replace(/[\s-]+/g, '_');
  if (first === '' || NEGATIVE_VALUES.has(first)) return null;
  return CATEGORY_ALIASES[first] ?? first;
}

export interface CategoryMatch {
  category: string;
  /** The rule that decided. */
  rule: CategoryRule;
  /** The raw value of the rule's key. */
  value: string;
}

/** Position of each rule's key in CATEGORY_RULES. */
const RULE_INDEX: ReadonlyMap<string, number> = new Map(CATEGORY_RULES.map((rule, i) => [rule.key, i]));
/** The feature's values of rule keys, by rule position: filled, read and cleared by classifyOsmTags. */
const ruleValues: (string | undefined)[] = CATEGORY_RULES.map(() => undefined);

/** Applies `CATEGORY_RULES` to OSM tags; null when none of the keys is present with a usable value. */
export function classifyOsmTags(tags: Readonly<Record<string, string>>, kind: GeometryKind): CategoryMatch | null {
  // One pass over the feature's few tags instead of looking up all 20 rule keys in them: a load
  // classifies every feature two or three times (reader, description), over objects of many shapes.
  let first = CATEGORY_RULES.length;
  let last = -1;
  for (const key in tags) {
    const i = RULE_INDEX.get(key);
    if (i === undefined) continue;
    ruleValues[i] = tags[key];
    if (i < first) first = i;
    if (i > last) last = i;
  }
  try {
    return matchRules(tags, kind, first, last);
  } finally {
    for (let i = first; i <= last; i++) ruleValues[i] = undefined;
  }
}

/** The rules in order over `ruleValues` (set between `first` and `last`). */
function matchRules(tags: Readonly<Record<string, string>>, kind: GeometryKind, first: number, last: number): CategoryMatch | null {
  let weakMatch: CategoryMatch | null = null;
  let inFallback = false;
  for (let i = 0; i < CATEGORY_RULES.length; i++) {
    const rule = CATEGORY_RULES[i]!;
    if (rule.fallback) inFallback = true;
    if (weakMatch && inFallback) return weakMatch;
    const raw = i >= first && i <= last ? ruleValues[i] : undefined;
    if (raw === undefined) continue;
    const value = normaliseCategory(raw);
    if (value === null) continue;
    let category: string;
    if (rule.namedLine && kind === 'line' && tags.name) category = rule.namedLine;
    else if (value === 'yes') category = rule.yes ?? rule.key;
    else category = rule.rename?.[value] ?? value;
    const match = { category, rule, value };
    if (!weakMatch && !inFallback && rule.weak?.includes(value)) {
      weakMatch = match;
      continue;
    }
    return match;
  }
  return weakMatch;
}

export function categoryForOsmTags(tags: Readonly<Record<string, string>>, kind: GeometryKind): string | null {
  return classifyOsmTags(tags, kind)?.category ?? null;
}

/**
 * English words for categories whose value alone reads badly (`fast_food` -> "fast food restaurant").
 * Everything else is the value with `_` as spaces, through the rule's `noun` template.
 */
export const CATEGORY_NOUNS: Readonly<Record<string, string>> = {
  fast_food: 'fast food restaurant',
  ice_cream: 'ice cream shop',
  food_court: 'food court',
  biergarten: 'beer garden',
  atm: 'ATM',
  bureau_de_change: 'currency exchange',
  place_of_worship: 'place of worship',
  bicycle_rental: 'bicycle rental station',
  bicycle_parking: 'bicycle parking',
  car_rental: 'car rental',
  charging_station: 'charging station',
  doctors: "doctor's practice",
  dentist: 'dentist',
  clinic: 'clinic',
  post_office: 'post office',
  post_box: 'mailbox',
  drinking_water: 'drinking water fountain',
  fitness_centre: 'fitness centre',
  sports_centre: 'sports centre',
  arts_centre: 'arts centre',
  community_centre: 'community centre',
  events_venue: 'events venue',
  nightclub: 'nightclub',
  attraction: 'tourist attraction',
  artwork: 'artwork',
  guest_house: 'guest house',
  information: 'tourist information point',
  viewpoint: 'viewpoint',
  books: 'bookshop',
  clothes: 'clothing store',
  convenience: 'convenience store',
  supermarket: 'supermarket',
  alcohol: 'liquor store',
  wine: 'wine shop',
  deli: 'deli',
  bakery: 'bakery',
  hairdresser: 'hairdresser',
  beauty: 'beauty salon',
  mobile_phone: 'mobile phone shop',
  department_store: 'department store',
  dry_cleaning: 'dry cleaner',
  laundry: 'laundromat',
  optician: 'optician',
  florist: 'florist',
  jewelry: 'jewelry shop',
  shoes: 'shoe shop',
  electronics: 'electronics shop',
  variety_store: 'variety store',
  street: 'street',
  administrative_area: 'administrative area',
  neighbourhood: 'neighbourhood',
  historic_site: 'historic site',
  subway_entrance: 'subway entrance',
  bus_stop: 'bus stop',
  stop_position: 'public transport stop position',
  platform: 'platform',
  station: 'station',
  apartments: 'apartment building',
  building: 'building',
  park: 'park',
  garden: 'garden',
  playground: 'playground',
  pitch: 'sports pitch',
  dog_park: 'dog park',
  theatre: 'theatre',
  cinema: 'cinema',
  museum: 'museum',
  gallery: 'art gallery',
  pharmacy: 'pharmacy',
  destination: 'travel destination',
};

/** Human words for a category ("a ___"), without article. */
export function categoryNoun(category: string, match?: CategoryMatch | null): string {
  const known = CATEGORY_NOUNS[category];
  if (known) return known;
  const words = category.replace(/_/g, ' ');
  // The rule template only applies when the category is the rule's own value (not a rename or `street`).
  if (match && match.category === match.value && match.rule.noun) return match.rule.noun.replace('{v}', words);
  return words;
}
