/**
 * The web explorer (issue 10): a single page at `/` that asks `/v1/ask` and shows the answer on a map, the
 * candidates and their scores, the spatial/semantic scatter with the Pareto front, the recommended tools and
 * workflow, a clarification prompt and the generated SQL. Plain ES modules from src/web/static and Leaflet's
 * own dist files from node_modules: no build step, no CDN. The basemap comes from the database
 * (`GET /web/basemap`); a raster tile URL can be added with MAP_TILE_URL.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRoute, z } from '@hono/zod-openapi';
import { ConfigError } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { ExampleQuestion } from './examples.ts';
import { createRouter } from '../http/openapi-app.ts';
import { ApiError } from '../http/problem.ts';
import { explorerFunctions } from '../spatial/functions/labels.ts';
import {
  BASEMAP_LAYERS,
  DEFAULT_BASEMAP_LAYERS,
  DEFAULT_BASEMAP_LIMIT,
  loadBasemap,
  MAX_BASEMAP_LIMIT,
  placesExtent,
  type BasemapLayer,
} from './basemap.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};

/** Leaflet's files the page uses, by the path under /web/vendor/leaflet/ (an allow-list: nothing else is read). */
const LEAFLET_FILES = [
  'leaflet-src.esm.js',
  'leaflet-src.esm.js.map',
  'leaflet.css',
  'images/layers.png',
  'images/layers-2x.png',
  'images/marker-icon.png',
  'images/marker-icon-2x.png',
  'images/marker-shadow.png',
];

const STATIC_DIR = join(dirname(fileURLToPath(import.meta.url)), 'static');

interface Asset {
  body: Uint8Array;
  type: string;
}

function readAsset(path: string): Asset {
  return { body: new Uint8Array(readFileSync(path)), type: CONTENT_TYPES[extname(path)] ?? 'application/octet-stream' };
}

/** The page's own files (src/web/static), read once, by file name. */
function loadOwnAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(STATIC_DIR)) {
    if (name.endsWith('.d.ts') || !CONTENT_TYPES[extname(name)]) continue;
    assets.set(name, readAsset(join(STATIC_DIR, name)));
  }
  return assets;
}

function loadLeafletAssets(): Map<string, Asset> {
  const require = createRequire(import.meta.url);
  const dist = join(dirname(require.resolve('leaflet/package.json')), 'dist');
  return new Map(LEAFLET_FILES.map((file) => [file, readAsset(join(dist, file))]));
}

export interface TileSettings {
  url: string;
  attribution: string | null;
  maxZoom: number;
  /** The CSP source that lets the page load the tiles. */
  cspSource: string;
}

/**
 * MAP_TILE_URL (optional): an XYZ raster tile template such as `http://tiles.local/{z}/{x}/{y}.png`
 * (`{s}` subdomains allowed); MAP_TILE_ATTRIBUTION (optional text); MAP_TILE_MAX_ZOOM (default 19).
 * A bad value stops the service with one line naming the variable, as the other settings do.
 */
export function readTileSettings(env: NodeJS.ProcessEnv): TileSettings | null {
  const raw = env.MAP_TILE_URL?.trim();
  if (!raw) return null;
  const bad = (variable: string, value: string, why: string) =>
    new ConfigError(`invalid configuration: ${variable}=${JSON.stringify(value)}: ${why}`);
  if (!['{z}', '{x}', '{y}'].every((p) => raw.includes(p))) {
    throw bad('MAP_TILE_URL', raw, 'must contain {z}, {x} and {y}');
  }
  let parsed: URL;
  try {
    parsed = new URL(raw.replace(/\{s\}/g, 'a').replace(/\{[a-z]+\}/g, '0'));
  } catch {
    throw bad('MAP_TILE_URL', raw, 'must be an http(s) URL template');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw bad('MAP_TILE_URL', raw, 'must be an http(s) URL template');
  const attribution = env.MAP_TILE_ATTRIBUTION?.trim() || null;
  if (attribution && attribution.length > 300) throw bad('MAP_TILE_ATTRIBUTION', attribution, 'at most 300 characters');
  const zoomText = env.MAP_TILE_MAX_ZOOM?.trim();
  const maxZoom = zoomText ? Number(zoomText) : 19;
  if (!Number.isInteger(maxZoom) || maxZoom < 0 || maxZoom > 24) throw bad('MAP_TILE_MAX_ZOOM', zoomText ?? '', 'an integer 0..24');
  const cspSource = raw.includes('{s}') ? parsed.protocol : parsed.origin;
  return { url: raw, attribution, maxZoom, cspSource };
}

function contentSecurityPolicy(tiles: TileSettings | null): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data:${tiles ? ` ${tiles.cspSource}` : ''}`,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const bboxParam = z
  .string()
  .transform((text, ctx) => {
    const parts = text.split(',').map((p) => (p.trim() === '' ? Number.NaN : Number(p)));
    const [minLon, minLat, maxLon, maxLat] = parts as [number, number, number, number];
    const valid =
      parts.length === 4 &&
      parts.every(Number.isFinite) &&
      minLon >= -180 && maxLon <= 180 && minLat >= -90 && maxLat <= 90 &&
      minLon < maxLon && minLat < maxLat;
    if (!valid) {
      ctx.addIssue({ code: 'custom', message: 'bbox must be minLon,minLat,maxLon,maxLat in WGS84 degrees, min < max' });
      return z.NEVER;
    }
    return [minLon, minLat, maxLon, maxLat] as [number, number, number, number];
  })
  .openapi({ example: '-73.995,40.745,-73.970,40.760' });

const layersParam = z
  .string()
  .transform((text, ctx) => {
    const names = text.split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = names.filter((n) => !(BASEMAP_LAYERS as readonly string[]).includes(n));
    if (names.length === 0 || unknown.length > 0) {
      ctx.addIssue({ code: 'custom', message: `layers: a comma-separated list of ${BASEMAP_LAYERS.join(', ')}` });
      return z.NEVER;
    }
    return names as BasemapLayer[];
  })
  .openapi({ example: 'streets,areas,neighbourhoods' });

const basemapQuery = z.strictObject({
  bbox: bboxParam,
  layers: layersParam.optional(),
  // Per layer; a limit above the maximum is clamped, as on the OGC items route.
  limit: z.coerce.number().int().min(1).default(DEFAULT_BASEMAP_LIMIT).transform((n) => Math.min(n, MAX_BASEMAP_LIMIT)),
});

const basemapRoute = createRoute({
  method: 'get',
  path: '/web/basemap',
  tags: ['web'],
  summary: 'Basemap vectors from the database in a bbox: streets, areas, buildings, neighbourhood outlines (simplified, limited per layer)',
  request: { query: basemapQuery },
  responses: {
    200: { description: 'GeoJSON FeatureCollection; properties.layer names the layer', content: { 'application/geo+json': { schema: z.any() } } },
    400: { description: 'invalid or unknown query parameter' },
  },
});

const configRoute = createRoute({
  method: 'get',
  path: '/web/config',
  tags: ['web'],
  summary: "The explorer's settings: the optional raster tile URL, the extent of the data, the spatial functions' search areas and labels",
  responses: { 200: { description: 'settings', content: { 'application/json': { schema: z.any() } } } },
});

const examplesRoute = createRoute({
  method: 'get',
  path: '/web/examples',
  tags: ['web'],
  summary: "The explorer's example questions, made from what the database holds; each answers with at least one candidate",
  responses: {
    200: {
      description: 'example questions',
      content: { 'application/json': { schema: z.object({ examples: z.array(z.object({ lang: z.enum(['en', 'zh']), question: z.string() })) }) } },
    },
  },
});

export interface WebDeps {
  db: Db;
  /** The example questions (src/web/examples.ts); none when absent. */
  examples?: () => Promise<ExampleQuestion[]>;
  /** Where MAP_TILE_* are read from; process.env by default. */
  env?: NodeJS.ProcessEnv;
}

export function webRoutes(deps: WebDeps) {
  const tiles = readTileSettings(deps.env ?? process.env);
  const own = loadOwnAssets();
  const leaflet = loadLeafletAssets();
  const csp = contentSecurityPolicy(tiles);
  const router = createRouter();

  const send = (asset: Asset, cache: string, extra: Record<string, string> = {}) =>
    new Response(asset.body, {
      status: 200,
      headers: { 'content-type': asset.type, 'cache-control': cache, 'x-content-type-options': 'nosniff', ...extra },
    });

  const page = own.get('index.html');
  if (!page) throw new Error(`the explorer page is missing: ${join(STATIC_DIR, 'index.html')}`);
  router.get('/', () => send(page, 'no-cache', { 'content-security-policy': csp, 'referrer-policy': 'no-referrer' }));

  router.get('/web/assets/:name', (c) => {
    const name = c.req.param('name');
    const asset = name === 'index.html' ? undefined : own.get(name);
    if (!asset) throw new ApiError(404, 'Not Found', `no asset ${name}`);
    return send(asset, 'no-cache');
  });

  for (const [file, asset] of leaflet) {
    router.get(`/web/vendor/leaflet/${file}`, () => send(asset, 'public, max-age=86400'));
  }

  router.openapi(configRoute, async (c) => {
    const extent = await placesExtent(deps.db);
    return c.json(
      {
        tiles: tiles ? { url: tiles.url, attribution: tiles.attribution, maxZoom: tiles.maxZoom } : null,
        extent,
        basemapLayers: BASEMAP_LAYERS,
        // How the page draws and names each spatial function's search area, from the functions' specs.
        spatialFunctions: explorerFunctions(),
      },
      200,
    );
  });

  router.openapi(examplesRoute, async (c) => c.json({ examples: deps.examples ? await deps.examples() : [] }, 200));

  router.openapi(basemapRoute, async (c) => {
    const query = c.req.valid('query');
    const body = await loadBasemap(deps.db, query.bbox, query.layers ?? DEFAULT_BASEMAP_LAYERS, query.limit);
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/geo+json', 'cache-control': 'no-cache' },
    }) as never;
  });

  return router;
}
