import { describe, expect, it } from 'vitest';
import { spelledOutName } from '../../../src/tools/identifiers.ts';
import { deriveToolMetadata } from '../../../src/tools/tool.ts';

describe('tool names written as identifiers', () => {
  it('spells out camel case after the written form', () => {
    expect(spelledOutName('ChangeDetection')).toBe('ChangeDetection Change Detection');
    expect(spelledOutName('estimateBiomass')).toBe('estimateBiomass estimate Biomass');
    expect(spelledOutName('EVIToolkit')).toBe('EVIToolkit EVI Toolkit');
    expect(spelledOutName('Sentinel1Flood')).toBe('Sentinel1Flood Sentinel1 Flood');
  });

  it('replaces separators of a single identifier', () => {
    expect(spelledOutName('mask_clouds_s2')).toBe('mask clouds s2');
    expect(spelledOutName('raster.zonal_mean')).toBe('raster zonal mean');
    expect(spelledOutName('vector:buffer')).toBe('vector buffer');
  });

  it('leaves prose names, acronyms and numbers alone', () => {
    expect(spelledOutName('InSAR coherence estimation')).toBe('InSAR coherence estimation');
    expect(spelledOutName('NDWI')).toBe('NDWI');
    expect(spelledOutName('v2.5')).toBe('v2.5');
  });

  it('reads the task type from a camel-case name when the description does not say it', () => {
    const tool = deriveToolMetadata({ id: 'ChangeDetection', name: 'ChangeDetection', description: 'Compares two images of the same area and returns where they differ.' });
    expect(tool.function).toBe('change_detection');
  });
});
