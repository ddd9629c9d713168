import { describe, expect, it } from 'vitest';
import { glossChinese, glossTableFromEntries, parseGlossTable } from '../../../src/lexicon/zh-gloss.ts';
import { buildNameIndex, glossCandidates, startsAlike } from '../../../src/spatial/gloss-match.ts';

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

describe('names the dictionary reads word by word', () => {
  // Each character of 克里夫兰 has a meaning of its own; 夫 is outside the transliteration table.
  const words = parseGlossTable(
    glossTableFromEntries([
      ['克', '克', 'ke4', 'gram'],
      ['裡', '里', 'li3', 'inside'],
      ['夫', '夫', 'fu1', 'husband'],
      ['蘭', '兰', 'lan2', 'orchid'],
      ['公園', '公园', 'gong1 yuan2', 'park'],
      ['自由', '自由', 'zi4 you2', ['freedom', 'free']],
      ['廣場', '广场', 'guang3 chang3', ['public square', 'plaza']],
      ['惠', '惠', 'hui4', 'kind'],
      ['特', '特', 'te4', 'special'],
      ['尼', '尼', 'ni2', 'nun'],
    ]),
  );
  const names = buildNameIndex(['Cleveland Park', 'Clever Park Deli', 'Liberty Square', 'Square Deal Market', 'Free Park', 'Tina Park', 'Whitney Park']);
  const read = (zh: string) => glossCandidates(zh, names, 5, glossChinese(zh, words));

  it('reads a run of single characters, most of them transliteration characters, as one name by sound', () => {
    expect(read('克里夫兰公园')[0]?.name).toBe('Cleveland Park');
  });

  it('reads a name word close in meaning to a sense (GloVe vectors) when no name reads literally', () => {
    expect(read('自由广场')[0]).toMatchObject({ name: 'Liberty Square', reading: '自由=liberty, 广场=square' });
  });

  it('does not read a syllable that opens on a glide as a word that opens on a consonant', () => {
    expect(startsAlike('hui', 'tina')).toBe(false);
    expect(startsAlike('hui', 'whitney')).toBe(true);
    expect(startsAlike('yue', 'john')).toBe(true);
    expect(read('惠特尼公园').map((c) => c.name)).not.toContain('Tina Park');
  });
});

