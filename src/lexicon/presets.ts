/**
 * Kinds of place from the OpenStreetMap community's own vocabulary: the iD editor's tagging schema
 * (npm `@openstreetmap/id-tagging-schema`, ISC). Each preset has the OSM tag of a kind of feature, the name
 * mappers see and the synonym terms they search with, in English and (translated by the community) in
 * Chinese: "parcel" -> post office, 打印店 -> copy shop. The hand lexicon (poi-concepts.ts) stays first; this
 * vocabulary answers the words it does not know.
 *
 * The schema files are read once, at first use, from the installed package and reduced to a small table
 * (a few hundred concepts); a missing package leaves the vocabulary empty rather than failing a question.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { PoiConcept } from './types.ts';

/** Keys whose presets are places people go to; the first key of this list found in a preset's tags is its kind. */
const PRIMARY_KEYS = ['amenity', 'shop', 'tourism', 'leisure', 'healthcare', 'office', 'craft', 'historic', 'emergency', 'club'] as const;

/**
 * Words that occur in questions as ordinary words rather than as kinds of place, yet are synonym terms of
 * some preset ("open" in a shop's terms, "near" never a place): a form made only of these is not indexed.
 */
const FUNCTION_WORDS = new Set([
  'a', 'an', 'the', 'and', 'or', 'of', 'for', 'to', 'in', 'on', 'at', 'by', 'with', 'near', 'nearby', 'close', 'open',
  'place', 'places', 'spot', 'store', 'shop', 'service', 'services', 'station', 'centre', 'center', 'area', 'point',
  'good', 'best', 'new', 'old', 'big', 'small', 'local', 'public', 'private', 'free', 'general', 'other', 'building',
  'office', 'house', 'home', 'hall', 'room', 'club', 'street', 'road', 'way', 'park', 'square', 'city', 'town',
  'walk', 'go', 'get', 'buy', 'find', 'need', 'want', 'where', 'what', 'which', 'me', 'my', 'i', 'you', 'it',
  'can', 'could', 'will', 'would', 'may', 'might', 'should', 'must', 'do', 'does', 'have', 'has', 'is', 'are', 'be',
  'any', 'some', 'all', 'one', 'there', 'here', 'this', 'that', 'time', 'day', 'night', 'today', 'now', 'around',
]);

/** A surface form (a name or alias is strong; a synonym term is weak) of a kind of place. */
export interface PresetForm {
  form: string;
  id: string;
  strong: boolean;
}

interface RawPreset {
  tags?: Record<string, string>;
  geometry?: string[];
  searchable?: boolean;
}
interface RawStrings {
  name?: string;
  aliases?: string[] | string;
  terms?: string[] | string;
}

function listOf(v: string[] | string | undefined): string[] {
  if (!v) return [];
  return (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean);
}

/** The [key, value] a preset is about, or nothing when it is not a place people visit. */
export function primaryTag(preset: RawPreset): [string, string] | undefined {
  if (preset.searchable === false || !preset.tags) return undefined;
  const geometry = preset.geometry ?? ['point', 'area'];
  if (!geometry.includes('point') && !geometry.includes('area')) return undefined;
  for (const key of PRIMARY_KEYS) {
    const value = preset.tags[key];
    if (value && value !== '*' && !value.includes('|')) return [key, value];
  }
  return undefined;
}

/** Is an English form specific enough to stand for a kind of place in a question? */
function usableEn(form: string): boolean {
  const words = form.split(' ').filter(Boolean);
  if (words.length === 0 || form.length < 3 || /[{}()[\]0-9]/.test(form)) return false;
  return !words.every((w) => FUNCTION_WORDS.has(w));
}

/** Chinese forms: a single character is too ambiguous inside running text (茶 in 茶几, 药 in 火药). */
function usableZh(form: string): boolean {
  return [...form].length >= 2 && !/[{}()[\]]/.test(form);
}

export interface PresetVocabulary {
  concepts: PoiConcept[];
  en: PresetForm[];
  zh: PresetForm[];
}

/**
 * Builds the vocabulary from the schema's three files (pure, for tests). Presets sharing a tag
 * (amenity/pharmacy and healthcare/pharmacy) become one concept. A weak term shared by more than two
 * concepts says nothing and is left out; a form that is some concept's name keeps only that concept.
 */
export function buildPresetVocabulary(
  presets: Record<string, RawPreset>,
  en: Record<string, RawStrings>,
  zh: Record<string, RawStrings>,
): PresetVocabulary {
  const concepts = new Map<string, PoiConcept>();
  const forms = { en: new Map<string, PresetForm[]>(), zh: new Map<string, PresetForm[]>() };
  const add = (lang: 'en' | 'zh', raw: string, id: string, strong: boolean): void => {
    const form = lang === 'en' ? raw.toLowerCase().replace(/[-_/]+/g, ' ').replace(/\s+/g, ' ').trim() : raw.trim();
    if (lang === 'en' ? !usableEn(form) : !usableZh(form)) return;
    const list = forms[lang].get(form) ?? [];
    const same = list.find((f) => f.id === id);
    if (same) same.strong ||= strong;
    else list.push({ form, id, strong });
    forms[lang].set(form, list);
  };
  for (const [presetId, preset] of Object.entries(presets)) {
    const tag = primaryTag(preset);
    if (!tag) continue;
    const [key, value] = tag;
    const id = `osm:${key}=${value}`;
    const c = concepts.get(id) ?? { id, en: [], zh: [], tags: [[key, [value]]], categories: [value], nearM: 500 };
    concepts.set(id, c);
    for (const [lang, strings] of [['en', en[presetId]], ['zh', zh[presetId]]] as const) {
      if (!strings) continue;
      if (strings.name) add(lang, strings.name, id, true);
      for (const a of listOf(strings.aliases)) add(lang, a, id, true);
      for (const t of listOf(strings.terms)) add(lang, t, id, false);
    }
  }
  const resolve = (lang: 'en' | 'zh'): PresetForm[] => {
    const out: PresetForm[] = [];
    for (const list of forms[lang].values()) {
      const strong = list.filter((f) => f.strong);
      const kept = strong.length ? strong : list.length <= 2 ? list : [];
      for (const f of kept) {
        out.push(f);
        const c = concepts.get(f.id)!;
        const target = lang === 'en' ? c.en : c.zh;
        if (!target.includes(f.form)) target.push(f.form);
      }
    }
    return out;
  };
  const enForms = resolve('en');
  const zhForms = resolve('zh');
  return { concepts: [...concepts.values()].filter((c) => c.en.length || c.zh.length), en: enForms, zh: zhForms };
}

/** One JSON file of the installed schema, parsed (throws when the package is absent). */
function readSchemaFile(file: string): unknown {
  const require = createRequire(import.meta.url);
  const dir = require.resolve('@openstreetmap/id-tagging-schema/dist/presets.min.json').replace(/presets\.min\.json$/, '');
  return JSON.parse(readFileSync(`${dir}${file}`, 'utf8'));
}

let vocabulary: PresetVocabulary | undefined;

/** The vocabulary of the installed schema, built on first use (empty when the package is absent). */
export function presetVocabulary(): PresetVocabulary {
  if (vocabulary) return vocabulary;
  try {
    const presets = readSchemaFile('presets.min.json') as Record<string, RawPreset>;
    const en = (readSchemaFile('translations/en.min.json') as { en: { presets: { presets: Record<string, RawStrings> } } }).en.presets.presets;
    const zh = (readSchemaFile('translations/zh-CN.min.json') as { 'zh-CN': { presets: { presets: Record<string, RawStrings> } } })['zh-CN'].presets.presets;
    vocabulary = buildPresetVocabulary(presets, en, zh);
  } catch {
    vocabulary = { concepts: [], en: [], zh: [] };
  }
  return vocabulary;
}

let byId: Map<string, PoiConcept> | undefined;

/** A preset concept by id (`osm:amenity=post_office`). */
export function presetConceptById(id: string): PoiConcept | undefined {
  byId ??= new Map(presetVocabulary().concepts.map((c) => [c.id, c]));
  return byId.get(id);
}

/** The labels of one OSM field's options (the `crop` field: Barley, Sugar Beets…), English and zh-CN. */
export interface FieldOptionNames {
  en: string[];
  zh: string[];
}

const fieldOptionCache = new Map<string, FieldOptionNames>();

/** The option labels of the field `key` in the installed schema (empty when the package or field is absent). */
export function fieldOptionNames(key: string): FieldOptionNames {
  const cached = fieldOptionCache.get(key);
  if (cached) return cached;
  let names: FieldOptionNames = { en: [], zh: [] };
  try {
    type Fields = Record<string, { options?: Record<string, string> }>;
    const read = (file: string, lang: string): Fields => (readSchemaFile(file) as Record<string, { presets?: { fields?: Fields } }>)[lang]?.presets?.fields ?? {};
    const labels = (fields: Fields) => Object.values(fields[key]?.options ?? {}).filter((v): v is string => typeof v === 'string');
    names = { en: labels(read('translations/en.min.json', 'en')).map((l) => l.toLowerCase()), zh: labels(read('translations/zh-CN.min.json', 'zh-CN')) };
  } catch {
    // The schema is optional: without it a concept keeps the forms the graph lists.
  }
  fieldOptionCache.set(key, names);
  return names;
}
