/**
 * Matches a Chinese reference against the English names of the gazetteer through its gloss (see
 * src/lexicon/zh-gloss.ts): 洛克菲勒中心 -> Rockefeller + center, 布莱恩特公园 -> (bu-lai-en-te ~ Bryant) + park.
 *
 * A name qualifies by coverage both ways: the share of the Chinese segments it accounts for (by a sense, by a
 * compound containing a sense, or by sound) and the share of its own words accounted for. The index of name
 * words is built once per data version from the distinct names of the places table.
 */
import { englishSkeleton, glossChinese, pinyinSkeleton, editDistance, type GlossSegment } from '../lexicon/zh-gloss.js';
import { AREA_LAST, LANDMARK_LAST, STREET_LAST } from '../planning/references.js';
import { normalizeName } from './names.js';

/** Words that carry no identity in a name. */
const STOP = new Set(['of', 'the', 'and', 'a', 'an', 'in', 'on', 'at', 'for', 'to', 'by', 'de', 'la', 'le', 'new', 'york', 'nyc']);
/** Kind words (park, avenue, museum): matched by sense, never by sound. */
const KIND_WORDS: ReadonlySet<string> = new Set([...STREET_LAST, ...AREA_LAST, ...LANDMARK_LAST]);
/** A candidate needs this score (mean of both coverages) to be offered. */
export const GLOSS_MIN_SCORE = 0.6;

export interface NameIndex {
  /** Distinct names as stored. */
  names: string[];
  /** Content words of each name (normalised). */
  words: string[][];
  /** Word -> indexes of the names containing it. */
  postings: Map<string, number[]>;
  /** Consonant skeleton -> words with that skeleton. */
  skeletons: Map<string, string[]>;
}

export function contentWords(name: string): string[] {
  return normalizeName(name)
    .split(' ')
    .filter((w) => w && !STOP.has(w));
}

export function buildNameIndex(names: readonly string[]): NameIndex {
  const index: NameIndex = { names: [...names], words: [], postings: new Map(), skeletons: new Map() };
  names.forEach((name, i) => {
    const words = [...new Set(contentWords(name))];
    index.words.push(words);
    for (const w of words) {
      const list = index.postings.get(w);
      if (list) list.push(i);
      else {
        index.postings.set(w, [i]);
        if (/^[a-z]{3,}$/.test(w)) {
          const key = englishSkeleton(w);
          const same = index.skeletons.get(key);
          if (same) same.push(w);
          else index.skeletons.set(key, [w]);
        }
      }
    }
  });
  return index;
}

/** The normalised words of a segment's senses ("main street; avenue" -> main, street, avenue). */
function senseWords(seg: GlossSegment): Set<string> {
  const out = new Set<string>();
  for (const s of seg.senses) for (const w of contentWords(s)) out.add(w);
  return out;
}

function isKindSegment(words: ReadonlySet<string>): boolean {
  for (const w of words) if (KIND_WORDS.has(w)) return true;
  return false;
}

/** Words of the index that sound like a span of segments, with the span they cover. */
function phoneticWords(segs: GlossSegment[], senses: Set<string>[], index: NameIndex): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (let i = 0; i < segs.length; i++) {
    for (let j = i; j < Math.min(segs.length, i + 4); j++) {
      const span = segs.slice(i, j + 1);
      if (span.some((s, k) => s.syllables.length === 0 || isKindSegment(senses[i + k]!))) break;
      const chars = span.reduce((n, s) => n + [...s.text].length, 0);
      if (!span.some((s) => s.name) && chars < 3) continue;
      const key = pinyinSkeleton(span.flatMap((s) => s.syllables));
      if (key.length < 2) continue;
      const covered = Array.from({ length: j - i + 1 }, (_, k) => i + k);
      const found = [...(index.skeletons.get(key) ?? [])];
      if (key.length >= 4) {
        for (const [k, words] of index.skeletons) if (k !== key && Math.abs(k.length - key.length) <= 1 && k.length >= 4 && editDistance(k, key, 1) <= 1) found.push(...words);
      }
      for (const w of found) {
        const prev = out.get(w);
        if (!prev || prev.length < covered.length) out.set(w, covered);
      }
    }
  }
  return out;
}

export interface GlossCandidate {
  name: string;
  score: number;
  /** How the name was read, for the plan's notes ("洛克菲勒=Rockefeller, 中心=center"). */
  reading: string;
}

/** Which segments a name word accounts for: a sense word, a compound containing one, or a sound-alike. */
function coverOf(word: string, senses: Set<string>[], sounds: Map<string, number[]>): number[] {
  const out: number[] = [];
  senses.forEach((ws, i) => {
    if (ws.has(word)) out.push(i);
    else for (const s of ws) if (s.length >= 4 && word.length > s.length && (word.startsWith(s) || word.endsWith(s))) { out.push(i); break; }
  });
  for (const i of sounds.get(word) ?? []) if (!out.includes(i)) out.push(i);
  return out;
}

/** Names of the index that read as the Chinese phrase, best first (at most `limit`). */
export function glossCandidates(text: string, index: NameIndex, limit = 12, segs: GlossSegment[] = glossChinese(text)): GlossCandidate[] {
  const meaningful = segs.filter((s) => s.senses.length || s.syllables.length);
  if (meaningful.length === 0) return [];
  const senses = meaningful.map(senseWords);
  const sounds = phoneticWords(meaningful, senses, index);
  // Seeds: names holding a distinctive word (kind words alone would pull in every park of the city).
  const seeds = new Set<number>();
  const seedWords = [...senses.flatMap((ws) => [...ws].filter((w) => !KIND_WORDS.has(w))), ...sounds.keys()];
  for (const w of seedWords) for (const i of (index.postings.get(w) ?? []).slice(0, 500)) seeds.add(i);
  if (seeds.size === 0) for (const w of senses.flatMap((ws) => [...ws])) for (const i of (index.postings.get(w) ?? []).slice(0, 200)) seeds.add(i);
  const out: GlossCandidate[] = [];
  for (const i of seeds) {
    const words = index.words[i]!;
    if (words.length === 0) continue;
    const covered = new Set<number>();
    let wordsCovered = 0;
    const reading: string[] = [];
    for (const w of words) {
      const c = coverOf(w, senses, sounds);
      if (c.length) {
        wordsCovered++;
        c.forEach((x) => covered.add(x));
        reading.push(`${c.map((x) => meaningful[x]!.text).join('')}=${w}`);
      }
    }
    const segCov = covered.size / meaningful.length;
    const nameCov = wordsCovered / words.length;
    const score = (segCov + nameCov) / 2;
    if (score >= GLOSS_MIN_SCORE && segCov >= 0.5) out.push({ name: index.names[i]!, score, reading: reading.join(', ') });
  }
  return out.sort((a, b) => b.score - a.score || a.name.length - b.name.length).slice(0, limit);
}
