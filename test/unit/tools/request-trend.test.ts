import { describe, expect, it } from 'vitest';
import { parseTemporal, parseToolRequest } from '../../../src/tools/request/index.ts';

describe('request channel: a span of many years', () => {
  it('reads spans written as durations as a series of acquisitions', () => {
    for (const text of [
      'over the past 15 years',
      'during the last three decades',
      'for eight growing seasons',
      'the previous decade',
      'year after year along the coast',
      'a 12-year record',
      '近十五年来',
      '过去三十年',
      '多年来',
      '逐年',
      'ever since the late 1990s',
      'since 2008',
      '2012年以来',
    ]) {
      expect(parseTemporal(`snow cover ${text}`, [])?.shape, text).toBe('series');
    }
  });

  it('leaves single dates and plain words of time alone', () => {
    expect(parseTemporal('the scene of 2017', [])?.shape).toBe('single');
    expect(parseTemporal('a mosaic of the 2017 scenes, as fast as since the last run', [])?.shape).toBe('single');
    expect(parseTemporal('a yearly report', [])).toBeUndefined();
    expect(parseTemporal('we want the best scene', [])).toBeUndefined();
  });
});

describe('request channel: a direction of change across years is a trend', () => {
  it('reads "is X rising or falling over N years" as a trend of X', () => {
    for (const query of ['Has the surface temperature of the city been rising over the past ten years?', 'Are the glaciers shrinking in the last two decades?', '过去十年这片湿地是在改善还是退化', 'Have the salt marshes been shrinking since 2005?', '2010年以来河边的芦苇是变多了还是变少了']) {
      const p = parseToolRequest(query);
      expect(p.concepts.map((c) => c.id), query).toContain('time_series_trend');
      expect(p.taskTypes[0]?.id, query).toBe('time_series_analysis');
      expect(p.temporal?.shape, query).toBe('series');
    }
  });

  it('needs both the change and the span of years', () => {
    // A change between two dates is not a trend; a span without a change is not either.
    expect(parseToolRequest('Has the lake shrunk between 2015 and 2016 images?').concepts.map((c) => c.id)).not.toContain('time_series_trend');
    expect(parseToolRequest('Map the snow cover for each of the past ten winters').concepts.map((c) => c.id)).not.toContain('time_series_trend');
    expect(parseToolRequest('Is the harbour getting busier this week?').concepts.map((c) => c.id)).not.toContain('time_series_trend');
  });
});
