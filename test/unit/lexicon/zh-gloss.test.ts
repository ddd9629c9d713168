import { planOffline } from '../../../src/planning/offline-planner.ts';
import { describe, expect, it } from 'vitest';
import { cleanSenses, dictionarySenses, editDistance, englishSkeleton, glossChinese, glossTableFromEntries, isDictionaryVerb, maximumMatch, parseGlossTable, pinyinSkeleton, pinyinSkeletons, soundsLike, toSimplified } from '../../../src/lexicon/zh-gloss.ts';

/** A tiny dictionary from entries in CC-CEDICT's shape: [traditional, simplified, pinyin, english]. */
const tinyDictionary = (entries: ReadonlyArray<readonly unknown[]>) => parseGlossTable(glossTableFromEntries(entries));

const glossary = parseGlossTable(
  glossTableFromEntries([
    ['港口', '港口', 'gang3 kou3', ['port', 'harbor']],
    ['劇院', '剧院', 'ju4 yuan4', 'theater'],
    ['大道', '大道', 'da4 dao4', ['main street', 'avenue']],
    ['華盛頓', '华盛顿', 'Hua2 sheng4 dun4', 'Washington (name)'],
    ['見', '见', 'jian4', 'see 看見|看见[kan4 jian4]'],
    ['公園', '公园', 'gong1 yuan2', 'park (for public recreation)'],
  ]),
);

describe('CC-CEDICT glossing', () => {
  it('cleans senses: qualifiers, cross-references, split alternatives', () => {
    expect(cleanSenses(['Washington (name)'])).toEqual(['Washington']);
    expect(cleanSenses(['see 看見|看见[kan4 jian4]', 'public square; plaza'])).toEqual(['public square', 'plaza']);
    expect(cleanSenses(['to walk'])).toEqual(['walk']);
  });

  it('keeps up to eight senses for readers that choose by context, gives a segment four, and marks verbs', () => {
    const dictionary = tinyDictionary([
      ['擺', '摆', 'bai3', ['to arrange', 'to exhibit', 'to move to and fro', 'pendulum', 'to put', 'to place']],
      ['尺', '尺', 'chi3', ['a Chinese foot', 'ruler', 'tape-measure']],
    ]);
    expect(dictionarySenses('摆', dictionary)).toEqual(['arrange', 'exhibit', 'move to and fro', 'pendulum', 'put', 'place']);
    expect(glossChinese('摆', dictionary)[0]!.senses).toHaveLength(4);
    // The first sense of the entry reads "to …": a verb; a noun's entry does not.
    expect(isDictionaryVerb('摆', dictionary)).toBe(true);
    expect(isDictionaryVerb('尺', dictionary)).toBe(false);
  });

  it('segments both ways when asked and keeps the reading with fewer words, then fewer single characters', () => {
    const dictionary = tinyDictionary([
      ['研究生', '研究生', 'yan2 jiu1 sheng1', 'graduate student'],
      ['研究', '研究', 'yan2 jiu1', 'research'],
      ['生命', '生命', 'sheng1 ming4', 'life'],
      ['命', '命', 'ming4', 'fate'],
      ['起源', '起源', 'qi3 yuan2', 'origin'],
    ]);
    // Forward longest match takes 研究生 ("graduate student") and strands 命.
    expect(maximumMatch('研究生命起源', dictionary)).toEqual(['研究生', '命', '起源']);
    expect(maximumMatch('研究生命起源', dictionary, true)).toEqual(['研究', '生命', '起源']);
    const both = glossChinese('研究生命起源', dictionary, { bidirectional: true });
    expect(both.map((s) => [s.text, s.senses[0]])).toEqual([
      ['研究', 'research'],
      ['生命', 'life'],
      ['起源', 'origin'],
    ]);
    // Place phrases keep forward matching unless asked.
    expect(glossChinese('研究生命起源', dictionary).map((s) => s.text)).toEqual(['研究生', '命', '起源']);
  });


  it('on a tie, leaves a particle standing alone rather than inside a word', () => {
    const dictionary = tinyDictionary([
      ['地面', '地面', 'di4 mian4', 'ground'],
      ['面的', '面的', 'mian4 di1', 'minivan taxi'],
      ['溫度', '温度', 'wen1 du4', 'temperature'],
    ]);
    // Both readings have three words and one single character; only one of them strands a particle.
    expect(maximumMatch('地面的温度', dictionary)).toEqual(['地面', '的', '温度']);
    expect(maximumMatch('地面的温度', dictionary, true)).toEqual(['地', '面的', '温度']);
    expect(glossChinese('地面的温度', dictionary, { bidirectional: true }).map((s) => s.text)).toEqual(['地面', '的', '温度']);
  });
  it('segments by longest dictionary match and glosses each word', () => {
    const segs = glossChinese('华盛顿剧院', glossary);
    expect(segs.map((s) => s.text)).toEqual(['华盛顿', '剧院']);
    expect(segs[0]!.senses).toEqual(['Washington']);
    expect(segs[0]!.name).toBe(true);
    expect(segs[1]!.senses).toEqual(['theater']);
  });

  it('reads Chinese ordinals and numbered streets as English street names write them', () => {
    expect(glossChinese('第三大道', glossary).map((s) => s.senses[0])).toEqual(['3rd', 'main street']);
    expect(glossChinese('第二十一大道', glossary)[0]!.senses).toEqual(['21st']);
    expect(glossChinese('西23街', glossary).some((s) => s.senses.includes('23rd'))).toBe(true);
  });

  it('reads a bare Chinese numeral before the street word as an ordinal, but not one inside a word', () => {
    expect(glossChinese('八大道', glossary).map((s) => s.senses[0])).toEqual(['8th', 'main street']);
    expect(glossChinese('十一大道', glossary)[0]!.senses).toEqual(['11th']);
    expect(glossChinese('统一大道', glossary)[0]!.senses).not.toContain('1st');
  });

  it('keeps pinyin of words the dictionary lacks, for matching by sound', () => {
    const segs = glossChinese('奥尔巴尼公园', glossary);
    expect(segs.at(-1)!.senses).toEqual(['park']);
    expect(segs.slice(0, -1).flatMap((s) => s.syllables)).toEqual(['ao', 'er', 'ba', 'ni']);
  });
});

describe('matching a transliteration by sound', () => {
  it('builds comparable consonant skeletons', () => {
    expect(pinyinSkeleton(['ao', 'er', 'ba', 'ni'])).toBe('LPN');
    expect(englishSkeleton('albany')).toBe('LPN');
    expect(englishSkeleton('phoenix')).toBe('FNKS');
  });

  it('accepts a transliteration and rejects an unrelated word', () => {
    expect(soundsLike(['hua', 'sheng', 'dun'], 'washington')).toBe(true);
    expect(soundsLike(['ao', 'er', 'ba', 'ni'], 'albany')).toBe(true);
    expect(soundsLike(['ao', 'er', 'ba', 'ni'], 'brooklyn')).toBe(false);
  });

  it('computes bounded edit distances', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('LKSNTN', 'LKSNKTN', 1)).toBe(1);
    expect(editDistance('abcdef', 'uvwxyz', 1)).toBe(2);
  });
});

describe('more readings of a Chinese name', () => {
  it('reads a long dictionary word also as its parts', () => {
    const g = parseGlossTable(
      glossTableFromEntries([
        ['早晨郵報', '早晨邮报', 'Zao3 chen2 You2 bao4', 'Morning Post (newspaper name)'],
        ['早晨', '早晨', 'zao3 chen2', 'morning'],
        ['郵報', '邮报', 'you2 bao4', 'post'],
      ]),
    );
    expect(glossChinese('早晨邮报', g)[0]!.senses).toEqual(['Morning Post', 'morning post']);
  });
  it('gives j/q/x syllables a k reading too', () => {
    expect(pinyinSkeletons(['ji', 'pu', 'si'])).toEqual(['SPS', 'KPS']);
    expect(pinyinSkeletons(['bu', 'lai'])).toEqual(['PL']);
  });
});

describe('traditional characters', () => {
  it('are written as simplified ones, one for one', () => {
    const g = parseGlossTable(glossTableFromEntries([['書店', '书店', 'shu1 dian4', 'bookstore'], ['書', '书', 'shu1', 'book'], ['館', '馆', 'guan3', 'building']]));
    expect(toSimplified('圖書館旁的書店', g)).toBe('圖书馆旁的书店');
  });
  it('are read by the planner as simplified', () => {
    expect(planOffline('林肯中心附近的書店').targets.concepts).toEqual(['books']);
  });
});
