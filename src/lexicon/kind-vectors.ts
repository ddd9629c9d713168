/**
 * The last resort for a kind of place no lexicon lists: the need word is compared, with pretrained word
 * vectors (word-vectors.ts), with the words of the vocabulary the service already knows (the hand lexicon's
 * single-word forms and the iD presets' names: "florist", "pharmacy", "playground"). The nearest one above a
 * threshold stands for the need ("medicine" -> pharmacy); below it nothing is assumed and the dense semantic
 * score alone ranks (a wrong kind of place would filter out every right answer).
 *
 * The threshold was chosen on the tuning half of the project's own check set (eval/sets/README.md): above the
 * best-scoring wrong approximate reading of that half.
 */
import { wordVectors, type WordVectors } from './word-vectors.js';

/** Cosine at or above which a need word is read as a known kind-of-place word. */
export const KIND_SIMILARITY_THRESHOLD = 0.7;

/**
 * Words this frequent are function words, question words or everyday verbs ("where", "find", "some"); the
 * table lists words by frequency, so the rank says it without a list. Kind words ranked above it ("food",
 * "hotel") are in the lexicons already and never reach this fallback.
 */
const COMMON_RANK = 400;

/**
 * Words that say where or how far, or how a question is asked, rather than what is wanted: in a question they
 * are not the need, and some are close to kinds of place in the vectors ("walk" ~ "park", "downtown" ~ "mall").
 */
const NOT_NEEDS = new Set([
  'near', 'nearby', 'nearest', 'closest', 'close', 'around', 'within', 'inside', 'along', 'between', 'walk', 'walking', 'walkable',
  'minute', 'minutes', 'min', 'mins', 'block', 'blocks', 'meter', 'meters', 'metre', 'metres', 'kilometre', 'kilometres',
  'kilometer', 'kilometers', 'km', 'mile', 'miles', 'feet', 'foot', 'away', 'distance', 'far', 'route', 'way', 'street', 'avenue',
  'neighborhood', 'neighbourhood', 'area', 'district', 'downtown', 'uptown', 'midtown', 'place', 'places', 'spot', 'spots',
  'somewhere', 'anywhere', 'anything', 'something', 'please', 'thanks', 'hey', 'quick', 'quickly', 'good', 'nice', 'best',
  'tonight', 'today', 'tomorrow', 'morning', 'evening', 'afternoon', 'weekend', 'now', 'later', 'soon', 'want', 'wanna', 'need',
  'looking', 'recommend', 'suggest', 'list', 'show', 'tell', 'located', 'nearer', 'walkway', 'corner', 'north', 'south', 'east', 'west',
]);

export interface KindWord {
  /** The vocabulary word ("florist"). */
  word: string;
  /** Concept ids it stands for. */
  ids: string[];
}

export interface KindGuess {
  /** The need word of the question ("medicine"). */
  need: string;
  /** The vocabulary word it was read as ("pharmacy"). */
  as: string;
  ids: string[];
  similarity: number;
}

export interface KindVocabulary {
  words: Map<string, string[]>;
}

/**
 * Builds the vocabulary from concept forms: single words only (a phrase's mean vector drifts to its most
 * frequent word) that the vector table knows.
 */
export function buildKindVocabulary(concepts: ReadonlyArray<{ id: string; forms: readonly string[] }>, vectors: WordVectors = wordVectors()): KindVocabulary {
  const words = new Map<string, string[]>();
  for (const { id, forms } of concepts) {
    for (const form of forms) {
      const w = form.toLowerCase().trim();
      if (!/^[a-z]{3,}$/.test(w) || NOT_NEEDS.has(w) || !vectors.has(w)) continue;
      const ids = words.get(w) ?? [];
      if (!ids.includes(id)) ids.push(id);
      words.set(w, ids);
    }
  }
  return { words };
}

/** Whether a word of a question may be a need (not a function word, not a spatial or request word). */
export function isNeedCandidate(word: string, vectors: WordVectors = wordVectors()): boolean {
  if (!/^[a-z]{3,}$/.test(word) || NOT_NEEDS.has(word)) return false;
  const rank = vectors.rank(word);
  return rank !== undefined && rank >= COMMON_RANK;
}

/**
 * The best reading of the need words as a kind-of-place word, if one reaches the threshold. Each need word
 * is compared with every vocabulary word; the single best pair wins (ties: the earlier need word).
 */
export function guessKind(
  needs: readonly string[],
  vocabulary: KindVocabulary,
  threshold = KIND_SIMILARITY_THRESHOLD,
  vectors: WordVectors = wordVectors(),
): KindGuess | undefined {
  let best: KindGuess | undefined;
  for (const need of needs) {
    if (!isNeedCandidate(need, vectors)) continue;
    const v = vectors.vector(need);
    if (!v) continue;
    const [top] = vectors.nearest(v, 1, vocabulary.words.keys());
    if (top && top.score >= threshold && (!best || top.score > best.similarity)) {
      best = { need, as: top.word, ids: vocabulary.words.get(top.word)!, similarity: top.score };
    }
  }
  return best;
}
