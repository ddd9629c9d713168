import { describe, expect, it } from 'vitest';
import { propertiesOf } from '../../../src/lexicon/wordnet.ts';

describe('WordNet: the property a describing word is a value of', () => {
  it('reads head adjectives, their satellites and inflected forms', () => {
    for (const word of ['dry', 'moist', 'parched', 'soggy', 'drier', 'drying']) expect(propertiesOf(word)).toContain('wetness');
    for (const word of ['hot', 'warmest', 'chilly']) expect(propertiesOf(word)).toContain('temperature');
    expect(propertiesOf('green')).toContain('hue');
  });

  it('gives nothing for words that are no adjective of a property', () => {
    for (const word of ['the', 'image', 'running', 'xyzzy']) expect(propertiesOf(word)).toEqual([]);
  });
});
