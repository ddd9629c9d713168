import { describe, expect, it } from 'vitest';
import { expandStreetName, normalizeName, numericOrdinals, ordinalOf } from '../../../src/spatial/names.ts';

describe('ordinals and abbreviations, one normalisation for question and gazetteer', () => {
  it('writes ordinals with digits', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 112].map(ordinalOf)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '112th']);
    expect(numericOrdinals('third avenue and forty fourth street')).toBe('3rd avenue and 44th street');
  });
  it.each([
    ['Third Ave', '3rd Avenue'],
    ['3rd Avenue', '3rd Avenue'],
    ['E 44th St', 'East 44th Street'],
    ['East Forty-Fourth Street', 'East 44th Street'],
    ['W 31 St', 'West 31st Street'],
    ['Lenox Ave.', 'Lenox Avenue'],
  ])('expands the street %s', (a, b) => {
    expect(expandStreetName(a)).toBe(b);
    expect(normalizeName(a)).toBe(normalizeName(b));
  });
  it('tells Saint from Street and expands building words', () => {
    expect(normalizeName("St. Bart's Church")).toBe('saint barts church');
    expect(normalizeName('Sutton Pl')).toBe('sutton place');
    expect(normalizeName('Hearst Bldg')).toBe(normalizeName('The Hearst Building'));
    expect(normalizeName('Tompkins Sq')).toBe('tompkins square');
  });
});

describe('shortened names, word by word', () => {
  it('accepts words cut short, not different words', async () => {
    const { isWordPrefix } = await import('../../../src/spatial/gazetteer-match.ts');
    expect(isWordPrefix('lex avenue', 'lexington avenue')).toBe(true);
    expect(isWordPrefix('wash square park', 'washington square park')).toBe(true);
    expect(isWordPrefix('lex', 'lexington avenue')).toBe(false);
    expect(isWordPrefix('l avenue', 'lexington avenue')).toBe(false);
    expect(isWordPrefix('lexington avenue', 'lexington avenue')).toBe(false);
  });
});
