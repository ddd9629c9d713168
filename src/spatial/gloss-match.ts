/**
 * Matches a Chinese reference against the English names of the gazetteer through its gloss (see
 * src/lexicon/zh-gloss.ts): 洛克菲勒中心 -> Rockefeller + center, 布莱恩特公园 -> (bu-lai-en-te ~ Bryant) + park.
 *
 * A name qualifies by coverage both ways: the share of the Chinese segments it accounts for (by a sense, by a
 * compound containing a sense, or by sound) and the share of its own words accounted for. The index of name
 * words is built once per data version from the distinct names of the places table.
 */
import { englishSkeleton, glossChinese, pinyinSkeletons, editDistance, type GlossSegment } from '../lexicon/zh-gloss.ts';
import { AREA_LAST, LANDMARK_LAST, STREET_LAST } from '../planning/references.ts';
import { normalizeName } from './names.ts';
import { wordVectors, type WordVectors } from '../lexicon/word-vectors.ts';

/** Words that carry no identity in a name. */
const STOP = new Set(['of', 'the', 'and', 'a', 'an', 'in', 'on', 'at', 'for', 'to', 'by', 'de', 'la', 'le']);
/**
 * Characters of the standard transliteration tables (音译用字): a run of them is likely a foreign name written
 * by sound (列克星敦, 布莱恩特), while ordinary words (百货, 熨斗) are matched by meaning only.
 */
const TRANSLITERATION_CHARS = new Set(
  [...'阿埃艾爱安昂奥巴柏拜班邦保贝本比彼毕宾波伯博布查柴达道德登迪蒂丁东杜敦多厄恩尔法凡菲费芬丰佛弗福盖冈高戈格根贡古圭哈海汉豪赫亨胡华霍基吉加贾杰金卡凯坎康考柯科克肯库奎拉莱赖兰朗劳勒雷里理莉利列林琳隆卢鲁路伦罗洛马玛迈麦曼梅门蒙米缅明摩莫默姆穆纳奈南内尼宁纽诺欧帕派潘庞佩彭皮珀普奇齐乔切琼丘萨塞桑瑟森沙莎尚舍圣施什史斯松苏索塔泰坦汤唐特提汀图托瓦万旺威韦维温沃乌伍西希锡夏谢辛欣休雅亚扬耶伊因英尤于约泽扎詹兹佐逊顿星'],
);
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

/** A segment whose main sense is a kind of place (公园 park, 大道 avenue): read by meaning, never by sound. */
function isKindSegment(seg: GlossSegment): boolean {
  const first = seg.senses[0];
  return first !== undefined && contentWords(first).some((w) => KIND_WORDS.has(w));
}

/** Shortest run of single characters read as one transliteration, and the share of table characters it needs. */
const TRANSLITERATION_RUN = 3;
const TRANSLITERATION_SHARE = 2 / 3;

/** The share of the characters that are transliteration characters. */
function transliterationShare(chars: readonly string[]): number {
  return chars.filter((c) => TRANSLITERATION_CHARS.has(c)).length / Math.max(chars.length, 1);
}

/**
 * May this segment be part of a name written by sound? A dictionary name, transliteration characters only,
 * or a run long enough that one character outside the table does not make it an ordinary word.
 */
function soundable(seg: GlossSegment): boolean {
  const chars = [...seg.text];
  const share = transliterationShare(chars);
  return (seg.name && seg.senses.length > 0) || share === 1 || (chars.length >= TRANSLITERATION_RUN && share >= TRANSLITERATION_SHARE);
}

/**
 * Three or more single characters in a row, most of them transliteration characters, are one name written by
 * sound that the dictionary split because each character has a meaning of its own (a run like 惠 特 尼 reads
 * "kind special nun" word by word): they become one segment matched by sound. No table of characters is
 * complete, so one outside it in three does not break the run.
 */
export function joinTransliterationRuns(segs: readonly GlossSegment[]): GlossSegment[] {
  const out: GlossSegment[] = [];
  // A character that may mean a kind of place (山 "mountain; hill") ends a name by its meaning, not its sound.
  const single = (seg: GlossSegment) => /^\p{Script=Han}$/u.test(seg.text) && !seg.senses.some((sense) => contentWords(sense).some((w) => KIND_WORDS.has(w)));
  for (let i = 0; i < segs.length; ) {
    let j = i;
    while (j < segs.length && single(segs[j]!)) j++;
    const run = segs.slice(i, j);
    if (run.length >= TRANSLITERATION_RUN && transliterationShare(run.map((seg) => seg.text)) >= TRANSLITERATION_SHARE) {
      out.push({ text: run.map((seg) => seg.text).join(''), senses: [], syllables: run.flatMap((seg) => seg.syllables), name: true });
      i = j;
    } else {
      out.push(segs[i]!);
      i++;
    }
  }
  return out;
}

/** Words of the index that sound like a span of segments, with the span they cover. */
function phoneticWords(segs: GlossSegment[], index: NameIndex, looseWords: Set<string>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const exact = new Set<string>();
  const add = (w: string, covered: number[], isExact: boolean) => {
    const prev = out.get(w);
    if (!prev || prev.length < covered.length) out.set(w, covered);
    if (isExact) exact.add(w);
  };
  for (let i = 0; i < segs.length; i++) {
    for (let j = i; j < Math.min(segs.length, i + 4); j++) {
      const span = segs.slice(i, j + 1);
      if (span.some((s) => s.syllables.length === 0 || isKindSegment(s) || !soundable(s))) break;
      // Two consonants say little: only a name of two characters or more may be matched on so short a skeleton.
      const chars = span.reduce((n, s) => n + [...s.text].length, 0);
      const covered = Array.from({ length: j - i + 1 }, (_, k) => i + k);
      // The plain reading of the pinyin is exact; the k-for-j/q/x readings, a dropped final t/d (布莱恩 for
      // Bryant) and a skeleton one consonant off are looser readings.
      const first = span[0]!.syllables[0] ?? '';
      const alike = (w: string) => startsAlike(first, w);
      pinyinSkeletons(span.flatMap((s) => s.syllables)).forEach((key, variant) => {
        if (key.length < 2 || (key.length < 3 && chars < 2)) return;
        for (const w of index.skeletons.get(key) ?? []) if (alike(w)) add(w, covered, variant === 0);
        if (key.length >= 3) for (const w of index.skeletons.get(`${key}T`) ?? []) if (alike(w)) add(w, covered, false);
        if (key.length >= 4) {
          for (const [k, words] of index.skeletons) {
            if (k !== key && Math.abs(k.length - key.length) <= 1 && k.length >= 4 && editDistance(k, key, 1) <= 1) for (const w of words) if (alike(w)) add(w, covered, false);
          }
        }
      });
    }
  }
  for (const w of out.keys()) if (!exact.has(w)) looseWords.add(w);
  return out;
}

/**
 * The skeleton drops a leading glide or vowel on both sides, so it cannot tell "hui te ni" (Whitney) from
 * "Tina": a word that opens on a consonant needs a syllable that opens on one. A pinyin y- stands for an
 * English j- too (约瑟夫 Joseph), a w- for a v- (维多利亚 Victoria).
 */
export function startsAlike(syllable: string, word: string): boolean {
  const glide = /^(?:[hwy]|[aeiou]|$)/.test(syllable);
  if (!glide) return true;
  const w = word.toLowerCase();
  if (/^[aeiouhwy]/.test(w)) return true;
  return (syllable.startsWith('y') && w.startsWith('j')) || (syllable.startsWith('w') && w.startsWith('v'));
}

export interface GlossCandidate {
  name: string;
  score: number;
  /** How the name was read, for the plan's notes ("洛克菲勒=Rockefeller, 中心=center"). */
  reading: string;
}

/** How much a reading is worth: a sense word itself, a sound-alike, a compound holding a sense ("flatiron"). */
const EXACT = 1;
const SOUND = 0.85;
const SOUND_LOOSE = 0.8;
const COMPOUND = 0.7;
const RELATED = 0.6;
/** Cosine of two word vectors from which a name word reads as a sense ("union" for "alliance" is 0.68). */
export const RELATED_MIN = 0.65;
/** Sense words of a segment compared, and name words kept for each. */
const RELATED_SENSE_WORDS = 6;
const RELATED_PER_WORD = 5;
/** Meanings are read only when no name reads this well by the words themselves. */
const RELATED_BELOW = 0.8;

/** Which segments a name word accounts for, and how well: a sense word, a sound-alike, or a compound. */
function coverOf(word: string, senses: Set<string>[], sounds: Map<string, number[]>, looseWords: ReadonlySet<string>, related: ReadonlyMap<string, number[]>): Map<number, number> {
  const out = new Map<number, number>();
  const put = (i: number, w: number) => out.set(i, Math.max(out.get(i) ?? 0, w));
  senses.forEach((ws, i) => {
    if (ws.has(word)) put(i, EXACT);
    else if (compoundOf(word, ws)) put(i, COMPOUND);
    // Two neighbouring senses written as one word ("korea" + "town"): as good as the words themselves.
    const next = senses[i + 1];
    if (next) {
      for (const a of ws) {
        if (!word.startsWith(a) || !next.has(word.slice(a.length))) continue;
        put(i, EXACT);
        put(i + 1, EXACT);
      }
    }
  });
  for (const i of sounds.get(word) ?? []) put(i, looseWords.has(word) ? SOUND_LOOSE : SOUND);
  for (const i of related.get(word) ?? []) put(i, RELATED);
  return out;
}

/**
 * Name words close in meaning to a distinctive sense (GloVe cosine at least RELATED_MIN): a dictionary gives
 * "unite, alliance" where a name says "Union". Only the words of the index are compared, each sense against
 * them all once; the segments each word stands for.
 */
function relatedWords(senses: readonly Set<string>[], index: NameIndex, vectors: WordVectors = wordVectors()): Map<string, number[]> {
  const out = new Map<string, number[]>();
  senses.forEach((ws, i) => {
    for (const w of [...ws].filter((x) => x.length >= 3 && !KIND_WORDS.has(x)).slice(0, RELATED_SENSE_WORDS)) {
      const v = vectors.vector(w);
      if (!v) continue;
      for (const { word, score } of vectors.nearest(v, RELATED_PER_WORD, index.postings.keys())) {
        if (score < RELATED_MIN || ws.has(word) || KIND_WORDS.has(word)) continue;
        const list = out.get(word) ?? [];
        if (!list.includes(i)) list.push(i);
        out.set(word, list);
      }
    }
  });
  return out;
}

/** Does the word contain one of the senses as its head or tail ("flatiron" holds "iron")? */
function compoundOf(word: string, senses: ReadonlySet<string>): boolean {
  for (const s of senses) if (s.length >= 4 && word.length > s.length && (word.startsWith(s) || word.endsWith(s))) return true;
  return false;
}

/** Names of the index that read as the Chinese phrase, best first (at most `limit`). */
export function glossCandidates(text: string, index: NameIndex, limit = 12, segs: GlossSegment[] = glossChinese(text), vectors?: WordVectors): GlossCandidate[] {
  const meaningful = joinTransliterationRuns(segs).filter((s) => s.senses.length || s.syllables.length);
  if (meaningful.length === 0) return [];
  const senses = meaningful.map(senseWords);
  const looseWords = new Set<string>();
  const sounds = phoneticWords(meaningful, index, looseWords);
  const literal = readings(meaningful, senses, sounds, looseWords, new Map(), index, limit);
  if ((literal[0]?.score ?? 0) >= RELATED_BELOW) return literal;
  const related = relatedWords(senses, index, vectors);
  return related.size === 0 ? literal : readings(meaningful, senses, sounds, looseWords, related, index, limit);
}

/** The names that read as the segments, by senses, sounds and related meanings, best first. */
function readings(
  meaningful: readonly GlossSegment[],
  senses: Set<string>[],
  sounds: Map<string, number[]>,
  looseWords: ReadonlySet<string>,
  related: ReadonlyMap<string, number[]>,
  index: NameIndex,
  limit: number,
): GlossCandidate[] {
  // Seeds: names holding a distinctive word (kind words alone would pull in every park of the city).
  const seeds = new Set<number>();
  const seedWords = [...senses.flatMap((ws) => [...ws].filter((w) => !KIND_WORDS.has(w))), ...sounds.keys(), ...related.keys()];
  for (const w of seedWords) for (const i of (index.postings.get(w) ?? []).slice(0, 500)) seeds.add(i);
  // Compounds of a distinctive sense ("iron" -> "flatiron") are seeds too.
  const distinctive = senses.map((ws) => new Set([...ws].filter((w) => !KIND_WORDS.has(w))));
  for (const [w, list] of index.postings) if (distinctive.some((ws) => compoundOf(w, ws))) for (const i of list.slice(0, 100)) seeds.add(i);
  {
    // Names holding a sense of every segment ("park" + "avenue"), however common the words.
    let common: Set<number> | undefined;
    for (const ws of senses) {
      if (ws.size === 0) continue;
      const here = new Set<number>();
      for (const w of ws) for (const i of index.postings.get(w) ?? []) here.add(i);
      common = common ? new Set([...common].filter((i) => here.has(i))) : here;
    }
    for (const i of [...(common ?? [])].slice(0, 500)) seeds.add(i);
  }
  const out: GlossCandidate[] = [];
  for (const i of seeds) {
    const words = index.words[i]!;
    if (words.length === 0) continue;
    const covered = new Map<number, number>();
    let wordsCovered = 0;
    const reading: string[] = [];
    for (const w of words) {
      const c = coverOf(w, senses, sounds, looseWords, related);
      if (c.size === 0) continue;
      wordsCovered += Math.max(...c.values());
      for (const [x, weight] of c) covered.set(x, Math.max(covered.get(x) ?? 0, weight));
      reading.push(`${[...c.keys()].map((x) => meaningful[x]!.text).join('')}=${w}`);
    }
    const segCov = [...covered.values()].reduce((a, b) => a + b, 0) / meaningful.length;
    const nameCov = wordsCovered / words.length;
    const score = (segCov + nameCov) / 2;
    if (score >= GLOSS_MIN_SCORE && segCov >= 0.4) out.push({ name: index.names[i]!, score, reading: reading.join(', ') });
  }
  return out.sort((a, b) => b.score - a.score || a.name.length - b.name.length).slice(0, limit);
}
