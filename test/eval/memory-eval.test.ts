import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunLog, runMemoryEvaluation, splitDevSet, taskTypeOfLine, type MemoryEvalReport } from '../../eval/memory.ts';
import { searchThrough, type EvalLine } from '../../eval/tools.ts';
import { createOfflineEmbedderWithLexicons } from '../../src/embedding/configured.ts';
import { loadBuiltinTools } from '../../src/tools/registry.ts';
import { testMode } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

const CHANGE = ['image_registration', 'cva_change_detector', 'change_thresholding'];
const SHIPS = ['sar_calibration', 'sar_speckle_filter', 'ship_detection'];
const BURNED = ['radiometric_calibration', 'atmospheric_correction', 'cloud_masking', 'burned_area_mapping'];
const line = (id: string, query: string, gold: string[], chain?: string[]): EvalLine => ({ id, query, lang: 'en', gold, ...(chain ? { gold_chain: chain } : {}) });
/** Two requests of each of three task types (one lands in each half), and three single ones. */
const LINES: EvalLine[] = [
  line('m-01', 'detect changes between the two acquisitions of the valley', ['cva_change_detector'], CHANGE),
  line('m-02', 'detect changes between two dates', ['cva_change_detector'], CHANGE),
  line('m-03', 'detect ships in the radar scenes of the strait', ['ship_detection'], SHIPS),
  line('m-04', 'find vessels in the bay with SAR', ['ship_detection'], SHIPS),
  line('m-05', 'map burned areas after the wildfire', ['burned_area_mapping'], BURNED),
  line('m-06', 'burned area mapping of the forest', ['burned_area_mapping'], BURNED),
  line('m-07', 'estimate slope from elevation model', ['dem_slope_aspect']),
  line('m-08', 'calculate land surface temperature', ['land_surface_temperature']),
  line('m-09', 'extract water bodies from imagery', ['water_body_extraction']),
];

describe('memory evaluation protocol: the split and the run log', () => {
  it('splits deterministically into disjoint halves that share the repeated task types', () => {
    const a = splitDevSet(LINES);
    expect(splitDevSet(LINES)).toEqual(a);
    expect([...a.history, ...a.heldOut].map((l) => l.id).sort()).toEqual(LINES.map((l) => l.id));
    expect(a.history.filter((l) => a.heldOut.includes(l))).toHaveLength(0);
    for (const type of ['change_detection', 'object_detection', 'hazard_mapping']) {
      expect(a.history.filter((l) => taskTypeOfLine(l) === type)).toHaveLength(1);
      expect(a.heldOut.filter((l) => taskTypeOfLine(l) === type)).toHaveLength(1);
    }
    // Another seed deals differently (the seed is what makes it reproducible, not a fixed order).
    const seeds = [1, 2, 3, 4, 5].map((seed) => splitDevSet(LINES, seed).history.map((l) => l.id).join());
    expect(new Set(seeds).size).toBeGreaterThan(1);
  });

  it('builds the run log from the history half only', () => {
    const { history, heldOut } = splitDevSet(LINES);
    const log = buildRunLog(history, new Map());
    const requests = new Set(log.map((r) => r.body.request));
    for (const h of heldOut) for (const r of requests) expect(r).not.toContain(h.query);
    expect(log.filter((r) => r.kind === 'success')).toHaveLength(history.length);
    expect(log.filter((r) => r.kind === 'poisoned')).toHaveLength(5);
    expect(log.filter((r) => r.kind === 'flood')).toHaveLength(10);
  });
});

// The whole protocol through the real service (POST /v1/runs with its gate, POST /v1/tools/search).
describe(`memory evaluation through HTTP (${testMode} mode)`, () => {
  let service: TestService;
  let report: MemoryEvalReport;
  beforeAll(async () => {
    service = await startTestService();
    await loadBuiltinTools(service.database.db, createOfflineEmbedderWithLexicons());
    const app = { request: (path: string, init?: RequestInit) => fetch(`${service.url}${path}`, init) };
    report = await runMemoryEvaluation(app, LINES, searchThrough(app));
  });
  afterAll(async () => service?.stop());

  it('reports the halves and what the gate did with every kind of run', () => {
    expect(report.sizes.history + report.sizes.heldOut).toBe(LINES.length);
    expect(report.sizes.related).toBe(3);
    expect(report.sizes.unrelated).toBeGreaterThanOrEqual(1);
    expect(report.runs.success).toEqual({ sent: report.sizes.history, accepted: report.sizes.history, rejected: 0 });
    expect(report.runs.poisoned).toEqual({ sent: 5, accepted: 0, rejected: 5 });
    expect(report.runs.flood).toEqual({ sent: 10, accepted: 1, rejected: 9 });
    expect(report.runs.total.sent).toBe(report.runs.total.accepted + report.runs.total.rejected);
  });

  it('measures the improvement the replay brings to held-out requests of the same task types', () => {
    // Before: the service composes its own chains; after: the remembered ones (see memory-http.test.ts).
    expect(report.after.related.exactSequence).toBeGreaterThan(report.before.related.exactSequence);
    expect(report.after.related.hit1).toBeGreaterThanOrEqual(report.before.related.hit1);
    expect(report.changed.related.length).toBeGreaterThan(0);
  });

  it('leaves held-out requests of unrelated task types exactly as they were', () => {
    expect(report.changed.unrelated).toEqual([]);
    const { lines: _b, meanLatencyMs: _lb, ...before } = report.before.unrelated;
    const { lines: _a, meanLatencyMs: _la, ...after } = report.after.unrelated;
    expect(after).toEqual(before);
  });

  it('starts from an empty memory, so a second evaluation gives the same numbers', async () => {
    const app = { request: (path: string, init?: RequestInit) => fetch(`${service.url}${path}`, init) };
    const again = await runMemoryEvaluation(app, LINES, searchThrough(app));
    const numbers = (r: MemoryEvalReport) => JSON.stringify(r, (k, v) => (k === 'meanLatencyMs' ? undefined : v));
    expect(numbers(again)).toBe(numbers(report));
  });
});
