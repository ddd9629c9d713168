import { describe, expect, it } from 'vitest';
import { buildKindVocabulary, guessKind, isNeedCandidate, KIND_SIMILARITY_THRESHOLD } from '../../../src/lexicon/kind-vectors.ts';
import { planOffline } from '../../../src/planning/offline-planner.ts';

const viaVectors = (notes: string[]) => notes.some((n) => n.includes('(word vectors'));

describe('word-vector fallback for need words no lexicon lists', () => {
  const vocabulary = buildKindVocabulary([
    { id: 'florist', forms: ['florist', 'flowers', 'flower shop'] },
    { id: 'car_repair', forms: ['garage', 'mechanic'] },
  ]);

  it('keeps single known words as the vocabulary, not phrases', () => {
    expect([...vocabulary.words.keys()].sort()).toEqual(['florist', 'flowers', 'garage', 'mechanic']);
  });

  it('reads a need word as the nearest vocabulary word above the threshold, and nothing below it', () => {
    const guess = guessKind(['roses'], vocabulary)!;
    expect(guess).toMatchObject({ need: 'roses', ids: ['florist'] });
    expect(guess.similarity).toBeGreaterThanOrEqual(KIND_SIMILARITY_THRESHOLD);
    // The same word under a stricter threshold, and a word close to nothing listed.
    expect(guessKind(['roses'], vocabulary, 0.99)).toBeUndefined();
    expect(guessKind(['philosophy'], vocabulary)).toBeUndefined();
  });

  it('ignores function words, request words and spatial words', () => {
    for (const w of ['where', 'some', 'walk', 'minutes', 'near', 'tonight']) expect(isNeedCandidate(w)).toBe(false);
    expect(isNeedCandidate('roses')).toBe(true);
  });

  it('fills the target of a question whose need no lexicon lists, and says so in the plan', () => {
    const p = planOffline('somewhere I can buy roses near Lincoln Center');
    expect(p.targets.tags).toContainEqual(['shop', ['florist']]);
    expect(viaVectors(p.notes)).toBe(true);
  });

  it('reads a Chinese need through its dictionary gloss', () => {
    const p = planOffline('林肯中心附近哪里能买到水果');
    expect(p.targets.tags).toContainEqual(['shop', ['greengrocer']]);
  });

  it('assumes no kind of place below the threshold', () => {
    const p = planOffline('somewhere to ponder life near Lincoln Center');
    expect(p.targets.tags).toEqual([]);
    expect(viaVectors(p.notes)).toBe(false);
  });

  it('does not correct a real word as a typo of a kind of place', () => {
    const p = planOffline('I need lozenges near Lincoln Center');
    expect(p.notes.some((n) => n.includes('(spelling)'))).toBe(false);
  });
});
