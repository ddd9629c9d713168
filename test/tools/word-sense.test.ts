import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meaningSimilarity, textSimilarity } from '../../src/memory/priors.ts';
import { inSetting, parseToolRequest, settingOnlyTerms } from '../../src/tools/request/index.ts';
import { normalizeForMatch } from '../../src/tools/knowledge/index.ts';
import { WORD_SENSE, conceptCloseness, conceptsOfWords, informationOf } from '../../src/tools/word-sense.ts';

describe('words no lexicon lists, read by word vectors', () => {
  // The readings are off in tool search by default (see WORD_SENSE): switched on here to test them.
  beforeAll(() => {
    WORD_SENSE.concepts = true;
  });
  afterAll(() => {
    WORD_SENSE.concepts = false;
  });

  it('reads an unknown word as the concept it is close to, and a vague or partly listed word as none', () => {
    // Melting is read as the ice it melts: snow or glaciers, both measured by snow indices.
    const melting = conceptsOfWords(['melting']).map((c) => c.id);
    expect(melting).toHaveLength(1);
    expect(['snow', 'glacier']).toContain(melting[0]);
    // "field" is part of a listed form ("per field"): not unknown, so not read by its vector.
    expect(conceptCloseness('field').size).toBe(0);
    // Frequent, vague words carry little information and read as nothing.
    expect(informationOf('show')).toBeLessThan(0.5);
    expect(conceptsOfWords(['nice'])).toEqual([]);
  });

  it('weights an inferred concept below a listed form and names the word it came from', () => {
    const parsed = parseToolRequest('the icefield above the village is melting');
    const hit = parsed.concepts.find((c) => c.id === 'snow' || c.id === 'glacier');
    expect(hit?.form).toBe('melting');
    expect(hit!.weight).toBeLessThan(1);
    expect(parsed.taskTypes[0]?.id).toBe('snow_index');
  });

  it('keeps words of a place phrase as setting, not task', () => {
    const text = normalizeForMatch('is the water murky in our orchard pond');
    expect(inSetting(text, text.indexOf('orchard'))).toBe(true);
    expect(inSetting(text, text.indexOf('murky'))).toBe(false);
    const parsed = parseToolRequest('show the snow in the melting season of our valley');
    expect(parsed.concepts.some((c) => c.form === 'valley')).toBe(false);
  });

  it('lists the words a text uses only in phrases of place', () => {
    const stems = settingOnlyTerms('Map the turbidity of the pond next to the barn, and of the pond in the orchard');
    expect([...stems].sort()).toEqual(['barn', 'orchard']);
    // "over" and "through" open places too: the heather is measured, the moor and the gorge are where.
    const place = settingOnlyTerms('heather dieback over the moor, and through the gorge');
    expect(place).toContain('moor');
    expect(place).toContain('gorg');
    expect(place).not.toContain('heather');
    // 在果园里 is a place; 果园 said again outside it is not only one.
    expect([...settingOnlyTerms('在果园里的池塘，水是不是变浑了')]).toEqual(['果园']);
    expect(settingOnlyTerms('在果园里的池塘旁边还有一片果园').size).toBe(0);
    expect([...settingOnlyTerms('沿着河堤的树长得怎么样')]).toEqual(['河堤']);
  });

  it('reads a word glossed by a closed English compound as a kind of its last word, and only a real compound', () => {
    const ids = (query: string) => parseToolRequest(query).concepts.map((c) => c.id);
    // 表土 "topsoil", 战舰 "battleship; warship": kinds of soil and of ship.
    expect(ids('表土流失有多严重')).toContain('soil');
    expect(ids('港口里停着几艘战舰')).toContain('ship');
    // 友谊 "companionship; fellowship; friendship" and 回应 "respond" only end like "ship" and "pond".
    expect(ids('两国的友谊')).not.toContain('ship');
    expect(ids('请尽快回应')).not.toContain('water_body');
  });

  it('reads a Chinese word by its first dictionary senses only', () => {
    // 平均 is also "in equal proportions": a rare sense, whose "equal" is close to the minimum and maximum.
    expect(parseToolRequest('把逐日的数据按周求平均').concepts.map((c) => c.id)).not.toContain('minimum');
  });

  it('glosses Chinese words the graph does not list (CC-CEDICT) and reads them as concepts', () => {
    const parsed = parseToolRequest('湖面上是不是有很多漂浮的藻类');
    expect(parsed.concepts.map((c) => c.id)).toContain('algal_bloom');
    expect(parsed.expansions.some((e) => /alga/.test(e))).toBe(true);
  });

  it('matches two requests for the same need in other words by meaning, above an unrelated one', () => {
    const a = 'the lowlands went under water after the storm';
    const b = 'inundated plains after heavy downpours';
    expect(textSimilarity(a, b)).toBe(0);
    expect(meaningSimilarity(a, b)).toBeGreaterThan(0.2);
    expect(meaningSimilarity(a, b)).toBeGreaterThan(meaningSimilarity(a, 'tally the planes standing on the apron'));
  });
});
