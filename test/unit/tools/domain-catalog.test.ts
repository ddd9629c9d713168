import { describe, expect, it } from 'vitest';
import { loadDomainCatalog } from '../../../src/tools/catalog/domain.ts';
import { functionInfo, isKnownCapabilityName, productInfo, sensorByDataSource, bandRoleFor } from '../../../src/tools/knowledge/index.ts';
import { productsCompatible } from '../../../src/tools/tool.ts';

const REQUIRED_IDS = [
  'atmospheric_correction', 'cloud_masking', 'image_registration', 'orthorectification', 'pansharpening',
  'radiometric_calibration', 'sar_calibration', 'sar_speckle_filter', 'sar_terrain_correction', 'ndvi_calculator',
  'vegetation_coverage_estimator', 'phenology_tracker', 'landcover_classification', 'post_classification_comparison',
  'cva_change_detector', 'pca_change_detector', 'change_thresholding', 'change_type_classification',
  'dual_date_classification_comparator', 'building_extraction', 'road_extraction', 'water_body_extraction',
  'flood_mapping', 'burned_area_mapping', 'crop_type_classification', 'crop_damage_assessment', 'insar_processor',
  'insar_time_series', 'dem_slope_aspect', 'land_surface_temperature', 'zonal_statistics', 'area_statistics',
  'time_series_trend', 'cloud_gap_filling', 'image_mosaicking', 'super_resolution', 'object_detection',
  'ship_detection', 'urban_expansion_analysis', 'impervious_surface_extraction',
];

const tools = loadDomainCatalog();
const byId = new Map(tools.map((t) => [t.id, t]));

describe('domain catalog', () => {
  it('holds all 40 required tools', () => {
    expect(REQUIRED_IDS).toHaveLength(40);
    expect(REQUIRED_IDS.filter((id) => !byId.has(id))).toEqual([]);
    expect(new Set(tools.map((t) => t.id)).size).toBe(tools.length);
    expect(tools.every((t) => t.catalog === 'domain')).toBe(true);
  });

  it('resolves every prerequisite and downstream id to a tool or a capability/product name', () => {
    const unresolved = tools.flatMap((t) =>
      [...t.prerequisites, ...t.downstream].filter((x) => !byId.has(x) && !isKnownCapabilityName(x)).map((x) => `${t.id} -> ${x}`),
    );
    expect(unresolved).toEqual([]);
  });

  it('has no self-references and no prerequisite cycles', () => {
    for (const t of tools) {
      expect(t.prerequisites).not.toContain(t.id);
      expect(t.downstream).not.toContain(t.id);
    }
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (id: string, path: string[]) => {
      if (done.has(id)) return;
      if (visiting.has(id)) throw new Error(`cycle: ${[...path, id].join(' -> ')}`);
      visiting.add(id);
      for (const p of byId.get(id)?.prerequisites ?? []) visit(p, [...path, id]);
      visiting.delete(id);
      done.add(id);
    };
    for (const t of tools) expect(() => visit(t.id, [])).not.toThrow();
  });

  it('uses known task types, products, band roles and data sources', () => {
    const problems: string[] = [];
    for (const t of tools) {
      if (!functionInfo(t.function)) problems.push(`${t.id}: function ${t.function}`);
      for (const p of [...t.inputs, ...t.outputs]) {
        if (p.product && !productInfo(p.product)) problems.push(`${t.id}: product ${p.product}`);
        for (const b of p.bands ?? []) if (!bandRoleFor(b)) problems.push(`${t.id}: band ${b}`);
      }
      for (const ds of t.dataSources) if (!sensorByDataSource(ds)) problems.push(`${t.id}: data source ${ds}`);
    }
    expect(problems).toEqual([]);
  });

  it('writes descriptions of 2 to 4 sentences', () => {
    for (const t of tools) {
      const sentences = t.description.split(/(?<=[.!?])\s+(?=[A-Z])/).length;
      expect(sentences, t.id).toBeGreaterThanOrEqual(2);
      expect(sentences, t.id).toBeLessThanOrEqual(4);
    }
  });

  it('encodes the expert prerequisites', () => {
    expect(byId.get('cva_change_detector')?.prerequisites).toContain('image_registration');
    expect(byId.get('pca_change_detector')?.prerequisites).toContain('image_registration');
    expect(byId.get('ndvi_calculator')?.prerequisites).toContain('atmospheric_correction');
    expect(byId.get('sar_speckle_filter')?.prerequisites).toContain('sar_calibration');
    expect(byId.get('sar_terrain_correction')?.prerequisites).toContain('sar_calibration');
    expect(byId.get('post_classification_comparison')?.prerequisites).toContain('landcover_classification');
    expect(byId.get('road_extraction')?.prerequisites).toContain('orthorectification');
    expect(byId.get('insar_time_series')?.prerequisites).toContain('insar_processor');
    expect(byId.get('change_thresholding')?.prerequisites).toContain('change_magnitude');
  });

  it('states input products that the prerequisites produce', () => {
    const cva = byId.get('cva_change_detector')!;
    expect(cva.inputs[0]).toMatchObject({ product: 'coregistered_pair', temporal: 'pair' });
    expect(byId.get('ndvi_calculator')!.inputs[0]).toMatchObject({ product: 'surface_reflectance', bands: ['red', 'nir'] });
  });

  it('chains compatibly along typical workflows', () => {
    const link = (a: string, b: string) =>
      byId.get(a)!.outputs.some((o) => byId.get(b)!.inputs.some((i) => productsCompatible(o, i)));
    expect(link('image_registration', 'cva_change_detector')).toBe(true);
    expect(link('cva_change_detector', 'change_thresholding')).toBe(true);
    expect(link('change_thresholding', 'area_statistics')).toBe(true);
    expect(link('atmospheric_correction', 'ndvi_calculator')).toBe(true);
    expect(link('ndvi_calculator', 'vegetation_coverage_estimator')).toBe(true);
    expect(link('sar_calibration', 'sar_speckle_filter')).toBe(true);
    expect(link('sar_speckle_filter', 'sar_terrain_correction')).toBe(true);
    expect(link('sar_terrain_correction', 'flood_mapping')).toBe(true);
    expect(link('landcover_classification', 'post_classification_comparison')).toBe(true);
    expect(link('post_classification_comparison', 'area_statistics')).toBe(true);
    expect(link('insar_processor', 'insar_time_series')).toBe(true);
    expect(link('orthorectification', 'pansharpening')).toBe(true);
    expect(link('ndvi_calculator', 'atmospheric_correction')).toBe(false);
  });
});
