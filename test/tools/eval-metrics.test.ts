import { describe, expect, it } from 'vitest';
import {
  chainOrder,
  chainRecallAt10,
  completenessAt5,
  evaluateTools,
  exactSequence,
  executability,
  formatToolEval,
  hitAt1,
  mrrAt5,
  ndcgAt5,
  plainBm25,
  recallAt5,
  reportRows,
  requestOf,
  sequenceMatch,
  type EvalLine,
  type SearchAnswer,
} from '../../eval/tools.ts';
import { checkDrops, type CheckReport } from '../../eval/tool-check.ts';

const log2 = Math.log2;

describe('tool-retrieval metrics (eval/tools.ts) on hand-computed cases', () => {
  it('hit@1, mrr@5 and ndcg@5 use the gold ids exactly', () => {
    const ids = ['a', 'ndvi_calculator', 'b', 'index:NDVI', 'c', 'ndvi'];
    const gold = ['ndvi', 'index:NDVI', 'ndvi_calculator'];
    expect(hitAt1(ids, gold)).toBe(0);
    expect(mrrAt5(ids, gold)).toBe(0.5);
    // Relevant at ranks 2 and 4 (ndvi at rank 6 is outside the cut); ideal: three relevant first.
    const dcg = 1 / log2(3) + 1 / log2(5);
    const ideal = 1 / log2(2) + 1 / log2(3) + 1 / log2(4);
    expect(ndcgAt5(ids, gold)).toBeCloseTo(dcg / ideal, 10);
    expect(ndcgAt5(['x', 'y'], ['y'])).toBeCloseTo(1 / log2(3), 10);
    expect(mrrAt5(['a', 'b', 'c', 'd', 'e', 'gold'], ['gold'])).toBe(0);
  });

  it('recall@5 and completeness@5 count the gold ids in the top 5', () => {
    const ids = ['a', 'ndvi_calculator', 'b', 'index:NDVI', 'c', 'ndvi'];
    const gold = ['ndvi', 'index:NDVI', 'ndvi_calculator'];
    expect(recallAt5(ids, gold)).toBeCloseTo(2 / 3, 10);
    expect(completenessAt5(ids, gold)).toBe(0);
    expect(completenessAt5(['ndvi', 'x', 'index:NDVI', 'ndvi_calculator'], gold)).toBe(1);
    expect(recallAt5(ids, [])).toBe(0);
  });

  it('chain recall and order accept functional equivalents', () => {
    const chain = ['cloud_masking', 'ndvi', 'aggregate_temporal_period'];
    expect(chainRecallAt10(['cloud_detection', 'x', 'index:NDVI'], chain)).toBeCloseTo(2 / 3, 10);
    // cloud_detection before ndvi_calculator: 1 pair of 2; the composite step is missing.
    expect(chainOrder(['cloud_detection', 'ndvi_calculator'], chain)).toBe(0.5);
    expect(chainOrder(['aggregate_temporal', 'ndvi', 'cloud_masking'], chain)).toBe(0);
    expect(chainOrder(['ard_surface_reflectance', 'ndvi', 'aggregate_temporal'], chain)).toBe(1);
  });

  it('executability: in the top tool\'s missingPrerequisites, or a workflow step before the main tool', () => {
    const line: EvalLine = { id: 't', query: 'q', gold: ['cva_change_detector'], executable_requires: ['image_registration'] };
    const flagged: SearchAnswer = { tools: [{ id: 'cva_change_detector', missingPrerequisites: ['image_registration'] }] };
    const inWorkflow: SearchAnswer = {
      tools: [{ id: 'cva_change_detector' }],
      workflow: { steps: [{ toolId: 'image_registration' }, { toolId: 'cva_change_detector' }] },
    };
    const after: SearchAnswer = {
      tools: [{ id: 'cva_change_detector' }],
      workflow: { steps: [{ toolId: 'cva_change_detector' }, { toolId: 'image_registration' }] },
    };
    expect(executability(flagged, line)).toBe(1);
    expect(executability(inWorkflow, line)).toBe(1);
    expect(executability(after, line)).toBe(0);
    const equivalent: EvalLine = { ...line, gold: ['ndvi'], executable_requires: ['atmospheric_correction'] };
    expect(executability({ tools: [{ id: 'ndvi', missingPrerequisites: ['ard_surface_reflectance'] }] }, equivalent)).toBe(1);
  });

  it('exact sequence and sequence match: same length, step by step, functional equivalents allowed', () => {
    const answer = (steps: string[], top = steps[steps.length - 1]!): SearchAnswer => ({ tools: [{ id: top }], workflow: { steps: steps.map((toolId) => ({ toolId })) } });
    expect(exactSequence(answer(['cloud_detection', 'index:NDVI']), ['cloud_masking', 'ndvi'])).toBe(1);
    expect(exactSequence(answer(['cloud_masking', 'ndvi', 'save_result']), ['cloud_masking', 'ndvi'])).toBe(0);
    expect(exactSequence(answer(['ndvi', 'cloud_masking']), ['cloud_masking', 'ndvi'])).toBe(0);
    // No workflow: the top tool alone is the proposed sequence.
    expect(exactSequence({ tools: [{ id: 'ndvi' }, { id: 'x' }] }, ['ndvi'])).toBe(1);
    const line: EvalLine = { id: 'l', query: 'q', gold: ['cva_change_detector', 'pca_change_detector'], executable_requires: ['image_registration'] };
    expect(sequenceMatch(answer(['image_registration', 'pca_change_detector']), line)).toBe(1);
    expect(sequenceMatch({ tools: [{ id: 'cva_change_detector' }] }, line)).toBe(0);
    expect(sequenceMatch({ tools: [{ id: 'pca_change_detector' }] }, { ...line, executable_requires: undefined })).toBe(1);
  });

  it('sends k and the camelCase context as the scorer does', () => {
    expect(requestOf({ id: 'x', query: 'q', gold: [], gold_chain: ['a', 'b'], context: { data_source: 'Sentinel-2', processing_level: 'L1C', available: ['x'] } })).toEqual({
      query: 'q',
      k: 10,
      context: { dataSource: 'Sentinel-2', processingLevel: 'L1C', available: ['x'] },
    });
    expect(requestOf({ id: 'y', query: 'q', gold: [] })).toEqual({ query: 'q', k: 5, context: {} });
  });

  it('averages per line (chain metrics over chain lines only) and prints the scorer line', async () => {
    const lines: EvalLine[] = [
      { id: '1', query: 'one', gold: ['a'] },
      { id: '2', query: 'two', gold: ['b', 'c'], gold_chain: ['b', 'c'] },
      { id: '3', query: 'three', gold: ['d'], executable_requires: ['e'] },
    ];
    const answers: Record<string, SearchAnswer> = {
      one: { tools: [{ id: 'a' }] },
      two: { tools: [{ id: 'x' }, { id: 'c' }, { id: 'b' }], workflow: { steps: [{ toolId: 'c' }, { toolId: 'b' }] } },
      three: { tools: [{ id: 'd', missingPrerequisites: [] }] },
    };
    const r = await evaluateTools(async (req) => answers[req.query]!, lines);
    expect(r.hit1).toBeCloseTo(2 / 3, 10);
    expect(r.mrr5).toBeCloseTo((1 + 0.5 + 1) / 3, 10);
    const ndcg2 = (1 / log2(3) + 1 / log2(4)) / (1 + 1 / log2(3));
    expect(r.ndcg5).toBeCloseTo((1 + ndcg2 + 1) / 3, 10);
    expect(r.chainRecall10).toBe(1);
    expect(r.chainOrder).toBe(0);
    expect(r.exec).toBe(0);
    expect(r.counts).toEqual({ chain: 1, chainOrder: 1, exec: 1 });
    // Exact sequence (chain lines): c, b is not the chain b, c. Sequence (all): 'one' proposes [a] = [a];
    // 'two' fails as above; 'three' proposes [d] but calls for [e, d].
    expect(r.exactSequence).toBe(0);
    expect(r.sequenceMatch).toBeCloseTo(1 / 3, 10);
    expect(formatToolEval(r)).toBe(`tool-retrieval: hit@1=0.667 mrr@5=0.833 ndcg@5=${((1 + ndcg2 + 1) / 3).toFixed(3)} chain_recall@10=1.000 exec=0.000 n=3`);
  });

  it('scores a failed request as zero everywhere', async () => {
    const r = await evaluateTools(async () => {
      throw new Error('boom');
    }, [{ id: '1', query: 'q', gold: ['a'], executable_requires: ['b'] }]);
    expect([r.hit1, r.mrr5, r.ndcg5, r.exec]).toEqual([0, 0, 0, 0]);
    expect(r.lines[0]?.error).toBe('boom');
  });
});

describe('own request sets (eval --set, --catalog)', () => {
  it('reports every method on all lines and per split', async () => {
    const lines: EvalLine[] = [
      { id: 'a', query: 'q', gold: ['x'], split: 'tune' },
      { id: 'b', query: 'q', gold: ['y'], split: 'check' },
    ];
    const answer = async (): Promise<SearchAnswer> => ({ tools: [{ id: 'x' }] });
    const r = await evaluateTools(answer, lines);
    const rows = new Map(reportRows({ system: r, bm25: r, dense: r, splits: { a: 'tune', b: 'check' } }));
    expect(rows.get('system')!.hit1).toBe(0.5);
    expect(rows.get('system[tune]')!).toMatchObject({ n: 1, hit1: 1 });
    expect(rows.get('system[check]')!).toMatchObject({ n: 1, hit1: 0 });
    expect(rows.has('bm25-ref')).toBe(false);
  });

  it('the plain BM25 reference ranks by rare shared words and ignores tools sharing none', () => {
    const rank = plainBm25([
      { id: 'slope', name: 'Slope', description: 'Terrain slope in degrees from an elevation model.' },
      { id: 'mean', name: 'Mean', description: 'The arithmetic mean of the values.' },
      { id: 'sum', name: 'Sum', description: 'The sum of the values.' },
    ]);
    expect(rank('terrain slope', 5)).toEqual(['slope']);
    expect(rank('mean values', 5)).toEqual(['mean', 'sum']);
  });
});

describe('tools:check drift comparison', () => {
  const report = (ranks: (number | null)[], missing?: boolean): CheckReport => ({
    at: 'x',
    embeddingModel: 'm',
    tools: 1,
    summary: { hit1: 0, mrr10: 0, missingOk: 0, n: ranks.length },
    queries: ranks.map((rank, i) => ({ id: `q${i}`, rank, top: [], ...(i === 0 && missing !== undefined ? { missingOk: missing } : {}) })),
  });
  it('reports a query that dropped and nothing else', () => {
    expect(checkDrops(report([1, 2, null]), report([1, 1, null]))).toEqual([]);
    const drops = checkDrops(report([1, 2, 3], true), report([2, 2, null], false));
    expect(drops).toHaveLength(3);
    expect(drops.join('\n')).toMatch(/q0: expected tool at rank 1 before, 2 now/);
    expect(drops.join('\n')).toMatch(/q2: .*not in the top 10/);
  });
});
