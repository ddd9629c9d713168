import { describe, expect, it } from 'vitest';
import { deriveToolMetadata, FALLBACK_FUNCTION, parseToolRecord, productsCompatible, type ToolPort } from '../../../src/tools/tool.ts';

describe('ToolRecord schema', () => {
  it('fills defaults for a minimal valid record', () => {
    const t = parseToolRecord({ id: 'x', name: 'X', description: 'Does x.', function: 'statistics' });
    expect(t).toMatchObject({ catalog: 'default', inputs: [], outputs: [], prerequisites: [], keywords: [], derived: [], version: '1.0.0' });
  });

  it('rejects a non snake_case task type and unknown port types', () => {
    expect(() => parseToolRecord({ id: 'x', name: 'X', description: 'd', function: 'Change Detection' })).toThrow();
    expect(() =>
      parseToolRecord({ id: 'x', name: 'X', description: 'd', function: 'statistics', inputs: [{ name: 'a', type: 'cube' }] }),
    ).toThrow();
  });

  it('keeps extra attributes (provenance) but validates the known ones', () => {
    const t = parseToolRecord({ id: 'x', name: 'X', description: 'd', function: 'math', attributes: { speed: 'fast', vendor: 'acme' } });
    expect(t.attributes).toMatchObject({ speed: 'fast', vendor: 'acme' });
  });
});

describe('deriveToolMetadata', () => {
  it('derives a change-detection record from a minimal registration', () => {
    const t = deriveToolMetadata({
      id: 'acme_bitemporal',
      name: 'Bitemporal change detector',
      description: 'Detects changes between two co-registered Sentinel-2 images acquired on different dates.',
    });
    expect(t.function).toBe('change_detection');
    expect(t.modalities).toContain('optical');
    expect(t.dataSources).toEqual(['Sentinel-2']);
    expect(t.inputs[0]).toMatchObject({ type: 'raster', temporal: 'pair' });
    expect(t.prerequisites).toContain('image_registration');
    expect(t.derived).toEqual(expect.arrayContaining(['function', 'inputs', 'outputs', 'modalities', 'keywords']));
    expect(t.catalog).toBe('default');
  });

  it('derives SAR object detection and its SAR input', () => {
    const t = deriveToolMetadata({ id: 'v', name: 'Vessel finder', description: 'Finds ships in Sentinel-1 radar scenes with a CFAR detector.' });
    expect(t.function).toBe('object_detection');
    expect(t.modalities).toEqual(['sar']);
    expect(t.inputs[0]).toMatchObject({ product: 'sar_image', modality: 'sar' });
    expect(t.outputs[0]).toMatchObject({ type: 'vector', product: 'ship_detections' });
  });

  it("gives a tool its task type's typical product only when its text names that product", () => {
    const fit = deriveToolMetadata({ id: 'f', name: 'Curve fitting', description: 'Adjusts the parameters of a model function to observed values with non-linear least squares.' });
    expect(fit.function).toBe('time_series_analysis');
    expect(fit.outputs.map((o) => o.product)).not.toContain('trend_map');
    const trend = deriveToolMetadata({ id: 't', name: 'Trend of a series', description: 'Fits a linear trend to each pixel time series and returns a trend map.' });
    expect(trend.outputs[0]?.product).toBe('trend_map');
  });

  it('understands Chinese descriptions', () => {
    const t = deriveToolMetadata({ id: 'fvc', name: '植被覆盖度估算', description: '利用像元二分模型由NDVI估算植被覆盖度。' });
    expect(t.function).toBe('biophysical_parameter');
    expect(t.outputs[0]?.product).toBe('fractional_vegetation_cover');
    expect(t.prerequisites).toContain('ndvi_calculator');
  });

  it('reads band roles and temporal shape from the text', () => {
    const t = deriveToolMetadata({
      id: 'wi',
      name: 'Water index',
      description: 'Computes a water index from the green and near-infrared bands for every image of a time series.',
    });
    expect(t.function).toBe('water_index');
    expect(t.inputs[0]).toMatchObject({ bands: ['green', 'nir'], temporal: 'series' });
    expect(t.prerequisites).toContain('atmospheric_correction');
  });

  it('keeps what the caller gave and only lists derived fields', () => {
    const t = deriveToolMetadata({
      id: 'lst',
      name: 'LST',
      description: 'Land surface temperature from Landsat 8 thermal infrared band 10 with a split-window algorithm.',
      function: 'temperature_retrieval',
      dataSources: ['Landsat-8'],
    });
    expect(t.function).toBe('temperature_retrieval');
    expect(t.dataSources).toEqual(['Landsat-8']);
    expect(t.derived).not.toContain('function');
    expect(t.derived).not.toContain('dataSources');
    expect(t.outputs[0]?.product).toBe('lst');
  });

  it('falls back to a generic task type when the text names nothing known', () => {
    const t = deriveToolMetadata({ id: 'q', name: 'Quux', description: 'Does something unrelated to imagery.' });
    expect(t.function).toBe(FALLBACK_FUNCTION);
  });
});

describe('productsCompatible', () => {
  const port = (p: Partial<ToolPort>): ToolPort => ({ name: 'p', type: 'raster', ...p });

  it('accepts the same product or one that stands in for it', () => {
    expect(productsCompatible(port({ product: 'surface_reflectance' }), port({ product: 'surface_reflectance' }))).toBe(true);
    expect(productsCompatible(port({ product: 'sigma0_filtered' }), port({ product: 'sigma0' }))).toBe(true);
    expect(productsCompatible(port({ product: 'ndvi' }), port({ product: 'vegetation_index' }))).toBe(true);
    expect(productsCompatible(port({ product: 'toa_reflectance' }), port({ product: 'surface_reflectance' }))).toBe(false);
    expect(productsCompatible(port({ product: 'sigma0' }), port({ product: 'backscatter_geocoded' }))).toBe(false);
  });

  it('lets a generic output possibly carry a specific product, not the reverse for specific outputs', () => {
    expect(productsCompatible(port({ product: 'optical_image' }), port({ product: 'surface_reflectance' }))).toBe(true);
    expect(productsCompatible(port({ product: 'dn_image' }), port({ product: 'surface_reflectance' }))).toBe(false);
  });

  it('requires matching port types and modalities', () => {
    expect(productsCompatible(port({}), { name: 'v', type: 'vector' })).toBe(false);
    expect(productsCompatible(port({ modality: 'sar' }), port({ modality: 'optical' }))).toBe(false);
  });

  it('requires the input bands to be present when both sides declare bands', () => {
    expect(productsCompatible(port({ bands: ['red', 'nir', 'green'] }), port({ bands: ['red', 'nir'] }))).toBe(true);
    expect(productsCompatible(port({ bands: ['red', 'green'] }), port({ bands: ['red', 'nir'] }))).toBe(false);
    expect(productsCompatible(port({}), port({ bands: ['red', 'nir'] }))).toBe(true);
  });

  it('checks temporal shape: a pair is not a time series', () => {
    expect(productsCompatible(port({ temporal: 'pair' }), port({ temporal: 'series' }))).toBe(false);
    expect(productsCompatible(port({ temporal: 'series' }), port({ temporal: 'pair' }))).toBe(true);
    expect(productsCompatible(port({ temporal: 'single' }), port({ temporal: 'pair' }))).toBe(true);
  });
});
