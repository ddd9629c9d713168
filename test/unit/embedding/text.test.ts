import { describe, expect, it } from 'vitest';
import { compileConcepts } from '../../../src/embedding/concept-matcher.ts';
import { analyse, normaliseText, stem } from '../../../src/embedding/text.ts';

/** Stems of the content words, per clause. */
function stems(text: string): string[][] {
  return analyse(text)
    .clauses.map((clause) => clause.filter((t) => !t.stop).map((t) => t.stem))
    .filter((clause) => clause.length > 0);
}

describe('normaliseText', () => {
  it('removes Latin accents, folds full-width forms and spells out &', () => {
    expect(normaliseText('Café Crème & Co')).toBe('cafe creme  and  co');
    expect(normaliseText('ＮＤＶＩ')).toBe('ndvi');
    expect(normaliseText('Straße')).toBe('strasse');
  });

  it('drops apostrophes inside words', () => {
    expect(normaliseText("McDonald's")).toBe('mcdonalds');
  });

  it('keeps kana voicing and Hangul syllables intact', () => {
    expect(normaliseText('ガソリンスタンド')).toBe('ガソリンスタンド');
    expect(normaliseText('카페')).toBe('카페');
  });
});

describe('stem', () => {
  it.each([
    ['shops', 'shop'],
    ['pharmacies', 'pharmaci'],
    ['pharmacy', 'pharmaci'],
    ['images', 'imag'],
    ['image', 'imag'],
    ['churches', 'church'],
    ['buses', 'bus'],
    ['glasses', 'glass'],
    ['analysis', 'analysis'],
    ['shopping', 'shop'],
    ['dining', 'din'],
    ['detected', 'detect'],
    ['detection', 'detect'],
    ['calibration', 'calibr'],
    ['calibrated', 'calibr'],
    ['segmentation', 'segment'],
    ['theatre', 'theater'],
    ['colours', 'color'],
  ])('%s -> %s', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });

  it('leaves words that only look inflected alone', () => {
    for (const word of ['thing', 'speed', 'need', 'station', 'bus', 'gas', 'parking', 'b04', '36th']) {
      expect(stem(word)).toBe(word);
    }
  });

  it('gives a base form and its inflections one stem', () => {
    expect(new Set(['change', 'changes', 'changed', 'changing'].map(stem)).size).toBe(1);
    expect(new Set(['locate', 'located', 'location', 'locations'].map(stem)).size).toBe(1);
  });
});

describe('analyse', () => {
  it('drops stop words and splits clauses at punctuation', () => {
    expect(stems('Keens Steakhouse, a steak house on the corner')).toEqual([
      ['keen', 'steakhous'],
      ['steak', 'hous', 'corner'],
    ]);
  });

  it('separates Chinese runs from English words and removes Chinese filler', () => {
    const result = analyse('我想找一家附近的咖啡店 计算NDVI');
    expect(result.unspaced).toEqual(['找', '咖啡店', '计算']);
    expect(stems('计算NDVI')).toEqual([['ndvi']]);
  });

  it('does not break a clause at the full stop of an abbreviation', () => {
    expect(stems("St. Patrick's Cathedral")).toEqual([['st', 'patrick', 'cathedral']]);
  });

  it('flags stop words instead of removing them, so that concept forms can contain them', () => {
    const flags = analyse('place to park').clauses.flat().map((t) => `${t.surface}${t.stop ? '(stop)' : ''}`);
    expect(flags).toEqual(['place(stop)', 'to(stop)', 'park']);
  });

  it('marks words joined by a hyphen', () => {
    const flags = (text: string) => analyse(text).clauses.flat().map((t) => `${t.surface}${t.hyphenated ? '*' : ''}`);
    expect(flags('free wi-fi')).toEqual(['free', 'wi', 'fi*']);
    expect(flags('Mo - Fr')).toEqual(['mo', 'fr']);
  });

  it('keeps stop words when a text has nothing else', () => {
    expect(stems('where is it')).toEqual([['wher', 'is', 'it']]);
  });
});

describe('concept matching', () => {
  const matcher = compileConcepts([
    { id: 'cafe', en: ['cafe', 'coffee shop'], zh: ['咖啡店', '咖啡'] },
    { id: 'shop', en: ['shop', 'store'], zh: ['店'] },
    { id: 'pub', en: ['bar', 'pub'], zh: [] },
    { id: 'bar', en: ['bar', 'cocktail bar'], zh: [] },
  ]);
  const ids = (text: string) => matcher.match(analyse(text)).ids;

  it('prefers the longest form where forms overlap', () => {
    expect(ids('a coffee shop')).toEqual(['cafe']);
    expect(ids('a coffee shop and a shoe shop')).toEqual(['cafe', 'shop']);
    expect(ids('咖啡店')).toEqual(['cafe']);
    expect(ids('咖啡和面包店')).toEqual(['cafe', 'shop']);
  });

  it('matches inflected forms and accents', () => {
    expect(ids('Coffee Shops')).toEqual(['cafe']);
    expect(ids('Café Central')).toEqual(['cafe']);
  });

  it('matches whole words only', () => {
    expect(ids('barbecue')).toEqual([]);
    expect(ids('shopping')).toEqual(['shop']); // shopping stems to shop
  });

  it('fires every concept of an ambiguous form, and the longer form alone where it applies', () => {
    expect(ids('bar').sort()).toEqual(['bar', 'pub']);
    expect(ids('cocktail bar')).toEqual(['bar']);
  });

  it('requires the stop words a form contains, so that it does not shrink to one generic word', () => {
    const parking = compileConcepts([
      { id: 'parking', en: ['parking', 'place to park'], zh: [] },
      { id: 'park', en: ['park'], zh: [] },
    ]);
    expect(parking.match(analyse('a place to park the car')).ids).toEqual(['parking']);
    expect(parking.match(analyse('Bryant Park')).ids).toEqual(['park']);
  });

  it('does not match across punctuation', () => {
    expect(ids('coffee, shop')).toEqual(['shop']);
  });

  it('reports the words inside a multi-word match', () => {
    const result = matcher.match(analyse('coffee shop near a shop'));
    expect([...result.phraseTokens].map((t) => t.surface)).toEqual(['coffee', 'shop']);
  });
});
