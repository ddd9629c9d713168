import { describe, expect, it } from 'vitest';
import {
  bandRoleFor,
  canonicalDataSource,
  capabilityClosure,
  conceptInfo,
  eoConcepts,
  findLevel,
  findSensor,
  functionInfo,
  isKindForm,
  isKnownCapabilityName,
  knowledgeGraph,
  levelProvides,
  matchForms,
  normalizeAvailable,
  productInfo,
  productSatisfies,
  resolveDataSources,
  sensorsWithBands,
} from '../../../src/tools/knowledge/index.ts';
import { conceptsOfTool } from '../../../src/tools/capability.ts';
import { loadDomainCatalog, mainToolOf } from '../../../src/tools/catalog/domain.ts';

const domainIds = new Set(loadDomainCatalog().map((t) => t.id));

describe('knowledge graph integrity', () => {
  const g = knowledgeGraph();

  it('has unique ids per section', () => {
    for (const section of [g.functions, g.products, g.capabilities, g.concepts, g.bandRoles, g.sensors] as { id: string }[][]) {
      const ids = section.map((x) => x.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('keeps English surface forms lower case (the embedder and matcher rely on it)', () => {
    const bad = [...g.concepts, ...g.functions, ...g.products, ...g.sensors].flatMap((c) => c.en.filter((f) => f !== f.toLowerCase()));
    expect(bad).toEqual([]);
  });

  it('only references known products, functions, capabilities and tools', () => {
    const known = (name: string) => isKnownCapabilityName(name) || domainIds.has(name);
    const problems: string[] = [];
    for (const p of g.products) for (const s of p.satisfies) if (!productInfo(s)) problems.push(`product ${p.id} satisfies ${s}`);
    for (const c of g.capabilities) for (const e of [...c.evidencedBy, ...c.implies]) if (!known(e)) problems.push(`capability ${c.id}: ${e}`);
    for (const f of g.functions) {
      for (const port of [...f.inputs, ...f.outputs]) if (port.product && !productInfo(port.product)) problems.push(`function ${f.id} port ${port.product}`);
      for (const x of [...f.prerequisites, ...f.downstream]) if (!known(x)) problems.push(`function ${f.id}: ${x}`);
    }
    for (const c of g.concepts) {
      for (const f of c.functions ?? []) if (!functionInfo(f)) problems.push(`concept ${c.id} function ${f}`);
      for (const p of c.products ?? []) if (!productInfo(p)) problems.push(`concept ${c.id} product ${p}`);
      for (const t of [...(c.tools ?? []), ...(c.chain ?? []), ...(c.requires ?? [])]) if (!known(t)) problems.push(`concept ${c.id}: ${t}`);
      for (const b of c.bands ?? []) if (!bandRoleFor(b)) problems.push(`concept ${c.id} band ${b}`);
      if (c.condition && conceptInfo(c.condition)?.kind !== 'task') problems.push(`concept ${c.id} condition ${c.condition}`);
      for (const [property, task] of Object.entries(c.conditions ?? {})) if (conceptInfo(task)?.kind !== 'task') problems.push(`concept ${c.id} ${property} condition ${task}`);
    }
    for (const s of g.sensors) {
      for (const role of Object.keys(s.bands)) if (!bandRoleFor(role)) problems.push(`sensor ${s.id} band role ${role}`);
      for (const l of s.levels) for (const x of l.provides) if (!known(x)) problems.push(`sensor ${s.id} level ${l.id}: ${x}`);
    }
    for (const l of g.genericLevels) for (const x of l.provides) if (!known(x)) problems.push(`generic level ${l.id}: ${x}`);
    for (const f of g.families) for (const m of f.members) if (!canonicalDataSource(m)) problems.push(`family ${f.id}: ${m}`);
    expect(problems).toEqual([]);
  });

  it('exposes concepts with English and Chinese forms', () => {
    const concepts = eoConcepts();
    expect(concepts.length).toBeGreaterThan(40);
    const change = concepts.find((c) => c.id === 'change_detection');
    expect(change?.en).toContain('change detection');
    expect(change?.zh).toContain('变化检测');
    expect(concepts.filter((c) => c.zh.length > 0).length).toBe(concepts.length);
  });

  it('adds the option labels of an object\'s OSM field to its forms, leaving a label another concept has to that one', () => {
    const cropland = conceptInfo('cropland');
    expect(cropland?.osmField).toBe('crop');
    expect(cropland?.en).toEqual(expect.arrayContaining(['barley', 'sugar beets', 'potatoes']));
    expect(cropland?.zh).toEqual(expect.arrayContaining(['大麦', '马铃薯']));
    expect(cropland?.en).not.toContain('grass');
    expect(cropland?.zh).not.toContain('草');
    expect(isKindForm('cropland', 'barley')).toBe(true);
    expect(isKindForm('cropland', 'cropland')).toBe(false);
  });

  it('finds the tool that does a concept, not a preparatory step listed before it', () => {
    expect(mainToolOf({ tools: ['image_registration', 'cva_change_detector'], functions: ['change_detection'] })).toBe('cva_change_detector');
    expect(mainToolOf({ tools: ['atmospheric_correction'], functions: ['water_index'] })).toBeUndefined();
    expect(mainToolOf(conceptInfo('cloud_removal')!)).toBe('cloud_gap_filling');
  });

  it('does not make a tool named after one kind of a thing a tool of the thing', () => {
    const concepts = (name: string) => conceptsOfTool({ id: 'x', name, outputs: [] }).map((c) => c.id);
    expect(concepts('Barley Greenness Ratio')).not.toContain('cropland');
    expect(concepts('Cropland Greenness Ratio')).toContain('cropland');
  });

  it('links a construction-site concept to building change detection with co-registration', () => {
    const c = conceptInfo('new_construction');
    expect(c?.functions).toContain('change_detection');
    expect(c?.products).toEqual(expect.arrayContaining(['building_footprints']));
    expect(c?.requires).toContain('image_registration');
    expect(c?.resolution).toMatch(/high/);
  });
});

describe('sensors and processing levels', () => {
  it('resolves sensor aliases in English and Chinese', () => {
    expect(findSensor('S2')?.dataSource).toBe('Sentinel-2');
    expect(findSensor('哨兵二号')?.dataSource).toBe('Sentinel-2');
    expect(findSensor('Sentinel-2 MSI L2A')?.dataSource).toBe('Sentinel-2');
    expect(findSensor('LC08')?.dataSource).toBe('Landsat-8');
    expect(findSensor('GF2')?.dataSource).toBe('Gaofen-2');
    expect(findSensor('高分二号')?.dataSource).toBe('Gaofen-2');
    expect(findSensor('spot 7')?.dataSource).toBe('SPOT-7');
    expect(resolveDataSources('Landsat')).toEqual(expect.arrayContaining(['Landsat-8', 'Landsat-5']));
    expect(findSensor('not a satellite')).toBeUndefined();
  });

  it('inherits shared metadata between sibling missions', () => {
    const spot7 = findSensor('SPOT-7');
    expect(spot7?.bands.pan).toBe('PAN');
    expect(spot7?.levels.map((l) => l.id)).toContain('ORTHO');
    expect(findSensor('Landsat-9')?.bands.nir).toBe('B5');
    expect(findSensor('Landsat-7')?.bands.nir).toBe('B4');
  });

  it('knows what Sentinel-2 L1C and L2A already provide', () => {
    const l1c = levelProvides('Sentinel-2', 'L1C');
    expect(l1c).toEqual(expect.arrayContaining(['radiometric_calibration', 'orthorectification', 'toa_reflectance']));
    expect(l1c).not.toContain('atmospheric_correction');
    const l2a = levelProvides('Sentinel-2', 'L2A');
    expect(l2a).toEqual(expect.arrayContaining(['atmospheric_correction', 'surface_reflectance', 'cloud_mask', 'cloud_masking', 'orthorectification']));
  });

  it('knows Landsat Collection 2 levels (L1TP is orthorectified DN, L2 is surface reflectance)', () => {
    const l1 = levelProvides('Landsat-8', 'L1TP');
    expect(l1).toContain('orthorectification');
    expect(l1).not.toContain('atmospheric_correction');
    expect(levelProvides('Landsat-8', 'L2')).toEqual(expect.arrayContaining(['atmospheric_correction', 'surface_reflectance']));
    expect(findLevel('Landsat-8', 'Level-2')?.id).toBe('L2SP');
  });

  it('knows that Gaofen-2 L1A is raw and Sentinel-1 GRD is uncalibrated', () => {
    const gf = levelProvides('Gaofen-2', 'L1A');
    expect(gf).not.toContain('orthorectification');
    expect(gf).not.toContain('radiometric_calibration');
    const grd = levelProvides('Sentinel-1', 'GRD');
    expect(grd).toContain('sar_grd');
    expect(grd).not.toContain('sar_calibration');
    expect(grd).not.toContain('sar_terrain_correction');
    expect(levelProvides('Sentinel-1', 'RTC')).toEqual(expect.arrayContaining(['sar_calibration', 'sar_terrain_correction']));
  });

  it('falls back to generic levels for unknown sensors and gives nothing for unknown levels', () => {
    expect(levelProvides('Some-Sat', 'L2A')).toContain('surface_reflectance');
    expect(levelProvides('Sentinel-2', 'L9Z')).toEqual([]);
    expect(levelProvides('Copernicus DEM', undefined)).toContain('dem');
  });
});

describe('products, capabilities and bands', () => {
  it('follows satisfies transitively', () => {
    expect(productSatisfies('sigma0_filtered', 'sigma0')).toBe(true);
    expect(productSatisfies('backscatter_geocoded', 'sar_image')).toBe(true);
    expect(productSatisfies('ndvi', 'spectral_index')).toBe(true);
    expect(productSatisfies('toa_reflectance', 'surface_reflectance')).toBe(false);
  });

  it('closes capabilities over evidence and implication', () => {
    const c = capabilityClosure(['surface_reflectance']);
    expect(c.has('atmospheric_correction')).toBe(true);
    expect(c.has('radiometric_calibration')).toBe(true);
    expect(capabilityClosure(['backscatter_geocoded']).has('sar_calibration')).toBe(true);
    expect(capabilityClosure(['backscatter_geocoded']).has('sar_speckle_filter')).toBe(false);
  });

  it('maps band codes and names to roles', () => {
    expect(bandRoleFor('N')).toBe('nir');
    expect(bandRoleFor('S1')).toBe('swir1');
    expect(bandRoleFor('RE1')).toBe('rededge1');
    expect(bandRoleFor('swir22')).toBe('swir2');
    expect(bandRoleFor('VV')).toBe('vv');
    expect(bandRoleFor('L')).toBeUndefined();
  });

  it('finds the sensors able to provide a set of bands', () => {
    const redEdge = sensorsWithBands(['rededge1', 'nir'], 'optical').map((s) => s.dataSource);
    expect(redEdge).toContain('Sentinel-2');
    expect(redEdge).not.toContain('Landsat-8');
    expect(sensorsWithBands(['red', 'nir'], 'optical').map((s) => s.dataSource)).toContain('Gaofen-2');
  });

  it('normalises free-form available items', () => {
    const got = normalizeAvailable(['landcover_map_t1', 'landcover_map_t2', 'coregistered_pair', 'Surface reflectance', 'sigma0_db']);
    expect(got).toEqual(expect.arrayContaining(['landcover_map', 'coregistered_pair', 'surface_reflectance', 'sigma0']));
    expect(normalizeAvailable(['image_t1', 'image_t2'])).toEqual(expect.arrayContaining(['image', 'image_pair']));
    expect(normalizeAvailable(['scene_2000', 'scene_2020'])).toContain('image_pair');
  });

  it('matches surface forms leftmost-longest, with plurals and Chinese', () => {
    const hits = matchForms('Detect new buildings and flooded roads in 哨兵一号 imagery', ['concept', 'sensor']);
    const ids = hits.flatMap((h) => h.ids);
    expect(ids).toEqual(expect.arrayContaining(['new_construction', 'flood', 'road', 'Sentinel-1']));
    // "change vector analysis" is one concept, not "change" + "vector".
    const cva = matchForms('change vector analysis', ['concept']).flatMap((h) => h.ids);
    expect(cva).toEqual(['change_vector_analysis']);
  });
});
