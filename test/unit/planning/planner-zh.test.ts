import { describe, expect, it } from 'vitest';
import { planOffline } from '../../../src/planning/offline-planner.ts';
import { SpatialPlanSchema } from '../../../src/planning/plan.ts';
import { constraintsOf } from './helpers.ts';

function plan(q: string, opts?: Parameters<typeof planOffline>[1]) {
  const p = planOffline(q, opts);
  const checked = SpatialPlanSchema.safeParse(p);
  expect(checked.success, JSON.stringify(checked.error?.issues)).toBe(true);
  expect(p.lang).toBe('zh');
  return p;
}

describe('Chinese grammar', () => {
  it.each<[string, string[], string[]]>([
    ['在外滩附近的餐厅', ['within_distance(外滩, 500)'], ['restaurant']],
    ['宾州车站附近的药店', ['within_distance(宾州车站, 500)'], ['pharmacy']],
    ['人民公园800米以内能找到书店吗？', ['within_distance(人民公园, 800)'], ['books']],
    ['请问故宫周边1公里以内有什么好吃的', ['within_distance(故宫, 1000)'], ['restaurant']],
    ['离虹桥火车站最近的药店在哪儿？', ['nearest(虹桥火车站, k=1)'], ['pharmacy']],
    ['从人民广场到外滩的路上有哪些咖啡店？', ['along(route, 200)'], ['cafe']],
    ['沿着南京东路有哪些酒店', ['along(南京东路, 100)'], ['hotel']],
    ['在中央公园里的咖啡馆', ['inside(中央公园)'], ['cafe']],
    ['人民广场和外滩之间的书店', ['between(人民广场, 外滩, 200)'], ['books']],
    ['天安门步行5分钟以内的超市', ['within_distance(天安门, 400)'], ['supermarket']],
    ['西湖两公里内的酒店', ['within_distance(西湖, 2000)'], ['hotel']],
    ['东方明珠一点五公里以内的银行', ['within_distance(东方明珠, 1500)'], ['bank']],
    ['我想找静安寺八百米以内的健身房', ['within_distance(静安寺, 800)'], ['fitness_centre']],
    ['离大剧院最近的三家咖啡馆', ['nearest(大剧院, k=3)'], ['cafe']],
  ])('%s', (q, constraints, concepts) => {
    const p = plan(q);
    expect(constraintsOf(p)).toEqual(constraints);
    expect(p.targets.concepts).toEqual(concepts);
  });

  it('reads "最近的" as nearest, and "离我" as the asker', () => {
    const near = { lon: 121.47, lat: 31.23 };
    const p = plan('离我最近的两家银行在哪里？', { near });
    expect(constraintsOf(p)).toEqual(['nearest(我, k=2)']);
    expect(p.references[0]).toMatchObject({ kind: 'coordinates', point: near });
    expect(p.preference).toBe('nearest');
  });

  it('reads a bare 附近 as around the asker', () => {
    const near = { lon: 116.4, lat: 39.9 };
    const p = plan('附近的药店', { near });
    expect(p.references[0]).toMatchObject({ kind: 'coordinates', point: near });
    expect(p.constraints[0]).toMatchObject({ fn: 'within_distance', distanceM: 500 });
  });

  it('reads a place as subject ("X有哪些Y") as inside an area, with lower confidence', () => {
    const p = plan('中关村开发区有哪些咖啡馆');
    expect(constraintsOf(p)).toEqual(['inside(中关村开发区)']);
    expect(p.confidence).toBeLessThan(1);
  });

  it('classifies Chinese references by suffix', () => {
    expect(plan('沿着南京东路有哪些酒店').references[0]?.kind).toBe('street');
    expect(plan('在中央公园里的咖啡馆').references[0]?.kind).toBe('area');
    expect(plan('宾州车站附近的药店').references[0]?.kind).toBe('landmark');
  });

  it('keeps qualitative words in the semantic part', () => {
    const p = plan('三里屯附近便宜的酒吧');
    expect(p.semantic.text).toBe('便宜的酒吧');
    expect(p.semantic.cues).toContain('cheap');
    expect(p.preference).toBe('best');
    expect(p.spatialText).toBe('三里屯附近');
  });

  it('does not take a kind of place from the reference name', () => {
    // 长途汽车总站 contains 汽车站 (bus station); 华盛顿广场公园 contains 广场 and 公园.
    expect(plan('离长途汽车总站最近的药店在哪？').targets.concepts).toEqual(['pharmacy']);
    expect(plan('华盛顿广场公园600米以内的书店有哪些？').targets.concepts).toEqual(['books']);
  });

  describe('"X的Y": a kind of place of a named area', () => {
    it.each<[string, string, string]>([
      ['哈莱姆的教堂有哪些', '哈莱姆', 'church'],
      ['法国的博物馆', '法国', 'museum'],
      ['布鲁克林的面包店', '布鲁克林', 'bakery'],
    ])('%s -> inside(%s), %s', (q, area, kind) => {
      const p = plan(q);
      expect(constraintsOf(p)).toEqual([`inside(${area})`]);
      expect(p.references[0]?.kind).toBe('area');
      expect(p.targets.concepts).toEqual([kind]);
    });

    it('keeps a describing word before 的 as a description, not a place', () => {
      for (const q of ['便宜的面包店', '网红的咖啡店', '有名的博物馆']) {
        const p = plan(q, { near: { lon: 2.35, lat: 48.86 } });
        expect(p.references.map((r) => r.kind)).toEqual(['coordinates']);
      }
    });

    it('does not cut a name that ends in a word also said after places (纽约 ends in 约, "about")', () => {
      expect(constraintsOf(plan('纽约的酒店'))).toEqual(['inside(纽约)']);
    });
  });

  it('reads "X一带" of an area as the area itself, and of a building as around it', () => {
    expect(constraintsOf(plan('苏河湾一带的咖啡馆'))).toEqual(['inside(苏河湾)']);
    expect(constraintsOf(plan('金茂大厦一带的餐厅'))).toEqual(['within_distance(金茂大厦, 500)']);
  });
});
