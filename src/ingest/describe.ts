/**
 * Description sentences for places: what gets embedded and what an answer can quote.
 *
 * Rule: never say anything the data does not say. Sources with prose (neighborhood summaries,
 * Wikivoyage bylines) keep their prose verbatim; everything else gets sentences assembled from tag
 * facts only, in a fixed order so the output is deterministic (the golden tests rely on it).
 */
import { classifyOsmTags, categoryNoun, type GeometryKind } from './category.ts';
import type { PlaceFeature } from './feature.ts';

export interface DescribeContext {
  /** Street the place is on, from a spatial join; used only when the tags have no address street. */
  street?: string;
  /** Neighbourhood containing the place, from a spatial join. */
  neighbourhood?: string;
}

/** Prose fields, in order of preference. For OSM, `description` is a mapper's note and is appended instead. */
const PROSE_KEYS = ['summary', 'byline', 'description', 'desc'] as const;

/** Categories where cuisine reads as part of the kind ("a steak restaurant"). */
const FOOD_PLACES = new Set(['restaurant', 'fast_food', 'cafe', 'bar', 'pub', 'food_court', 'biergarten', 'ice_cream']);

/** Cuisine values that repeat the kind and would read badly ("a coffee shop cafe"). */
const REDUNDANT_CUISINE: Readonly<Record<string, readonly string[]>> = {
  cafe: ['coffee_shop', 'coffee'],
  ice_cream: ['ice_cream'],
  fast_food: ['fast_food'],
};

/** Cuisine / religion words that are proper adjectives in English. */
const PROPER_ADJECTIVES = new Set([
  'american', 'italian', 'chinese', 'japanese', 'korean', 'thai', 'vietnamese', 'indian', 'mexican', 'french',
  'greek', 'spanish', 'turkish', 'lebanese', 'mediterranean', 'middle eastern', 'israeli', 'german', 'polish',
  'russian', 'ukrainian', 'irish', 'british', 'peruvian', 'brazilian', 'argentinian', 'colombian', 'cuban',
  'caribbean', 'jamaican', 'ethiopian', 'moroccan', 'african', 'asian', 'latin american', 'tex-mex', 'cajun',
  'nepalese', 'tibetan', 'pakistani', 'afghan', 'persian', 'malaysian', 'indonesian', 'filipino', 'taiwanese',
  'cantonese', 'sichuan', 'szechuan', 'shanghai', 'hawaiian', 'venezuelan', 'salvadoran', 'dominican',
  'uzbek', 'georgian', 'portuguese', 'austrian', 'swiss', 'belgian', 'scandinavian', 'egyptian', 'syrian',
  'christian', 'jewish', 'muslim', 'buddhist', 'hindu', 'sikh', 'catholic', 'protestant', 'orthodox',
]);

/** Diet keys with the words used for them. */
const DIETS: readonly [key: string, words: string][] = [
  ['diet:vegan', 'vegan'],
  ['diet:vegetarian', 'vegetarian'],
  ['diet:gluten_free', 'gluten-free'],
  ['diet:lactose_free', 'lactose-free'],
  ['diet:halal', 'halal'],
  ['diet:kosher', 'kosher'],
];

/** Services, with the words used when they are offered. */
const SERVICES: readonly [key: string, words: string][] = [
  ['outdoor_seating', 'outdoor seating'],
  ['takeaway', 'takeaway'],
  ['delivery', 'delivery'],
];

function isOsm(feature: PlaceFeature): boolean {
  return /^(node|way|relation)\/\d+$/.test(feature.sourceId);
}

function geometryKind(feature: PlaceFeature): GeometryKind {
  const t = feature.geometry.type;
  if (t === 'Point' || t === 'MultiPoint') return 'point';
  if (t === 'LineString' || t === 'MultiLineString') return 'line';
  return 'area';
}

function words(value: string): string {
  const w = value.trim().replace(/_/g, ' ');
  return PROPER_ADJECTIVES.has(w.toLowerCase()) ? w.replace(/(^|[\s-])([a-z])/g, (_, p: string, c: string) => p + c.toUpperCase()) : w;
}

function listValues(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(';')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** "a, b and c" */
function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function article(phrase: string): string {
  // "an ATM", "an art museum", but "a university", "a one-way street", "a European ..."
  const vowel = /^[aeiou]/i.test(phrase) && !/^(uni|use|usu|eu|one)/i.test(phrase);
  return `${vowel ? 'an' : 'a'} ${phrase}`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function sentence(s: string): string {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

function websiteDomain(tags: Readonly<Record<string, string>>): string | null {
  const raw = tags.website ?? tags['contact:website'] ?? tags.url;
  if (!raw) return null;
  const first = raw.split(';')[0]!.trim();
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(first) ? first : `https://${first}`);
    return url.hostname.replace(/^www\./i, '') || null;
  } catch {
    return null;
  }
}

/** The kind of place in words, without article ("steak restaurant", "art museum", "pharmacy"). */
function kindWords(feature: PlaceFeature, tags: Readonly<Record<string, string>>): { kind: string; cuisineLeft: string[] } {
  const category = feature.category;
  if (!category) return { kind: 'place', cuisineLeft: listValues(tags.cuisine) };
  const match = classifyOsmTags(tags, geometryKind(feature));
  let noun = categoryNoun(category, match && match.category === category ? match : null);

  // Subtypes that are plain facts of the tags: museum=art -> "art museum", religion -> "Christian place of worship".
  if (category === 'museum' && tags.museum) noun = `${words(listValues(tags.museum)[0] ?? '')} ${noun}`.trim();
  if (category === 'place_of_worship' && tags.religion) noun = `${words(tags.religion)} ${noun}`;

  let cuisines = listValues(tags.cuisine);
  if (FOOD_PLACES.has(category) && cuisines.length > 0) {
    const redundant = REDUNDANT_CUISINE[category] ?? [];
    cuisines = cuisines.filter((c) => !redundant.includes(c.toLowerCase()));
    if (cuisines.length > 0 && cuisines.length <= 2) {
      return { kind: `${joinAnd(cuisines.map(words))} ${noun}`, cuisineLeft: [] };
    }
  }
  return { kind: noun, cuisineLeft: cuisines };
}

/** Where the place is: "at 72 West 36th Street", "on Broadway", plus "in Midtown". */
function locationPhrase(tags: Readonly<Record<string, string>>, context: DescribeContext): string {
  const street = tags['addr:street']?.trim();
  const number = tags['addr:housenumber']?.trim();
  let where = '';
  if (street && number) where = ` at ${number} ${street}`;
  else if (street) where = ` on ${street}`;
  else if (context.street) where = ` on ${context.street}`;
  if (context.neighbourhood) where += ` in ${context.neighbourhood}`;
  return where;
}

function otherNames(tags: Readonly<Record<string, string>>, name: string | null): string[] {
  // Most places have none of these keys: no set and no lists to build for them.
  if (tags.official_name === undefined && tags.alt_name === undefined && tags.short_name === undefined) return [];
  const seen = new Set([name?.toLowerCase()]);
  const out: string[] = [];
  for (const key of ['official_name', 'alt_name', 'short_name']) {
    for (const v of listValues(tags[key])) {
      if (seen.has(v.toLowerCase())) continue;
      seen.add(v.toLowerCase());
      out.push(v);
    }
  }
  return out;
}

/** Whether the description of this feature is the source's own prose (kept verbatim, no context added). */
export function hasProse(feature: PlaceFeature): boolean {
  if (isOsm(feature)) return false;
  return PROSE_KEYS.some((key) => Boolean(feature.tags[key]?.trim()));
}

/**
 * One to a few English sentences about a place. `context` adds facts found by spatial joins that the
 * tags do not hold (the street a shop is on, the neighbourhood).
 */
export function describePlace(feature: PlaceFeature, context: DescribeContext = {}): string {
  const tags = feature.tags;
  const osm = isOsm(feature);

  if (!osm) {
    for (const key of PROSE_KEYS) {
      const prose = tags[key]?.trim();
      if (prose) return prose;
    }
  }

  const name = feature.name?.trim() || null;
  const { kind, cuisineLeft } = kindWords(feature, tags);
  const out: string[] = [];

  const where = locationPhrase(tags, context);
  out.push(name ? `${name} is ${article(kind)}${where}.` : `${capitalise(article(`unnamed ${kind}`))}${where}.`);

  if (!tags['addr:street'] && !context.street && tags['addr:full']) out.push(sentence(`Address: ${tags['addr:full'].trim()}`));

  const aka = otherNames(tags, name);
  if (aka.length > 0) out.push(`Also known as ${joinAnd(aka)}.`);
  const formerly = listValues(tags.old_name).filter((n) => n.toLowerCase() !== name?.toLowerCase());
  if (formerly.length > 0) out.push(`Formerly known as ${joinAnd(formerly)}.`);

  if (cuisineLeft.length > 0) out.push(`Cuisine: ${joinAnd(cuisineLeft.map(words))}.`);

  const brand = tags.brand?.trim();
  if (brand && !(name ?? '').toLowerCase().includes(brand.toLowerCase())) out.push(`Its brand is ${brand}.`);

  const offers: string[] = [];
  for (const [key, w] of DIETS) {
    const v = tags[key];
    if (v === 'yes') offers.push(`${w} options`);
    else if (v === 'limited') offers.push(`limited ${w} options`);
    else if (v === 'only') offers.push(`only ${w} food`);
  }
  const notOffered: string[] = [];
  for (const [key, w] of SERVICES) {
    const v = tags[key];
    if (v === 'yes') offers.push(w);
    else if (v === 'only') offers.push(`${w} only`);
    else if (v === 'no') notOffered.push(w);
  }
  if (offers.length > 0) out.push(`It offers ${joinAnd(offers)}.`);
  if (notOffered.length > 0) out.push(`It does not offer ${joinAnd(notOffered)}.`);

  const oh = tags.opening_hours?.trim();
  if (oh) out.push(sentence(`Opening hours: ${oh}`));

  const wheelchair = tags.wheelchair;
  if (wheelchair === 'yes' || wheelchair === 'designated') out.push('It is wheelchair accessible.');
  else if (wheelchair === 'limited') out.push('It has limited wheelchair access.');
  else if (wheelchair === 'no') out.push('It is not wheelchair accessible.');

  const domain = websiteDomain(tags);
  if (domain) out.push(`Website: ${domain}.`);

  // OSM `description` is free text written by a mapper: a fact of the data, kept verbatim after ours.
  const note = osm ? tags.description?.trim() : undefined;
  if (note) out.push(sentence(note));

  return out.join(' ');
}

/** Stands for a street name not known yet; see describeWithStreetSlot. */
export const STREET_SLOT = '\u0001street\u0001';

/**
 * The description of a place whose street is found later (by a spatial join over data still to come),
 * in one call: `withStreet.replace(STREET_SLOT, name)` equals `describePlace(feature, { ...context, street: name })`
 * and `withoutStreet` equals `describePlace(feature, context)`.
 */
export function describeWithStreetSlot(
  feature: PlaceFeature,
  context: Omit<DescribeContext, 'street'> = {},
): { withStreet: string; withoutStreet: string } {
  const withStreet = describePlace(feature, { ...context, street: STREET_SLOT });
  // The street only ever appears as " on <street>" in the first sentence, and only changes anything
  // else when the tags hold addr:full without addr:street (that sentence is left out with a street).
  const simple = !feature.tags['addr:full'] || Boolean(feature.tags['addr:street']);
  return { withStreet, withoutStreet: simple ? withStreet.replace(` on ${STREET_SLOT}`, '') : describePlace(feature, context) };
}
