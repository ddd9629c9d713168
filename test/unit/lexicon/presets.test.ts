import { describe, expect, it } from 'vitest';
import { buildPresetVocabulary, primaryTag, presetVocabulary } from '../../../src/lexicon/presets.ts';
import { planOffline } from '../../../src/planning/offline-planner.ts';

describe('preset vocabulary (iD tagging schema)', () => {
  const presets = {
    'amenity/bicycle_repair_station': { tags: { amenity: 'bicycle_repair_station' }, geometry: ['point'] },
    'shop/bicycle': { tags: { shop: 'bicycle' }, geometry: ['point', 'area'] },
    'shop/hardware': { tags: { shop: 'hardware' }, geometry: ['point', 'area'] },
    'shop/doityourself': { tags: { shop: 'doityourself' }, geometry: ['point', 'area'] },
    'shop/trade': { tags: { shop: 'trade' }, geometry: ['point', 'area'] },
    'highway/crossing': { tags: { highway: 'crossing' }, geometry: ['vertex'] },
    'shop/hidden': { tags: { shop: 'hidden' }, searchable: false },
  };
  const en = {
    'amenity/bicycle_repair_station': { name: 'Bicycle Repair Tool Stand', terms: ['pump', 'tire inflation'] },
    'shop/bicycle': { name: 'Bicycle Shop', terms: ['bike', 'pump', 'repair'] },
    'shop/hardware': { name: 'Hardware Store', terms: ['tools', 'nails'] },
    'shop/doityourself': { name: 'DIY Store', terms: ['tools', 'nails'] },
    'shop/trade': { name: 'Trade Supply', terms: ['tools'] },
    'highway/crossing': { name: 'Crossing' },
    'shop/hidden': { name: 'Hidden' },
  };
  const zh = { 'shop/bicycle': { name: '自行车店', terms: ['单车', '车'] } };
  const v = buildPresetVocabulary(presets, en, zh);
  const ids = (form: string) => [...v.en, ...v.zh].filter((f) => f.form === form).map((f) => f.id).sort();

  it('keeps places people visit, not vertices or hidden presets', () => {
    expect(v.concepts.map((c) => c.id).sort()).toEqual([
      'osm:amenity=bicycle_repair_station', 'osm:shop=bicycle', 'osm:shop=doityourself', 'osm:shop=hardware', 'osm:shop=trade',
    ]);
    expect(primaryTag({ tags: { highway: 'crossing' }, geometry: ['vertex'] })).toBeUndefined();
  });

  it('maps names and synonym terms to the preset tag, in English and Chinese', () => {
    expect(ids('bicycle shop')).toEqual(['osm:shop=bicycle']);
    expect(ids('自行车店')).toEqual(['osm:shop=bicycle']);
    expect(ids('单车')).toEqual(['osm:shop=bicycle']);
    expect(v.concepts.find((c) => c.id === 'osm:shop=bicycle')?.tags).toEqual([['shop', ['bicycle']]]);
  });

  it('keeps a term shared by two presets for both, drops one shared by more, and drops one-character Chinese', () => {
    expect(ids('pump')).toEqual(['osm:amenity=bicycle_repair_station', 'osm:shop=bicycle']);
    expect(ids('tools')).toEqual([]);
    expect(ids('车')).toEqual([]);
  });

  it('reads the installed schema: a need word finds its kind of place', () => {
    expect(presetVocabulary().concepts.length).toBeGreaterThan(200);
    const p = planOffline('I have to post a package, anything around Union Square?');
    expect(p.targets.tags.flatMap(([k, vs]) => vs.map((x) => `${k}=${x}`))).toContain('amenity=post_office');
    const zhPlan = planOffline('联合广场附近有自行车店吗');
    expect(zhPlan.targets.tags).toContainEqual(['shop', ['bicycle']]);
  });

  it('never lets a modal verb or a cue become a kind of place', () => {
    const p = planOffline('where can I find something cheap near Union Square');
    expect(p.targets.concepts).toEqual([]);
  });
});
