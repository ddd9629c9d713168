/**
 * GDAL (ogrinfo, ogr2ogr: Debian's gdal-bin, installed by scripts/install-gdal.sh) as the OGC API – Features
 * client, the way QGIS reaches the service, against the started service on the Midtown data. A recording
 * proxy in front of the service is the request log: it shows what GDAL asked the server.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasNycData, NO_NYC_DATA } from '../helpers/data.ts';
import { testMode } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

const run = promisify(execFile);

function hasGdal(): boolean {
  try {
    execFileSync('ogrinfo', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const gdal = hasGdal();
const NO_GDAL = 'skipped: ogrinfo not found (install gdal-bin: bash scripts/install-gdal.sh)';

/** Forwards to the service unchanged (Host included, so the service's links point back here) and notes each URL. */
async function startRecordingProxy(target: number): Promise<{ url: string; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const upstream = request({ host: '127.0.0.1', port: target, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}

/** GDAL's diagnostics: its error and warning lines, on either stream. */
const problemLines = (output: string) => output.split('\n').filter((line) => /^(ERROR|Warning)\b/i.test(line.trim()));

describe.skipIf(!gdal || !hasNycData)(`GDAL as the OGC API - Features client on the Midtown data (${testMode} mode)`, () => {
  if (!gdal) console.warn(NO_GDAL);
  if (!hasNycData) console.warn(NO_NYC_DATA);
  let service: TestService;
  let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
  let dir: string;
  const oapif = () => `OAPIF:${proxy.url}`;
  // GDAL pages 10 features a request unless told otherwise; the service allows 1000.
  const PAGE = ['-oo', 'PAGE_SIZE=1000'];

  beforeAll(async () => {
    service = await startTestService({}, { fixture: 'nyc' });
    proxy = await startRecordingProxy(service.port);
    dir = mkdtempSync(join(tmpdir(), 'srag-gdal-'));
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.server.close(resolve));
    await service?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('ogrinfo lists the collections without an error or warning line', async () => {
    const { stdout, stderr } = await run('ogrinfo', ['-ro', oapif()]);
    expect(problemLines(stdout + stderr)).toEqual([]);
    expect(stdout).toMatch(/\d+: places \(title: All places\)/);
    expect(stdout).toMatch(/\d+: osm \(title: Places from osm/);
  });

  it("ogrinfo -so reports the collection's extent, as the data has it, and its feature count", async () => {
    const { stdout, stderr } = await run('ogrinfo', ['-ro', '-so', oapif(), 'osm']);
    expect(problemLines(stdout + stderr)).toEqual([]);
    const { rows } = await sql<{ minx: number; miny: number; maxx: number; maxy: number; n: number }>`
      SELECT ST_XMin(e) AS minx, ST_YMin(e) AS miny, ST_XMax(e) AS maxx, ST_YMax(e) AS maxy, n
      FROM (SELECT ST_Extent(geom) AS e, count(*)::int AS n FROM places WHERE source = 'osm') t`.execute(service.database.db);
    const r = rows[0]!;
    const f = (v: number) => Number(v).toFixed(6);
    expect(stdout).toContain(`Extent: (${f(r.minx)}, ${f(r.miny)}) - (${f(r.maxx)}, ${f(r.maxy)})`);
    expect(stdout).toContain(`Feature Count: ${Number(r.n)}`);
  });

  it("ogr2ogr -f GPKG of a bbox writes as many features as the API's numberMatched", async () => {
    const bbox = [-73.99, 40.75, -73.985, 40.755];
    const out = join(dir, 'bbox.gpkg');
    // -nlt GEOMETRY: a collection mixes points, lines and polygons, and GDAL guesses the type from a sample.
    const written = await run('ogr2ogr', ['-f', 'GPKG', out, oapif(), 'osm', '-spat', ...bbox.map(String), '-nlt', 'GEOMETRY', ...PAGE]);
    expect(problemLines(written.stdout + written.stderr)).toEqual([]);
    const { stdout } = await run('ogrinfo', ['-ro', '-so', out, 'osm']);
    const count = Number(/Feature Count: (\d+)/.exec(stdout)![1]);
    const page = (await (await fetch(`${service.url}/collections/osm/items?limit=1&bbox=${bbox.join(',')}`)).json()) as { numberMatched: number };
    expect(count).toBeGreaterThan(100);
    expect(count).toBe(page.numberMatched);
    expect(proxy.requests.some((u) => u.includes('bbox='))).toBe(true);
  });

  it("-where \"category = 'cafe'\" goes to the server as a CQL2 filter and returns what SQL on the table returns", async () => {
    const before = proxy.requests.length;
    const { stdout, stderr } = await run('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', oapif(), 'osm', '-where', "category = 'cafe'", ...PAGE], { maxBuffer: 64 * 1024 * 1024 });
    expect(problemLines(stderr)).toEqual([]);
    const filtered = proxy.requests.slice(before).filter((u) => u.startsWith('/collections/osm/items'));
    const sent = filtered.map((u) => new URL(u, proxy.url).searchParams).filter((p) => p.has('filter'));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent[0]!.get('filter')).toBe("category = 'cafe'");
    // GDAL 3.6 names the text encoding by its draft name; the service reads it as CQL2 text.
    expect(['cql2-text', 'cql-text']).toContain(sent[0]!.get('filter-lang'));
    const got = (JSON.parse(stdout) as { features: { properties: { sourceId: string } }[] }).features.map((f) => f.properties.sourceId).sort();
    const { rows } = await sql<{ source_id: string }>`
      SELECT source_id FROM places WHERE source = 'osm' AND category = 'cafe'`.execute(service.database.db);
    expect(rows.length).toBeGreaterThan(50);
    expect(got).toEqual(rows.map((r) => r.source_id).sort());
  });
});
