import type { OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineEmbedderWithLexicons } from '../../src/embedding/configured.ts';
import { createApp } from '../../src/http/app.ts';
import type { AppEnv } from '../../src/http/openapi-app.ts';
import { createLogger } from '../../src/log.ts';
import { loadCheckQueries, runToolCheck } from '../../eval/tool-check.ts';
import { importToolCatalogs, loadBuiltinTools, reembedTools, type CatalogImportReport } from '../../src/tools/registry.ts';
import { countRows, openTestDatabase, testMode, type TestDatabase } from '../helpers/database.ts';
import { hasOpenEO, hasSpectral, OPENEO_DIR, skipMessage, SPECTRAL_DIR } from '../unit/tools/data-dir.ts';

interface Hit {
  id: string;
  score: number;
  similarity: number;
  complementarity: number;
  why: string;
  missingPrerequisites: string[];
}
interface SearchBody {
  tools: Hit[];
  parsed: Record<string, unknown>;
  workflow?: { steps: { toolId: string; why: string }[]; valid: boolean; problems?: string[] };
  clarification?: { question: string; options: { taskType: string }[] };
}

const hasData = hasOpenEO && hasSpectral;
if (!hasData) console.warn(skipMessage('openEO processes or spectral indices'));

describe.skipIf(!hasData)(`EO tool catalogs, search and workflows (${testMode} mode)`, () => {
  let db: TestDatabase;
  let app: OpenAPIHono<AppEnv>;
  let reports: CatalogImportReport[];
  const embedder = createOfflineEmbedderWithLexicons();

  const call = async <T>(path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const res = await app.request(path, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as T };
  };
  const search = async (query: string, context: Record<string, unknown> = {}, k = 10) => {
    const res = await call<SearchBody>('/v1/tools/search', { query, k, context });
    expect(res.status).toBe(200);
    return res.body;
  };
  const functionOf = async (id: string) => (await call<{ function: string }>(`/v1/tools/${encodeURIComponent(id)}`)).body.function;

  beforeAll(async () => {
    db = await openTestDatabase();
    await loadBuiltinTools(db.db, embedder);
    reports = await importToolCatalogs(db.db, embedder, [OPENEO_DIR, SPECTRAL_DIR]);
    app = createApp({ db: db.db, embedder, mode: db.mode, log: createLogger('silent'), lifecycle: { draining: false } });
  }, 300_000);
  afterAll(async () => db?.dispose());

  it('imports the three catalogs; the domain tool keeps an id the openEO proposals also use', async () => {
    const [openeo, spectral] = reports;
    expect(openeo).toMatchObject({ kind: 'openeo', read: 155, written: 154, skipped: [{ id: 'atmospheric_correction', ownedBy: 'domain' }] });
    expect(spectral).toMatchObject({ kind: 'spectral-indices', read: 280, written: 280, skipped: [] });
    expect(await countRows(db.db, 'tools')).toBe(40 + 154 + 280);
    const perCatalog = async (catalog: string) => (await call<{ total: number }>(`/v1/tools?catalog=${catalog}&limit=1`)).body.total;
    expect([await perCatalog('domain'), await perCatalog('openeo'), await perCatalog('spectral-indices')]).toEqual([40, 154, 280]);

    // Re-importing updates in place.
    await importToolCatalogs(db.db, embedder, [SPECTRAL_DIR]);
    expect(await countRows(db.db, 'tools')).toBe(474);
  }, 120_000);

  // A tool record as the route returns it; the assertions below read it loosely.
  type ToolBody = { catalog: string; inputs: { bands: string[] }[]; produces: string[]; prerequisites: string[]; capabilityText: string };
  it('stores golden records of each catalog', async () => {
    const ndvi = (await call<ToolBody>('/v1/tools/ndvi')).body;
    expect(ndvi).toMatchObject({ catalog: 'openeo', function: 'vegetation_index', prerequisites: ['atmospheric_correction'] });
    const index = (await call<ToolBody>(`/v1/tools/${encodeURIComponent('index:NDVI')}`)).body;
    expect(index).toMatchObject({ catalog: 'spectral-indices', function: 'vegetation_index' });
    expect(index.inputs[0]!.bands).toEqual(expect.arrayContaining(['nir', 'red']));
    expect(index.produces).toEqual(expect.arrayContaining(['ndvi', 'vegetation_index']));
    const cva = (await call<ToolBody>('/v1/tools/cva_change_detector')).body;
    expect(cva).toMatchObject({ catalog: 'domain', function: 'change_detection' });
    expect(cva.prerequisites).toEqual(expect.arrayContaining(['image_registration', 'atmospheric_correction']));
    expect(cva.capabilityText).toMatch(/Requires first: .*registration/i);
    expect((await call<ToolBody>('/v1/tools/atmospheric_correction')).body.catalog).toBe('domain');
  });

  it('explains every result and keeps score = alpha*similarity + beta*complementarity for the leaders', async () => {
    const result = await search('Derive NDVI from my Sentinel-2 scene', { dataSource: 'Sentinel-2', processingLevel: 'L2A' }, 5);
    expect(['ndvi', 'index:NDVI', 'ndvi_calculator']).toContain(result.tools[0]?.id);
    for (const t of result.tools) expect(t.why).toMatch(/^matches /);
    const top = result.tools[0]!;
    expect(top.score).toBeCloseTo(0.75 * top.similarity + 0.25 * top.complementarity, 2);
    expect(result.parsed).toMatchObject({ taskType: 'vegetation_index', dataSource: 'Sentinel-2', processingLevel: 'L2A' });
  });

  it('reads what is measured of water and of vegetation: water quality and plant moisture indices, not water extent', async () => {
    const top = async (query: string) => (await search(query)).tools[0]?.id;
    expect(['index:NDCI', 'index:FAI']).toContain(await top('cyanobacteria in the drinking-water reservoir from Sentinel-2'));
    expect(await top('suspended sediment after the spring runoff in the delta')).toBe('index:NDTI');
    expect(await top('悬浮泥沙浓度')).toBe('index:NDTI');
    expect(['index:NDMI', 'index:MSI', 'index:GVMI', 'index:NMDI', 'index:DSI']).toContain(await top('map live fuel moisture across the chaparral before the fire season'));
  });

  it('reads everyday Chinese through the dictionary and requests by their shape', async () => {
    const top = async (query: string) => (await search(query)).tools[0]?.id;
    expect(await functionOf((await top('山上的雪化了多少'))!)).toBe('snow_index');
    expect(['cloud_masking', 'cloud_detection']).toContain(await top('去掉影像上的云'));
    // Two dates and words of change: change detection, next to the co-registration two dated images need.
    const change = (await search('2019年和2023年的影像比一比，哪里不一样')).tools.slice(0, 3).map((t) => t.id);
    expect(change.some((id) => ['cva_change_detector', 'pca_change_detector', 'change_thresholding', 'change_type_classification'].includes(id))).toBe(true);
    expect(await top('这片稻田大概有几公顷')).toBe('area_statistics');
    expect(await top('only keep the blue and green bands')).toBe('filter_bands');
    expect(await top('只要2021年4月到6月的影像')).toBe('filter_temporal');
    expect(await top('draw a 300 m ring around each well')).toBe('vector_buffer');
    expect(await top('在每个地块里放30个点')).toBe('vector_to_random_points');
    expect(['resample_spatial', 'resample_cube_spatial']).toContain(await top('把20米的波段和10米的放到同一个格网'));
    // A bare category gets one of the members the graph names, not whichever index the n-grams favour.
    expect(['ndvi', 'index:NDVI', 'ndvi_calculator', 'index:EVI', 'index:SAVI']).toContain(await top('帮我出一个植被指数'));
  });

  it('answers a named statistic with the tool that computes it, in English and Chinese', async () => {
    const top = async (query: string) => (await search(query)).tools[0]?.id;
    expect(await top('算一下这景温度图的标准差')).toBe('sd');
    expect(await top('NDVI variance over the orchard')).toBe('variance');
    expect(await top('每个像元取最小值')).toBe('min');
  });

  it('answers crop residue, floating debris and glaciers with their own indices', async () => {
    const top = async (query: string) => (await search(query)).tools[0]?.id;
    const tillage = ['index:NDTillI', 'index:STI', 'index:SNDTI', 'index:NDTI4RE', 'index:STI4RE', 'index:SNDTI4RE'];
    expect(tillage).toContain(await top('which paddocks were plowed this autumn'));
    expect(tillage).toContain(await top('哪些地块是免耕的'));
    expect(['index:FDI', 'index:PI']).toContain(await top('find the marine litter drifting off the harbour mouth'));
    expect(await top('冰川范围这几年缩了多少，有没有合适的指数')).toBe('index:NDGlaI');
  });

  it('answers soil moisture with the indices named for it, not any soil index', async () => {
    const moisture = ['index:NSDS', 'index:NSDSI1', 'index:NSDSI2', 'index:NSDSI3'];
    const top4 = async (query: string) => (await search(query)).tools.slice(0, 4).map((t) => t.id).sort();
    expect(await top4('soil water content of the fallow plots after the thaw')).toEqual(moisture);
    expect(await top4('休耕地的土壤含水量')).toEqual(moisture);
  });

  it('answers how a crop is doing with a vegetation index, not with crop-type classification', async () => {
    const ndvi = ['ndvi', 'ndvi_calculator', 'index:NDVI'];
    const top = async (query: string) => (await search(query)).tools[0]?.id;
    expect(ndvi).toContain(await top('我家大豆长得怎么样'));
    expect(ndvi).toContain(await top('how is the rice doing on the terraces?'));
    expect(await top('which parcels grow soybeans and which grow maize?')).toBe('crop_type_classification');
  });

  it('finds a tool through the dictionary sense of a Chinese verb that the catalog uses beside the request', async () => {
    // 补 is first "repair"; beside images of other days, the catalog's sense is "fill".
    const [first] = (await search('用相邻几天的影像把这些空白补齐')).tools;
    expect(first?.id).toBe('cloud_gap_filling');
    expect(first?.why).toContain('fill (补)');
  });

  it('finds the terrain tool for a question about how steep a place is, in English and Chinese', async () => {
    // Neither "steep" nor 陡 is a word of the catalog: WordNet's measure of steepness is the slope.
    for (const query of ['how steep is the ridge above our orchard', '屋后那道梁子哪一面最陡']) {
      const [first] = (await search(query)).tools;
      expect(first?.id).toBe('dem_slope_aspect');
    }
  });

  it('answers how a crop is doing with a general vegetation index, not an index named after that crop', async () => {
    const ndvi = ['ndvi', 'ndvi_calculator', 'index:NDVI'];
    const top = async (query: string) => (await search(query)).tools[0]?.id;
    // The wheat indices (WCI) name the crop; a question about the wheat's state asks for its vigour.
    expect(ndvi).toContain(await top('how is the wheat doing this month?'));
    for (const t of (await search('how is the wheat doing this month?')).tools) expect(t.why).not.toMatch(/words: .*wheat/);
    expect(ndvi).toContain(await top('how are the potatoes doing after the rain?'));
    expect((await search('a chlorophyll index made for wheat canopies')).tools.slice(0, 3).map((t) => t.id)).toEqual(expect.arrayContaining(['index:WCI1']));
  });

  it('answers a state described by dryness with a vegetation water index', async () => {
    const water = new Set(['index:NDMI', 'index:MSI', 'index:NDII', 'index:GVMI', 'index:DSWI1', 'index:DSWI2', 'index:DSWI3', 'index:DSWI4', 'index:DSWI5', 'index:DSI']);
    const tools = async (query: string) => (await search(query)).tools.map((t) => t.id);
    expect(water.has((await tools('are the pine forests parched this August?'))[0]!)).toBe(true);
    expect(water.has((await tools('is the meadow soggy after the snowmelt?'))[0]!)).toBe(true);
  });

  it('answers a question about which index with an index, not with a map of the thing', async () => {
    for (const query of ['is there an index tailored for salt marsh vegetation?', 'which index helps find built-up land in Landsat 8 scenes?']) {
      const found = await search(query);
      expect(found.tools[0]?.id).toMatch(/^index:/);
    }
  });

  it('weighs a word that only names the data as imagery below the words of the task', async () => {
    const top = (await search('average the raster over non-overlapping windows of 8 by 8 pixels')).tools.slice(0, 2);
    expect(top[0]?.id).toBe('aggregate_spatial_window');
    for (const t of top) expect(t.why).not.toBe('matches words: raster');
  });

  it('does not match a tool by a word of an idiom ("running low" is no run)', async () => {
    const ids = (await search('the vines are running low on water')).tools.slice(0, 5).map((t) => t.id);
    expect(ids.filter((id) => id.startsWith('run_'))).toEqual([]);
  });

  it('leaves out the index whose formula needs a band outside the only ones the data has', async () => {
    const bandsOf = async (id: string) => (await call<{ inputs: { optional?: boolean; bands?: string[] }[] }>(`/v1/tools/${encodeURIComponent(id)}`)).body.inputs.filter((p) => !p.optional).flatMap((p) => p.bands ?? []);
    const query = 'our survey camera has only RGB; which index shows how the maize is growing?';
    const found = await search(query);
    expect((found.parsed.onlyBands as string[]).sort()).toEqual(['blue', 'green', 'green1', 'red']);
    for (const t of found.tools.filter((x) => x.id.startsWith('index:')).slice(0, 5)) expect((await bandsOf(t.id)).every((b) => ['blue', 'green', 'red'].includes(b))).toBe(true);
  });

  it('leaves out the tools that need a band the user says the data lacks', async () => {
    const bandsOf = async (id: string) => (await call<{ inputs: { optional?: boolean; bands?: string[] }[] }>(`/v1/tools/${encodeURIComponent(id)}`)).body.inputs.filter((p) => !p.optional).flatMap((p) => p.bands ?? []);
    const topBands = async (query: string) => Promise.all((await search(query)).tools.slice(0, 5).map((t) => bandsOf(t.id)));
    expect((await topBands('a greenness index for photos from a near-infrared camera')).some((b) => b.includes('nir'))).toBe(true);
    const without = await search('a greenness index for photos from a camera that has no near-infrared');
    expect(without.parsed.absentBands).toEqual(['nir']);
    for (const bands of await topBands('a greenness index for photos from a camera that has no near-infrared')) expect(bands).not.toContain('nir');
  });

  it('reads a subset of what lies inside an area as a spatial subset', async () => {
    const top = (await search('只留下县界里面的像元，外面的都删掉')).tools[0]?.id;
    expect(['filter_spatial', 'mask_polygon']).toContain(top);
  });

  it('answers what a later step needs first when only the later step is named', async () => {
    const top = async (query: string) => (await search(query)).tools[0]?.id;
    expect(await top('before we run change detection on the pair, what has to be done to them?')).toBe('image_registration');
    expect(await top('两景图做变化检测之前该怎么处理')).toBe('image_registration');
    // "before the flood" is a time of the setting, not a step: the flood map is still what is asked.
    expect(await top('where did the water spread? radar scenes from before the flood and after it')).toBe('flood_mapping');
  });

  it('reads a phrase of place as where the work is done, not what is done', async () => {
    // "road" stands only in the place phrase: the snow is measured, no road is extracted.
    const ids = (await search('Estimate the snow depth across the mountain pass road')).tools.slice(0, 3).map((t) => t.id);
    expect(ids).not.toContain('road_extraction');
    expect(await functionOf(ids[0]!)).toBe('snow_index');
  });

  it('L1C vs L2A: the same request changes missing prerequisites and ranking as an EO expert expects', async () => {
    const query = 'Compute NDVI from Sentinel-2 imagery';
    const l1c = await search(query, { dataSource: 'Sentinel-2', processingLevel: 'L1C' });
    const l2a = await search(query, { dataSource: 'Sentinel-2', processingLevel: 'L2A' });
    // Same task either way…
    expect(['ndvi', 'index:NDVI', 'ndvi_calculator']).toContain(l1c.tools[0]?.id);
    expect(['ndvi', 'index:NDVI', 'ndvi_calculator']).toContain(l2a.tools[0]?.id);
    // …but top-of-atmosphere data lacks atmospheric correction, surface reflectance does not.
    expect(l1c.tools[0]?.missingPrerequisites).toEqual(['atmospheric_correction']);
    expect(l2a.tools[0]?.missingPrerequisites).toEqual([]);
    expect(l1c.tools[0]!.complementarity).toBeLessThan(l2a.tools[0]!.complementarity);
    // The correction step is lifted into the L1C results, right after the tool it serves; on L2A data it is
    // redundant and drops out.
    const rankL1c = l1c.tools.findIndex((t) => t.id === 'atmospheric_correction');
    expect(rankL1c).toBeGreaterThan(0);
    expect(rankL1c).toBeLessThan(5);
    expect(l1c.tools[rankL1c]?.why).toContain('provides the missing');
    expect(l2a.tools.map((t) => t.id)).not.toContain('atmospheric_correction');
    // The L1C answer comes with a workflow that corrects first.
    expect(l1c.workflow?.steps.map((s) => s.toolId).slice(0, 2)).toEqual(['atmospheric_correction', l1c.tools[0]?.id]);
  });

  it('judges SAR levels and image pairs the same way', async () => {
    const grd = await search('Map flooded areas from Sentinel-1 images acquired before and after the storm', { dataSource: 'Sentinel-1', processingLevel: 'GRD' });
    const rtc = await search('Map flooded areas from Sentinel-1 images acquired before and after the storm', { dataSource: 'Sentinel-1', processingLevel: 'RTC' });
    expect(grd.tools[0]?.id).toBe('flood_mapping');
    expect(grd.tools[0]?.missingPrerequisites).toEqual(['sar_calibration', 'sar_terrain_correction']);
    expect(rtc.tools[0]?.missingPrerequisites).toEqual([]);

    const unaligned = await search('Detect changes between my two SPOT-6 scenes by change vector analysis', { available: ['scene_a', 'scene_b'] });
    const aligned = await search('Detect changes between my two SPOT-6 scenes by change vector analysis', { available: ['coregistered_pair'] });
    expect(unaligned.tools[0]?.id).toBe('cva_change_detector');
    expect(unaligned.tools[0]?.missingPrerequisites).toContain('image_registration');
    expect(aligned.tools[0]?.missingPrerequisites).not.toContain('image_registration');
  });

  it('composes "map new buildings between two dates from L1C Sentinel-2" with correction and registration before change detection', async () => {
    const { status, body } = await call<{ workflow: NonNullable<SearchBody['workflow']> }>('/v1/workflows/plan', {
      query: 'map new buildings between two dates from L1C Sentinel-2',
    });
    expect(status).toBe(200);
    const steps = body.workflow.steps.map((s) => s.toolId);
    expect(body.workflow.valid).toBe(true);
    const functions = await Promise.all(steps.map(functionOf));
    const change = functions.indexOf('change_detection');
    expect(change).toBeGreaterThan(0);
    const correction = steps.findIndex((id) => id === 'atmospheric_correction' || id === 'ard_surface_reflectance');
    const registration = steps.indexOf('image_registration');
    expect(correction).toBeGreaterThanOrEqual(0);
    expect(registration).toBeGreaterThanOrEqual(0);
    expect(correction).toBeLessThan(change);
    expect(registration).toBeLessThan(change);
    for (const s of body.workflow.steps) expect(s.why.length).toBeGreaterThan(0);
  });

  it('decomposes a multi-step request into an ordered chain, and checks a chain given by the client', async () => {
    const result = await search('Load the Landsat 9 collection, compute NDVI, then export the result as a GeoTIFF', {}, 10);
    const steps = result.workflow!.steps.map((s) => s.toolId);
    const load = steps.indexOf('load_collection');
    const ndvi = steps.findIndex((id) => ['ndvi', 'index:NDVI', 'ndvi_calculator'].includes(id));
    const save = steps.indexOf('save_result');
    expect(load).toBeGreaterThanOrEqual(0);
    expect(ndvi).toBeGreaterThan(load);
    expect(save).toBeGreaterThan(ndvi);
    expect((result.parsed.subTasks as string[]).length).toBe(3);

    const bad = await call<{ workflow: NonNullable<SearchBody['workflow']> }>('/v1/workflows/plan', {
      query: 'change vector analysis',
      context: { available: ['image_t1', 'image_t2'] },
      steps: ['cva_change_detector', 'image_registration'],
    });
    expect(bad.body.workflow.valid).toBe(false);
    expect(bad.body.workflow.problems?.join(' ')).toMatch(/step 1 \(cva_change_detector\).*regist/i);
    const good = await call<{ workflow: NonNullable<SearchBody['workflow']> }>('/v1/workflows/plan', {
      query: 'change vector analysis',
      context: { available: ['image_t1', 'image_t2'], processingLevel: 'L2A' },
      steps: ['image_registration', 'cva_change_detector'],
    });
    expect(good.body.workflow).toMatchObject({ valid: true });
  });

  it('asks for clarification with options when the request says too little', async () => {
    const vague = await search('process it');
    expect(vague.clarification?.options.length).toBeGreaterThanOrEqual(2);
    expect(vague.workflow).toBeUndefined();
    expect((await search('Delineate burn scars after the wildfire')).clarification).toBeUndefined();
  });

  it('filters by catalog', async () => {
    const result = await search('normalized difference water index', {}, 10);
    const only = await call<SearchBody>('/v1/tools/search', { query: 'normalized difference water index', k: 10, catalogs: ['spectral-indices'] });
    expect(result.tools.length).toBe(10);
    expect(only.body.tools.length).toBeGreaterThan(0);
    expect(new Set(only.body.tools.map((t) => t.id.split(':')[0]))).toEqual(new Set(['index']));
  });

  it('re-embeds every tool for a model change, keeping search working', async () => {
    expect(await reembedTools(db.db, embedder)).toBe(474);
    const result = await search('Extract building footprints from 0.5 m WorldView-3 imagery', {}, 3);
    expect(result.tools[0]?.id).toBe('building_extraction');
  }, 120_000);

  it('keeps the standard check queries answered (drift monitor baseline)', async () => {
    const report = await runToolCheck(db.db, embedder, loadCheckQueries());
    expect(report.tools).toBe(474);
    expect(report.summary.mrr10).toBeGreaterThanOrEqual(0.85);
    expect(report.summary.missingOk).toBe(1);
  }, 120_000);
});
