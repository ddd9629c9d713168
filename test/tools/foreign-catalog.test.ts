import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testMode } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

/**
 * Catalogs the knowledge graph does not know, registered through POST /v1/tools with only id, name and
 * description, with the project's own requests and their gold ids (eval/sets/README.md): 155 openEO
 * process texts under fresh ids, 110 functions of a Python toolkit written for the project (long
 * instructions, 2.5 gold tools each) and 100 modules of a command-line toolbox written for it (a third in
 * Chinese). The service must rank at least as well as the plainest lexical reference, BM25 over name +
 * description implemented here, and by a margin on NDCG@5: the knowledge graph and the dense side may add
 * evidence, never lose what the words alone find; and on requests that need several tools, the first five
 * must hold more of them than BM25's.
 */
interface Tool {
  id: string;
  name: string;
  description: string;
}
interface CatalogEntry extends Tool {
  /** The openEO process the text comes from (never sent to the service). */
  source?: string;
}
interface Request {
  id: string;
  query: string;
  gold: string[];
}

const SETS = new URL('../../eval/sets/', import.meta.url);
const readCatalog = (file: string) => JSON.parse(readFileSync(new URL(file, SETS), 'utf8')) as CatalogEntry[];
const readRequests = (file: string) =>
  readFileSync(new URL(file, SETS), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Request);
const CATALOGS = [
  { name: 'openEO processes under fresh ids', tools: 'foreign-catalog.tools.json', requests: 'foreign-catalog.requests.jsonl' },
  { name: 'a Python toolkit', tools: 'foreign-python.tools.json', requests: 'foreign-python.requests.jsonl' },
  { name: 'a command-line toolbox', tools: 'foreign-cli.tools.json', requests: 'foreign-cli.requests.jsonl' },
];

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

function recall5(ids: readonly string[], gold: readonly string[]): number {
  return ids.slice(0, 5).filter((id) => gold.includes(id)).length / Math.min(gold.length, 5);
}

function ndcg5(ids: readonly string[], gold: readonly string[]): number {
  const dcg = ids.slice(0, 5).reduce((sum, id, i) => sum + (gold.includes(id) ? 1 / Math.log2(i + 2) : 0), 0);
  const ideal = Array.from({ length: Math.min(gold.length, 5) }, (_, i) => 1 / Math.log2(i + 2)).reduce((a, b) => a + b, 0);
  return dcg / ideal;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe.each(CATALOGS)(`a foreign catalog registered by id, name and description: $name (${testMode} mode)`, (set) => {
  const catalog = readCatalog(set.tools);
  const tools: Tool[] = catalog.map(({ id, name, description }) => ({ id, name, description }));
  const requests = readRequests(set.requests);
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

  it('ranks at least as well as BM25 on MRR@5, better by 0.05 on NDCG@5, and finds more of the tools a request needs', async () => {
    const reference = bm25Reference(tools);
    const service_: { mrr: number[]; ndcg: number[]; recall: number[] } = { mrr: [], ndcg: [], recall: [] };
    const bm25: { mrr: number[]; ndcg: number[]; recall: number[] } = { mrr: [], ndcg: [], recall: [] };
    for (const r of requests) {
      const res = await post('/v1/tools/search', { query: r.query, k: 5 });
      expect(res.status).toBe(200);
      const ids = ((await res.json()) as { tools: { id: string }[] }).tools.map((t) => t.id);
      const lexical = reference(r.query, 5);
      for (const [into, got] of [[service_, ids], [bm25, lexical]] as const) {
        into.mrr.push(mrr5(got, r.gold));
        into.ndcg.push(ndcg5(got, r.gold));
        // Recall over the requests that need several tools: the list must cover the work, not one step.
        if (r.gold.length >= 2) into.recall.push(recall5(got, r.gold));
      }
    }
    const got = { mrr: mean(service_.mrr), ndcg: mean(service_.ndcg), recall: mean(service_.recall) };
    const base = { mrr: mean(bm25.mrr), ndcg: mean(bm25.ndcg), recall: mean(bm25.recall) };
    const f = (x: number) => x.toFixed(3);
    console.log(`${set.name}: service MRR@5 ${f(got.mrr)} NDCG@5 ${f(got.ndcg)} multi-tool recall@5 ${f(got.recall)}; BM25 ${f(base.mrr)} ${f(base.ndcg)} ${f(base.recall)}`);
    expect(got.mrr).toBeGreaterThanOrEqual(base.mrr);
    expect(got.ndcg).toBeGreaterThanOrEqual(base.ndcg + 0.05);
    expect(got.recall).toBeGreaterThan(base.recall);
  });
});

describe(`steps of a multi-step request over the openEO catalog under fresh ids (${testMode} mode)`, () => {
  const catalog = readCatalog(CATALOGS[0]!.tools);
  /** The fresh id of the tool made from an openEO process. */
  const idOf = (process: string) => catalog.find((t) => t.source === `openeo-processes:${process}`)!.id;
  let service: TestService;
  const post = (path: string, body: unknown) =>
    fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    service = await startTestService();
    for (const { id, name, description } of catalog) {
      const res = await post('/v1/tools', { id, name, description });
      if (res.status !== 201) throw new Error(`registering ${id}: ${res.status} ${await res.text()}`);
    }
  });
  afterAll(async () => service?.stop());

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
