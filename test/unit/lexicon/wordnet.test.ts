import { describe, expect, it } from 'vitest';
import { stem } from '../../../src/embedding/text.ts';
import { idiomWords, measuresOf, propertiesOf } from '../../../src/lexicon/wordnet.ts';

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

describe('WordNet: the measure a degree of a quality asks for', () => {
  it('derives the noun of the quality, then the more general nouns above it', () => {
    expect(measuresOf('steep').derived).toContain('steepness');
    expect(measuresOf('steep').general).toContain('slope');
    expect(measuresOf('steepest').general).toContain('slope');
    expect(measuresOf('turbid').derived).toContain('turbidity');
    expect(measuresOf('greener').derived).toContain('greenness');
    // A satellite takes the nouns of its head adjective: parched is a kind of dry.
    expect(measuresOf('parched').derived).toContain('dryness');
  });

  it('lists the more specific measures below the derived noun', () => {
    // cloudy -> cloudiness, whose kinds include turbidity; a word with no kinds below gives none.
    expect(measuresOf('cloudy').specific).toContain('turbidity');
    expect(measuresOf('cloudier').specific).toContain('turbidity');
    expect(measuresOf('steep').specific).not.toContain('turbidity');
  });

  it('gives nothing for words that are no adjective', () => {
    for (const word of ['the', 'river', 'xyzzy']) expect(measuresOf(word)).toEqual({ derived: [], general: [], specific: [] });
  });
});

describe('idiomatic verbs of several words', () => {
  it('finds the words of a verb whose sense is not its head verb, and leaves verbs that keep their head alone', () => {
    expect([...idiomWords('the orchard is running short of water')].sort()).toEqual(['run', 'short']);
    expect([...idiomWords('I can barely make out the field edges')]).toContain(stem('make'));
    expect([...idiomWords('sum up the rainfall per season')]).toEqual([]);
    expect([...idiomWords('fill in the gaps with the next scene')]).toEqual([]);
  });
});
