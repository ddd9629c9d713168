import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolImportError } from '../../../src/tools/importers/import-error.ts';
import { importOpenEOProcesses } from '../../../src/tools/importers/openeo.ts';
import { isKnownCapabilityName, functionInfo } from '../../../src/tools/knowledge/index.ts';
import { hasOpenEO, OPENEO_DIR, skipMessage } from './data-dir.ts';

const minimalProcess = {
  id: 'my_index',
  summary: 'My vegetation index',
  description: 'Computes a vegetation index.\n\nSecond paragraph.',
  categories: ['vegetation indices'],
  parameters: [
    { name: 'data', description: 'A raster data cube.', schema: { type: 'object', subtype: 'datacube', dimensions: [{ type: 'bands' }, { type: 'temporal' }] } },
    { name: 'nir', description: 'NIR band', schema: { type: 'string', subtype: 'band-name' }, default: 'nir', optional: true },
    { name: 'factor', description: 'A factor', schema: { type: 'number' }, optional: true },
  ],
  returns: { description: 'A raster data cube with the NDVI values.', schema: { type: 'object', subtype: 'datacube' } },
};

describe('openEO importer (inline input)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openeo-import-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('imports a single process object', () => {
    const [t] = importOpenEOProcesses(minimalProcess);
    expect(t).toMatchObject({ id: 'my_index', name: 'My vegetation index', catalog: 'openeo', function: 'vegetation_index' });
    expect(t?.inputs).toEqual([{ name: 'data', type: 'raster', bands: ['nir'], temporal: 'series' }]);
    expect(t?.outputs[0]).toMatchObject({ type: 'raster', product: 'ndvi' });
  });

  it('imports a GET /processes response', () => {
    const tools = importOpenEOProcesses({ processes: [minimalProcess, { ...minimalProcess, id: 'other', experimental: true }], links: [] });
    expect(tools.map((t) => t.id)).toEqual(['my_index', 'other']);
    expect(tools[1]?.attributes.experimental).toBe(true);
    expect(tools[1]?.keywords).toContain('experimental');
  });

  it('names the file when the JSON is invalid', () => {
    const bad = join(dir, 'broken.json');
    writeFileSync(bad, '{"id": "broken", ');
    expect(() => importOpenEOProcesses(bad)).toThrow(ToolImportError);
    expect(() => importOpenEOProcesses(bad)).toThrow(/broken\.json/);
  });

  it('names the file when the JSON is not a process', () => {
    const odd = join(dir, 'odd.json');
    writeFileSync(odd, JSON.stringify({ hello: 'world' }));
    expect(() => importOpenEOProcesses(odd)).toThrow(/odd\.json/);
  });

  it('reports a missing path', () => {
    expect(() => importOpenEOProcesses(join(dir, 'nope'))).toThrow(/no such file/);
  });
});

describe.skipIf(!hasOpenEO)(hasOpenEO ? 'openEO importer (shared processes folder)' : skipMessage('openEO processes'), () => {
  const tools = hasOpenEO ? importOpenEOProcesses(OPENEO_DIR) : [];
  const byId = new Map(tools.map((t) => [t.id, t]));

  it('imports 118 stable + 37 proposed processes', () => {
    expect(tools).toHaveLength(155);
    expect(tools.filter((t) => t.attributes.experimental)).toHaveLength(37);
    expect(tools.every((t) => t.catalog === 'openeo')).toBe(true);
  });

  it('keeps openEO ids, including proposals', () => {
    for (const id of ['ndvi', 'aggregate_spatial', 'filter_temporal', 'sar_backscatter', 'cloud_detection', 'atmospheric_correction', 'ard_surface_reflectance', 'load_collection', 'save_result']) {
      expect(byId.has(id), id).toBe(true);
    }
    expect(byId.get('cloud_detection')?.attributes.experimental).toBe(true);
    expect(byId.get('ndvi')?.attributes.experimental).toBeUndefined();
  });

  it('derives ndvi: a raster data cube with red and nir bands in, an NDVI raster out', () => {
    const ndvi = byId.get('ndvi')!;
    expect(ndvi.name).toBe('Normalized Difference Vegetation Index');
    expect(ndvi.function).toBe('vegetation_index');
    expect(ndvi.inputs[0]).toMatchObject({ name: 'data', type: 'raster' });
    expect(ndvi.inputs[0]?.bands).toEqual(expect.arrayContaining(['nir', 'red']));
    expect(ndvi.outputs[0]).toMatchObject({ type: 'raster', product: 'ndvi' });
    expect(ndvi.prerequisites).toContain('atmospheric_correction');
    expect(ndvi.modalities).toContain('optical');
  });

  it('derives vector geometries and a vector cube for aggregate_spatial', () => {
    const t = byId.get('aggregate_spatial')!;
    expect(t.inputs.map((p) => [p.name, p.type])).toEqual([['data', 'raster'], ['geometries', 'vector']]);
    expect(t.outputs[0]?.type).toBe('vector');
    expect(t.function).toBe('statistics');
  });

  it('maps categories to task types', () => {
    expect(byId.get('sar_backscatter')?.function).toBe('sar_preprocessing');
    expect(byId.get('sar_backscatter')?.modalities).toContain('sar');
    expect(byId.get('cloud_detection')?.function).toBe('preprocessing_cloud');
    expect(byId.get('atmospheric_correction')?.function).toBe('preprocessing_atmospheric');
    expect(byId.get('filter_temporal')?.function).toBe('subsetting');
    expect(byId.get('aggregate_temporal_period')?.function).toBe('temporal_aggregation');
    expect(byId.get('load_collection')?.function).toBe('data_access');
    expect(byId.get('add')?.function).toBe('math');
    for (const t of tools) expect(functionInfo(t.function), `${t.id}: ${t.function}`).toBeDefined();
  });

  it('tags ports with products named in their descriptions', () => {
    expect(byId.get('atmospheric_correction')?.inputs[0]?.product).toBe('toa_reflectance');
    expect(byId.get('atmospheric_correction')?.outputs[0]?.product).toBe('surface_reflectance');
    expect(byId.get('cloud_detection')?.outputs[0]?.product).toBe('cloud_mask');
    expect(byId.get('sar_backscatter')?.outputs[0]?.product).toBe('sigma0');
    // The summary names the more specific product (CARD4L normalised radar backscatter is terrain corrected).
    expect(byId.get('ard_normalized_radar_backscatter')?.outputs[0]?.product).toBe('backscatter_geocoded');
    expect(byId.get('run_udf')?.function).toBe('udf');
  });

  it('only uses known prerequisite names and scalar ports for math', () => {
    for (const t of tools) for (const p of t.prerequisites) expect(isKnownCapabilityName(p), p).toBe(true);
    expect(byId.get('add')?.inputs.map((p) => p.type)).toEqual(['scalar', 'scalar']);
    expect(byId.get('load_collection')?.inputs.every((p) => p.optional)).toBe(true);
  });

  it('reads one process file and a GET /processes body the same way', () => {
    const file = join(OPENEO_DIR, 'ndvi.json');
    const fromFile = importOpenEOProcesses(file)[0];
    const fromBody = importOpenEOProcesses({ processes: [JSON.parse(readFileSync(file, 'utf8'))], links: [] })[0];
    expect({ ...fromFile, attributes: {} }).toEqual({ ...fromBody, attributes: {} });
  });
});
