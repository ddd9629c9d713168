import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testMode } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

/**
 * A catalog the knowledge graph does not know: 155 tools (openEO process texts under fresh ids, see
 * eval/sets/README.md) registered through POST /v1/tools with only id, name and description, and the
 * project's own requests with their gold ids. The service must rank at least as well as the plainest
 * lexical reference, BM25 over name + description implemented here, and by a margin on NDCG@5: the
 * knowledge graph and the dense side may add evidence, never lose what the words alone find.
 */
interface Tool {
  id: string;
  name: string;
  description: string;
}
interface CatalogEntry extends Tool {
  /** The openEO process the text comes from (never sent to the service). */
  source: string;
}
interface Request {
  id: string;
  query: string;
  gold: string[];
}

const SETS = new URL('../../eval/sets/', import.meta.url);
const catalog = JSON.parse(readFileSync(new URL('foreign-catalog.tools.json', SETS), 'utf8')) as CatalogEntry[];
const tools: Tool[] = catalog.map(({ id, name, description }) => ({ id, name, description }));
/** The fresh id of the tool made from an openEO process. */
const idOf = (process: string) => catalog.find((t) => t.source === `openeo-processes:${process}`)!.id;
const requests = readFileSync(new URL('foreign-catalog.requests.jsonl', SETS), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Request);

/** BM25 (k1 1.5, b 0.75) over lower-cased words and CJK characters of name + description. */
function bm25Reference(docs: readonly Tool[]): (query: string, k: number) => string[] {
  const tokens = (text: string) => text.toLowerCase().match(/[a-z0-9]+|[\u4e00-\u9fff]/g) ?? [];
  const bags = docs.map((t) => tokens(`${t.name} ${t.description}`));
  const avg = bags.reduce((a, b) => a + b.length, 0) / bags.length;
  const df = new Map<string, number>();
  for (const bag of bags) for (const term of new Set(bag)) df.set(term, (df.get(term) ?? 0) + 1);
  const tf = bags.map((bag) => bag.reduce((m, term) => m.set(term, (m.get(term) ?? 0) + 1), new Map<string, number>()));
  return (query, k) =>
    docs
      .map((doc, i) => {
        let score = 0;
        for (const term of new Set(tokens(query))) {
          const f = tf[i]!.get(term) ?? 0;
          if (f === 0) continue;
          const n = df.get(term)!;
          const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
          score += (idf * f * 2.5) / (f + 1.5 * (0.25 + (0.75 * bags[i]!.length) / avg));
        }
        return { id: doc.id, score };
      })
      .filter((d) => d.score > 0)
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, k)
      .map((d) => d.id);
}

function mrr5(ids: readonly string[], gold: readonly string[]): number {
  const rank = ids.slice(0, 5).findIndex((id) => gold.includes(id));
  return rank >= 0 ? 1 / (rank + 1) : 0;
}

function ndcg5(ids: readonly string[], gold: readonly string[]): number {
  const dcg = ids.slice(0, 5).reduce((sum, id, i) => sum + (gold.includes(id) ? 1 / Math.log2(i + 2) : 0), 0);
  const ideal = Array.from({ length: Math.min(gold.length, 5) }, (_, i) => 1 / Math.log2(i + 2)).reduce((a, b) => a + b, 0);
  return dcg / ideal;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe(`a foreign catalog registered by id, name and description (${testMode} mode)`, () => {
  let service: TestService;
  const post = (path: string, body: unknown) =>
    fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    service = await startTestService();
    for (const tool of tools) {
      const res = await post('/v1/tools', tool);
      if (res.status !== 201) throw new Error(`registering ${tool.id}: ${res.status} ${await res.text()}`);
    }
  });
  afterAll(async () => service?.stop());

  it('holds at least 100 tools and 100 requests whose gold ids are registered', () => {
    expect(tools.length).toBeGreaterThanOrEqual(100);
    expect(requests.length).toBeGreaterThanOrEqual(100);
    const ids = new Set(tools.map((t) => t.id));
    for (const r of requests) for (const g of r.gold) expect(ids.has(g), `${r.id}: ${g}`).toBe(true);
  });

  it('ranks at least as well as BM25 on MRR@5 and better by 0.05 on NDCG@5', async () => {
    const reference = bm25Reference(tools);
    const service_: { mrr: number[]; ndcg: number[] } = { mrr: [], ndcg: [] };
    const bm25: { mrr: number[]; ndcg: number[] } = { mrr: [], ndcg: [] };
    for (const r of requests) {
      const res = await post('/v1/tools/search', { query: r.query, k: 5 });
      expect(res.status).toBe(200);
      const ids = ((await res.json()) as { tools: { id: string }[] }).tools.map((t) => t.id);
      service_.mrr.push(mrr5(ids, r.gold));
      service_.ndcg.push(ndcg5(ids, r.gold));
      const lexical = reference(r.query, 5);
      bm25.mrr.push(mrr5(lexical, r.gold));
      bm25.ndcg.push(ndcg5(lexical, r.gold));
    }
    const got = { mrr: mean(service_.mrr), ndcg: mean(service_.ndcg) };
    const base = { mrr: mean(bm25.mrr), ndcg: mean(bm25.ndcg) };
    console.log(`foreign catalog: service MRR@5 ${got.mrr.toFixed(3)} NDCG@5 ${got.ndcg.toFixed(3)}; BM25 MRR@5 ${base.mrr.toFixed(3)} NDCG@5 ${base.ndcg.toFixed(3)}`);
    expect(got.mrr).toBeGreaterThanOrEqual(base.mrr);
    expect(got.ndcg).toBeGreaterThanOrEqual(base.ndcg + 0.05);
  });

  it('keeps the best tool of every step of a numbered or sequenced request in the top 5', async () => {
    const search = async (query: string, k: number) => {
      const res = await post('/v1/tools/search', { query, k });
      expect(res.status).toBe(200);
      return ((await res.json()) as { tools: { id: string }[] }).tools.map((t) => t.id);
    };
    const requests: [string, string[]][] = [
      ['1. %s 2. %s 3. %s', ['read the scenes listed in a STAC catalog', 'keep only the red and near-infrared bands', 'write the output to a netCDF file']],
      ['%s, then %s, finally %s', ['buffer the pipeline route by 200 m', 'compute zonal statistics of the image inside the buffers', 'store the table']],
      ['先%s，再%s，最后%s', ['按日期范围筛选影像', '把每个月的数据聚合成月平均', '保存结果']],
    ];
    for (const [pattern, steps] of requests) {
      const query = steps.reduce((q, step) => q.replace('%s', step), pattern);
      const top = await search(query, 5);
      for (const step of steps) {
        const [best] = await search(step, 1);
        expect(top, `${query}: the best tool for "${step}"`).toContain(best);
      }
    }
    // And the steps of the first request are the ones an expert would pick.
    const first = await search('1. read the scenes listed in a STAC catalog 2. keep only the red and near-infrared bands 3. write the output to a netCDF file', 5);
    expect(first).toEqual(expect.arrayContaining([idOf('load_stac'), idOf('save_result')]));
  });
});
