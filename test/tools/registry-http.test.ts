import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineEmbedderWithLexicons } from '../../src/embedding/configured.ts';
import { ToolImportError } from '../../src/tools/importers/import-error.ts';
import { importToolCatalogs } from '../../src/tools/registry.ts';
import { testMode } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

interface Problem {
  status: number;
  title: string;
  detail?: string;
  errors?: { in: string; field: string; message: string }[];
}

/** Made-up words (letters only), one per tool, so that each registered tool has a unique name. */
function pseudoWord(i: number): string {
  const a = 'bcdfghjklmnpqrstvwxz';
  const v = 'aeiou';
  return `${a[i % 20]}${v[Math.floor(i / 20) % 5]}${a[(i * 7) % 20]}${v[(i * 3) % 5]}${a[(i * 11 + 3) % 20]}ex`;
}

describe(`tool registry over HTTP (${testMode} mode)`, () => {
  let service: TestService;
  const post = (path: string, body: unknown) =>
    fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const put = (path: string, body: unknown) =>
    fetch(`${service.url}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => service?.stop());

  it('searches an empty registry without failing', async () => {
    const res = await post('/v1/tools/search', { query: 'compute NDVI' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { tools: unknown[] }).tools).toEqual([]);
  });

  it('registers a tool from id, name and description, and says what was derived', async () => {
    const res = await post('/v1/tools', {
      id: 'acme_bitemporal',
      name: 'Bitemporal change detector',
      description: 'Detects changes between two co-registered Sentinel-2 images acquired on different dates.',
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { tool: Record<string, unknown>; derived: string[] };
    expect(body.derived).toEqual(expect.arrayContaining(['function', 'inputs', 'outputs', 'prerequisites']));
    expect(body.tool).toMatchObject({ id: 'acme_bitemporal', catalog: 'default', function: 'change_detection', dataSources: ['Sentinel-2'] });
    expect(body.tool.prerequisites).toContain('image_registration');
    expect(body.tool.capabilityText).toContain('Requires first');
    expect(body.tool.embeddingModel).toMatch(/^offline-ngram/);

    const got = await fetch(`${service.url}/v1/tools/acme_bitemporal`);
    expect(got.status).toBe(200);
    expect(((await got.json()) as { name: string }).name).toBe('Bitemporal change detector');
  });

  it('answers 409 on an existing id', async () => {
    const res = await post('/v1/tools', { id: 'acme_bitemporal', name: 'Again', description: 'Same id.' });
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(((await res.json()) as Problem).detail).toContain('acme_bitemporal');
  });

  it('names the offending field in validation errors', async () => {
    const cases: [string, unknown, string][] = [
      ['/v1/tools', { id: 'x1', name: 'X' }, 'description'],
      ['/v1/tools', { id: 'x2', name: 'X', description: 'd', colour: 'red' }, 'colour'],
      ['/v1/tools', { id: 'x3', name: 'X', description: 'd', function: 'Change Detection' }, 'function'],
      ['/v1/tools', { id: 'has space', name: 'X', description: 'd' }, 'id'],
      ['/v1/tools', { id: 'x4', name: 'X', description: 'd', inputs: [{ name: 'a', type: 'cube' }] }, 'inputs.0.type'],
      ['/v1/tools/search', { query: 'ndvi', k: 0 }, 'k'],
      ['/v1/tools/search', { query: 'ndvi', context: { level: 'L1C' } }, 'context.level'],
      ['/v1/tools/search', { k: 5 }, 'query'],
      ['/v1/workflows/plan', { query: '' }, 'query'],
    ];
    for (const [path, body, field] of cases) {
      const res = await post(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      const problem = (await res.json()) as Problem;
      expect(problem.errors?.map((e) => e.field), JSON.stringify(problem)).toContain(field);
    }
  });

  it('updates, lists and deletes', async () => {
    const updated = await put('/v1/tools/acme_bitemporal', {
      name: 'Bitemporal change detector',
      description: 'Computes the change magnitude between two co-registered SAR backscatter images (log-ratio).',
      modalities: ['sar'],
    });
    expect(updated.status).toBe(200);
    const body = (await updated.json()) as { tool: { modalities: string[]; description: string }; derived: string[] };
    expect(body.tool.modalities).toEqual(['sar']);
    expect(body.derived).not.toContain('modalities');

    expect((await put('/v1/tools/nope', { name: 'N', description: 'd' })).status).toBe(404);
    const mismatch = await put('/v1/tools/acme_bitemporal', { id: 'other', name: 'N', description: 'd' });
    expect(mismatch.status).toBe(400);
    expect(((await mismatch.json()) as Problem).errors?.[0]?.field).toBe('id');

    const list = (await (await fetch(`${service.url}/v1/tools?catalog=default&q=bitemporal`)).json()) as { tools: { id: string }[]; total: number };
    expect(list.tools.map((t) => t.id)).toEqual(['acme_bitemporal']);
    expect(list.total).toBe(1);
    expect((await fetch(`${service.url}/v1/tools?bogus=1`)).status).toBe(400);

    expect((await fetch(`${service.url}/v1/tools/acme_bitemporal`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(`${service.url}/v1/tools/acme_bitemporal`, { method: 'DELETE' })).status).toBe(404);
    expect((await fetch(`${service.url}/v1/tools/acme_bitemporal`)).status).toBe(404);
  });

  it('imports a file of tool records (this registry\'s own format) with derivation, and rejects unknown paths', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'srag-tools-'));
    try {
      const file = join(dir, 'acme.json');
      writeFileSync(
        file,
        JSON.stringify({
          catalog: 'acme',
          tools: [
            { id: 'acme_ships', name: 'Vessel finder', description: 'Finds ships in Sentinel-1 radar scenes with a CFAR detector.' },
            { id: 'acme_lst', name: 'Split-window LST', description: 'Land surface temperature from two thermal bands.', function: 'temperature_retrieval' },
          ],
        }),
      );
      const [report] = await importToolCatalogs(service.database.db, createOfflineEmbedderWithLexicons(), [file]);
      expect(report).toMatchObject({ kind: 'tool-records', read: 2, written: 2 });
      const ships = (await (await fetch(`${service.url}/v1/tools/acme_ships`)).json()) as { catalog: string; function: string; derived: string[] };
      expect(ships).toMatchObject({ catalog: 'acme', function: 'object_detection' });
      expect(ships.derived).toContain('function');
      const lst = (await (await fetch(`${service.url}/v1/tools/acme_lst`)).json()) as { function: string; derived: string[] };
      expect(lst.function).toBe('temperature_retrieval');
      expect(lst.derived).not.toContain('function');
      await expect(importToolCatalogs(service.database.db, createOfflineEmbedderWithLexicons(), [join(dir, 'missing.json')])).rejects.toThrow(ToolImportError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds a tool whose name is a code identifier by the words of that identifier', async () => {
    // Catalogs name tools as code ("ChangeDetection", "mask_clouds"); a request says the words. Here the
    // descriptions share no word with the request: only the name can decide.
    const tools = [
      { id: 'code.ChangeDetection', name: 'ChangeDetection', description: 'Compares two images of the same area and returns where they differ.' },
      { id: 'code.BuildingFootprints', name: 'BuildingFootprints', description: 'Outlines every roof in a very high resolution scene.' },
      { id: 'code.fill_gaps', name: 'fill_gaps', description: 'Interpolates missing pixels from neighbouring dates.' },
    ];
    for (const tool of tools) expect((await post('/v1/tools', { ...tool, catalog: 'code' })).status).toBe(201);
    const first = async (query: string) => {
      const body = (await (await post('/v1/tools/search', { query, k: 3, catalogs: ['code'] })).json()) as { tools: { id: string }[] };
      return body.tools[0]?.id;
    };
    expect(await first('change detection between the two dates')).toBe('code.ChangeDetection');
    expect(await first('building footprints of the town')).toBe('code.BuildingFootprints');
    expect(await first('fill the gaps left by clouds')).toBe('code.fill_gaps');
  });

  it('finds each of 100 tools registered with only id/name/description, right after registration', async () => {
    const words = Array.from({ length: 100 }, (_, i) => pseudoWord(i));
    expect(new Set(words).size).toBe(100);
    for (let i = 0; i < 100; i++) {
      const res = await post('/v1/tools', {
        id: `acme_${String(i).padStart(3, '0')}`,
        name: `${words[i]} ${i % 2 ? 'water body extractor' : 'crop classifier'}`,
        description: `The ${words[i]} method ${i % 2 ? 'delineates lakes and rivers' : 'maps crop types'} in optical imagery.`,
      });
      expect(res.status).toBe(201);
      if (i < 3) {
        // Searchable at once: no re-indexing, no retraining.
        const hit = (await (await post('/v1/tools/search', { query: `${words[i]} method`, k: 3 })).json()) as { tools: { id: string }[] };
        expect(hit.tools[0]?.id).toBe(`acme_${String(i).padStart(3, '0')}`);
      }
    }
    let found = 0;
    for (let i = 0; i < 100; i++) {
      const res = await post('/v1/tools/search', { query: `${words[i]} ${i % 2 ? 'water bodies' : 'crops'}`, k: 5 });
      const body = (await res.json()) as { tools: { id: string }[] };
      if (body.tools[0]?.id === `acme_${String(i).padStart(3, '0')}`) found++;
    }
    expect(found).toBe(100);
  }, 180_000);
});
