import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importSpectralIndices } from '../../../src/tools/importers/spectral-indices.ts';
import { ToolImportError } from '../../../src/tools/importers/import-error.ts';
import { bandRoleFor, functionInfo, productInfo } from '../../../src/tools/knowledge/index.ts';
import { hasSpectral, skipMessage, SPECTRAL_DIR } from './data-dir.ts';

describe('spectral-indices importer (inline input)', () => {
  const dict = {
    SpectralIndices: {
      TEST: {
        short_name: 'TEST', long_name: 'Test Water Index', application_domain: 'water', bands: ['G', 'S1'],
        formula: '(G - S1)/(G + S1)', platforms: ['Sentinel-2'], reference: 'https://example.org',
      },
      kTEST: {
        short_name: 'kTEST', long_name: 'Kernel Test', application_domain: 'kernel', bands: ['kNN', 'kNR'],
        formula: '(kNN - kNR)/(kNN + kNR)', platforms: ['Sentinel-2'],
      },
    },
  };

  it('works without bands.json (band codes from the knowledge graph)', () => {
    const [water, kernel] = importSpectralIndices(dict);
    expect(water).toMatchObject({ id: 'index:TEST', name: 'Test Water Index', function: 'water_index', catalog: 'spectral-indices' });
    expect(water?.inputs[0]?.bands).toEqual(['green', 'swir1']);
    expect(water?.outputs[0]?.product).toBe('water_index');
    expect(kernel?.id).toBe('index:kTEST');
    expect(kernel?.function).toBe('vegetation_index');
    expect(kernel?.inputs[0]?.bands).toEqual(['nir', 'red']);
  });

  it('rejects entries that are not indices', () => {
    expect(() => importSpectralIndices({ SpectralIndices: { X: { short_name: 'X' } } })).toThrow(ToolImportError);
    expect(() => importSpectralIndices([])).toThrow(/not a spectral-indices dictionary/);
  });
});

describe.skipIf(!hasSpectral)(hasSpectral ? 'spectral-indices importer (shared catalogue)' : skipMessage('spectral-indices-dict.json'), () => {
  const dict = hasSpectral
    ? (JSON.parse(readFileSync(`${SPECTRAL_DIR}/spectral-indices-dict.json`, 'utf8')) as { SpectralIndices: Record<string, unknown> })
    : { SpectralIndices: {} };
  const tools = hasSpectral ? importSpectralIndices(SPECTRAL_DIR) : [];
  const byId = new Map(tools.map((t) => [t.id, t]));

  it('creates one tool per dictionary entry, ids with case kept', () => {
    expect(tools).toHaveLength(Object.keys(dict.SpectralIndices).length);
    expect(new Set(tools.map((t) => t.id)).size).toBe(tools.length);
    for (const id of ['index:NDVI', 'index:kNDVI', 'index:NDPonI', 'index:SAVI', 'index:VHVVR']) expect(byId.has(id), id).toBe(true);
  });

  it('index:NDVI needs nir and red surface reflectance and outputs ndvi', () => {
    const ndvi = byId.get('index:NDVI')!;
    expect(ndvi.name).toBe('Normalized Difference Vegetation Index');
    expect(ndvi.function).toBe('vegetation_index');
    expect(ndvi.inputs[0]?.bands).toEqual(expect.arrayContaining(['nir', 'red']));
    expect(ndvi.inputs[0]?.product).toBe('surface_reflectance');
    expect(ndvi.outputs[0]?.product).toBe('ndvi');
    expect(ndvi.prerequisites).toEqual(['atmospheric_correction']);
    expect(ndvi.dataSources).toEqual(expect.arrayContaining(['Sentinel-2', 'Landsat-8', 'MODIS', 'Gaofen-2']));
    expect(ndvi.attributes.platformBands?.['Sentinel-2']).toEqual({ nir: 'B8', red: 'B4' });
    expect(ndvi.attributes.platformBands?.['Landsat-8']).toEqual({ nir: 'B5', red: 'B4' });
    expect(ndvi.description).toContain('(N - R)/(N + R)');
  });

  it('maps application domains to task types and products', () => {
    expect(byId.get('index:NDWI')?.function).toBe('water_index');
    expect(byId.get('index:NBR')?.function).toBe('burn_index');
    expect(byId.get('index:NBR')?.outputs[0]?.product).toBe('nbr');
    expect(byId.get('index:NDSI')?.function).toBe('snow_index');
    expect(byId.get('index:NDBI')?.function).toBe('urban_index');
    for (const t of tools) {
      expect(functionInfo(t.function), t.id).toBeDefined();
      expect(productInfo(t.outputs[0]!.product!), t.id).toBeDefined();
    }
  });

  it('gives an index the narrower product its own name speaks of, within its domain only', () => {
    const product = (id: string) => byId.get(id)?.outputs[0]?.product;
    expect(product('index:FAI')).toBe('algae_index');
    expect(product('index:NDCI')).toBe('algae_index');
    expect(product('index:NDTI')).toBe('turbidity_index');
    for (const id of ['index:NDMI', 'index:MSI', 'index:GVMI', 'index:NMDI']) expect(product(id), id).toBe('vegetation_water_index');
    // A vegetation index named for chlorophyll is not a water-quality index; a plain water index stays one.
    expect(product('index:CIG')).toBe('vegetation_index');
    expect(product('index:WRI')).toBe('water_index');
  });

  it('treats radar indices as SAR needing calibrated backscatter', () => {
    const r = byId.get('index:VHVVR')!;
    expect(r.function).toBe('radar_index');
    expect(r.modalities).toEqual(['sar']);
    expect(r.inputs[0]).toMatchObject({ product: 'sigma0', bands: ['vh', 'vv'] });
    expect(r.prerequisites).toEqual(['sar_calibration']);
    expect(r.dataSources).toContain('Sentinel-1');
  });

  it('gives every index known band roles and a red-edge index only red-edge sensors', () => {
    for (const t of tools) {
      const bands = t.inputs[0]?.bands ?? [];
      expect(bands.length, t.id).toBeGreaterThan(0);
      for (const b of bands) expect(bandRoleFor(b), `${t.id}: ${b}`).toBeDefined();
    }
    const ndre = tools.find((t) => t.inputs[0]?.bands?.includes('rededge1') && t.inputs[0].bands.length === 2)!;
    expect(ndre.dataSources).toContain('Sentinel-2');
    expect(ndre.dataSources).not.toContain('Gaofen-2');
  });
});
