/**
 * The evaluation sets measure wording the code has never been shaped on: no run of their words may appear
 * in the source (lexicons, rules, knowledge files, comments) or in the tests. A shared run of seven words,
 * or of nine Chinese characters, is taken as copied; shorter runs are names and common constructions
 * ("within 500 m of", a landmark's name) that any text about the same places shares.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonLines } from '../../eval/json-lines.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SHARED_EVAL = resolve(ROOT, '../shared/eval');
const WORDS = 7;
const HAN_CHARS = 9;
/** Official names longer than a run: a request may name the index, and the graph must know its name. */
const NAMES = ['改进的归一化水体指数'];

/** Files under `dir` (none when it is absent) whose path passes `keep`. */
function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => join(dir, name)).filter(keep);
}

/** The request or question of every line of an evaluation set. */
function requestsOf(path: string): string[] {
  return readJsonLines<{ query?: string; question?: string }>(path)
    .map((r) => r.query ?? r.question ?? '')
    .filter(Boolean);
}

/** Runs of WORDS words and of HAN_CHARS Chinese characters, lower-cased. */
function shingles(text: string): Set<string> {
  const out = new Set<string>();
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  for (let i = 0; i + WORDS <= words.length; i++) out.add(words.slice(i, i + WORDS).join(' '));
  for (const run of text.match(/\p{Script=Han}+/gu) ?? []) {
    const chars = [...run];
    for (let i = 0; i + HAN_CHARS <= chars.length; i++) out.add(chars.slice(i, i + HAN_CHARS).join(''));
  }
  return out;
}

describe('evaluation wording stays out of the code', () => {
  it('finds a copied run and ignores a shared name', () => {
    const set = shingles('Which bakeries are open late within 300 m of the old harbour lighthouse?');
    expect([...shingles('// e.g. "bakeries are open late within 300 m of the" ...')].some((s) => set.has(s))).toBe(true);
    expect([...shingles('near the old harbour lighthouse')].some((s) => set.has(s))).toBe(false);
  });

  it('no source or test file shares a run of words with an evaluation request', () => {
    const sets = [...filesUnder(resolve(ROOT, 'eval/sets'), (p) => /\.jsonl(\.gz)?$/.test(p)), ...filesUnder(SHARED_EVAL, (p) => p.endsWith('.jsonl'))];
    const owner = new Map<string, string>();
    for (const set of sets) for (const request of requestsOf(set)) for (const s of shingles(request)) owner.set(s, relative(ROOT, set));
    expect(owner.size).toBeGreaterThan(1000);
    for (const name of NAMES) for (const s of shingles(name)) owner.delete(s);
    const code = [...filesUnder(resolve(ROOT, 'src'), (p) => /\.(ts|json)$/.test(p)), ...filesUnder(resolve(ROOT, 'test'), (p) => /\.ts$/.test(p))];
    const copied: string[] = [];
    for (const file of code) {
      for (const s of shingles(readFileSync(file, 'utf8'))) if (owner.has(s)) copied.push(`${relative(ROOT, file)}: "${s}" (${owner.get(s)})`);
    }
    expect(copied).toEqual([]);
  });
});
