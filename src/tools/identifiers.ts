/**
 * Tool names and ids written as identifiers. Catalogs name tools in code ("ChangeDetection", "calculateNDVI",
 * "terrain.slope", "get_sentinel2_image"); a request says "change detection". The analysers read a camel-case
 * word as one token, so its words are spelled out here, for the tool texts only: a request, or a place name
 * ("McDonald's"), is left as written.
 */

/** Lower to upper case, an acronym before a capitalised word, a digit before one: the words of a camel-case token. */
const CAMEL_BOUNDARY = /(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[0-9])(?=[A-Z][a-z])/g;
/** Separators inside an identifier: underscores, colons, and dots between letters ("terrain.slope", not "2.5"). */
const SEPARATOR = /_+|:+|(?<=[A-Za-z])\.(?=[A-Za-z])/g;

/**
 * The words of a tool's name when the name is one identifier: "get_ndvi" -> "get ndvi"; a camel-case name
 * keeps its written form in front ("ChangeDetection" -> "ChangeDetection Change Detection"), so that a
 * request typing the identifier still matches it. A name of several words is prose already; its acronyms
 * ("InSAR", "kNDVI") are left whole.
 */
export function spelledOutName(name: string): string {
  const trimmed = name.trim();
  if (/\s/.test(trimmed)) return name;
  const separated = trimmed.replace(SEPARATOR, ' ');
  const words = separated.replace(CAMEL_BOUNDARY, ' ');
  return words === separated ? separated : `${trimmed} ${words}`;
}
