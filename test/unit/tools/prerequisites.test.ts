import { describe, expect, it } from 'vitest';
import { loadDomainCatalog } from '../../../src/tools/catalog/domain.ts';
import { assessPrerequisites, missingPrerequisiteChain } from '../../../src/tools/prerequisites.ts';

const byId = new Map(loadDomainCatalog().map((t) => [t.id, t]));
const tool = (id: string) => byId.get(id)!;

describe('prerequisite assessment against a request context', () => {
  it('flags atmospheric correction for Level-1 optical data and not for Level-2', () => {
    expect(assessPrerequisites(tool('ndvi_calculator'), { dataSource: 'Sentinel-2', processingLevel: 'L1C' }).missing).toEqual(['atmospheric_correction']);
    expect(assessPrerequisites(tool('ndvi_calculator'), { dataSource: 'Sentinel-2', processingLevel: 'L2A' }).satisfied).toEqual(['atmospheric_correction']);
    expect(assessPrerequisites(tool('ndvi_calculator'), { dataSource: 'Landsat-9', processingLevel: 'L2SP' }).missing).toEqual([]);
  });

  it('leaves level corrections unknown when the context does not state a level', () => {
    expect(assessPrerequisites(tool('ndvi_calculator'), { dataSource: 'Sentinel-2' })).toEqual({ satisfied: [], missing: [], unknown: ['atmospheric_correction'] });
  });

  it('judges image pairs from the products in hand', () => {
    const unaligned = assessPrerequisites(tool('cva_change_detector'), { dataSource: 'SPOT-6', available: ['scene_a', 'scene_b'] });
    expect(unaligned.missing).toContain('image_registration');
    const aligned = assessPrerequisites(tool('pca_change_detector'), { available: ['coregistered_pair'] });
    expect(aligned.satisfied).toEqual(['image_registration']);
  });

  it('sees classification maps as the output of a classification', () => {
    expect(assessPrerequisites(tool('post_classification_comparison'), { available: ['landcover_map_2010', 'landcover_map_2020'] }).satisfied).toEqual(['landcover_classification']);
    expect(assessPrerequisites(tool('post_classification_comparison'), { available: ['image_2010', 'image_2020'] }).missing).toEqual(['landcover_classification']);
  });

  it('handles SAR levels and products', () => {
    expect(assessPrerequisites(tool('flood_mapping'), { dataSource: 'Sentinel-1', processingLevel: 'GRD' }).missing).toEqual(['sar_calibration', 'sar_terrain_correction']);
    expect(assessPrerequisites(tool('flood_mapping'), { dataSource: 'Sentinel-1', processingLevel: 'RTC' }).missing).toEqual([]);
    expect(assessPrerequisites(tool('sar_terrain_correction'), { available: ['sigma0_vv'] }).satisfied).toEqual(['sar_calibration']);
  });

  it('orders the transitive chain of missing steps', () => {
    expect(missingPrerequisiteChain(tool('ndvi_calculator'), { dataSource: 'Gaofen-2', processingLevel: 'L1A' })).toEqual(['radiometric_calibration', 'atmospheric_correction']);
    expect(missingPrerequisiteChain(tool('road_extraction'), { dataSource: 'Gaofen-1', processingLevel: 'L1A' })).toEqual(['orthorectification']);
    expect(missingPrerequisiteChain(tool('insar_time_series'), { available: ['slc_stack'] })).toEqual(['insar_processor']);
    expect(missingPrerequisiteChain(tool('change_type_classification'), {}, undefined, { assumeMissing: true })).toEqual([
      'change_magnitude',
      'change_thresholding',
    ]);
  });
});
