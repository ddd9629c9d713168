import { describe, expect, it } from 'vitest';
import { glossChinese, glossTableFromEntries, parseGlossTable } from '../../../src/lexicon/zh-gloss.ts';
import { buildNameIndex, glossCandidates } from '../../../src/spatial/gloss-match.ts';

const glossary = parseGlossTable(
  glossTableFromEntries([
    ['港口', '港口', 'gang3 kou3', ['port', 'harbor']],
    ['劇院', '剧院', 'ju4 yuan4', 'theater'],
    ['大道', '大道', 'da4 dao4', ['main street', 'avenue']],
    ['公園', '公園', 'gong1 yuan2', 'park'],
    ['公园', '公园', 'gong1 yuan2', 'park (for public recreation)'],
    ['燈塔', '灯塔', 'deng1 ta3', 'lighthouse'],
  ]),
);
const index = buildNameIndex([
  'Albany Park', 'Albany Park Deli', 'Harbor Lighthouse', 'Lighthouse Tavern', '3rd Avenue', 'East 3rd Street', 'Brooklyn Bridge Park', 'Albatross Theater',
]);
const best = (zh: string) => glossCandidates(zh, index, 5, glossChinese(zh, glossary))[0]?.name;

describe('Chinese reference -> English gazetteer name', () => {
  it('matches by the senses of the words', () => {
    expect(best('港口灯塔')).toBe('Harbor Lighthouse');
  });
  it('matches a transliterated name by sound, with its kind word by sense', () => {
    expect(best('奥尔巴尼公园')).toBe('Albany Park');
  });
  it('matches an ordinal street', () => {
    expect(best('第三大道')).toBe('3rd Avenue');
  });
  it('offers nothing when no name reads as the phrase', () => {
    expect(glossCandidates('灯塔公园', index, 5, glossChinese('灯塔公园', glossary)).filter((c) => c.score >= 0.9)).toEqual([]);
  });
});
