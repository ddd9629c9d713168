import { describe, expect, it } from 'vitest';
import { findEnDistances, findZhDistances, foldAligned, normalizeQuestion, parseEnNumber, parseZhNumber, MAX_QUESTION_CHARS } from '../../../src/planning/text.ts';
import { findCoordinates } from '../../../src/planning/references.ts';

describe('numbers', () => {
  it.each<[string, number]>([
    ['two', 2], ['twenty-five', 25], ['two hundred fifty', 250], ['a couple', 2], ['half a', 0.5], ['1,500', 1500], ['1,5', 1.5], ['1.5', 1.5], ['one and a half', 1.5],
  ])('en %s', (s, n) => expect(parseEnNumber(s)).toBe(n));

  it.each<[string, number]>([
    ['800', 800], ['八百', 800], ['一千二百', 1200], ['一点五', 1.5], ['两', 2], ['十五', 15], ['二十', 20], ['半', 0.5], ['一万', 10000],
  ])('zh %s', (s, n) => expect(parseZhNumber(s)).toBe(n));
});

describe('distance expressions', () => {
  const en = (s: string) => findEnDistances(foldAligned(s)).map((d) => Math.round(d.valueM));
  it('reads metric, imperial, walking time and blocks', () => {
    expect(en('within 200 m of X')).toEqual([200]);
    expect(en('within 1km of X')).toEqual([1000]);
    expect(en('a 5-minute walk from X')).toEqual([400]);
    expect(en("ten minutes' walk from X")).toEqual([800]);
    expect(en('10 minutes by bike from X')).toEqual([2500]);
    expect(en('3 blocks from X')).toEqual([240]);
    expect(en('half a mile from X')).toEqual([805]);
    expect(en('500 feet from X')).toEqual([152]);
  });

  it('ignores durations that are not distances, and words that only look like units', () => {
    expect(en('I am hungry, back in a minute')).toEqual([]);
    expect(en('I am near the park')).toEqual([]);
  });

  it('marks lower bounds', () => {
    expect(findEnDistances(foldAligned('more than 2 km from X'))[0]?.lowerBound).toBe(true);
  });

  it('reads Chinese distances', () => {
    const zh = (s: string) => findZhDistances(s).map((d) => Math.round(d.valueM));
    expect(zh('800米以内')).toEqual([800]);
    expect(zh('1公里')).toEqual([1000]);
    expect(zh('步行5分钟')).toEqual([400]);
    expect(zh('五分钟步行')).toEqual([400]);
    expect(zh('3个街区')).toEqual([240]);
    expect(zh('一点五千米')).toEqual([1500]);
  });
});

describe('text normalisation', () => {
  it('keeps offsets when folding case and accents', () => {
    const s = 'Cafés near Ÿork – Ünter den Linden';
    const f = foldAligned(s);
    expect(f.length).toBe(s.length);
    expect(f).toContain('cafes');
  });

  it('bounds the question length and removes control characters', () => {
    const { text, truncated } = normalizeQuestion(`${'a'.repeat(5000)}\u0000`);
    expect(text.length).toBe(MAX_QUESTION_CHARS);
    expect(truncated).toBe(true);
    expect(normalizeQuestion('a\u0000b\tc').text).toBe('a b c');
    expect(normalizeQuestion(undefined).text).toBe('');
  });

  it('reads coordinates as lat, lon unless hemispheres say otherwise', () => {
    expect(findCoordinates('near 40.75, -73.98')[0]?.point).toEqual({ lon: -73.98, lat: 40.75 });
    expect(findCoordinates('at 73.98W 40.75N')[0]?.point).toEqual({ lon: -73.98, lat: 40.75 });
    expect(findCoordinates('at -122.41, 37.77')[0]?.point).toEqual({ lon: -122.41, lat: 37.77 });
    expect(findCoordinates('3, 4 cafés')).toEqual([]);
    expect(findCoordinates('95.5, 200.1')).toEqual([]);
  });
});
