/**
 * The web explorer: a single page at `/` that asks `/v1/ask` and shows the answer on a map, the
 * candidates and their scores, the spatial/semantic scatter with the Pareto front, the recommended tools and
 * workflow, a clarification prompt and the generated SQL. Plain ES modules from src/web/static and Leaflet's
 * own dist files from node_modules: no build step, no CDN. The basemap comes from the database
 * (`GET /web/basemap`); a raster tile URL can be added with MAP_TILE_URL.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'hono';
import { ConfigError } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { AppEnv, AppRouteHandler } from '../http/openapi-app.ts';
import { ApiError } from '../http/problem.ts';
import { explorerFunctions } from '../spatial/functions/labels.ts';
import { BASEMAP_LAYERS, DEFAULT_BASEMAP_LAYERS, loadBasemap, placesExtent } from './basemap.ts';
import type { ExampleQuestion } from './examples.ts';
import type { basemapRoute, configRoute, examplesRoute } from './web.routes.ts';

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

export interface WebDeps {
  db: Db;
  /** The example questions (src/web/examples.ts); none when absent. */
  examples?: () => Promise<ExampleQuestion[]>;
  /** Where MAP_TILE_* are read from; process.env by default. */
  env?: NodeJS.ProcessEnv;
}

const send = (asset: Asset, cache: string, extra: Record<string, string> = {}) =>
  new Response(asset.body, {
    status: 200,
    headers: { 'content-type': asset.type, 'cache-control': cache, 'x-content-type-options': 'nosniff', ...extra },
  });

export function webHandlers(deps: WebDeps) {
  const tiles = readTileSettings(deps.env ?? process.env);
  const own = loadOwnAssets();
  const leaflet = loadLeafletAssets();
  const csp = contentSecurityPolicy(tiles);

  const pageAsset = own.get('index.html');
  if (!pageAsset) throw new Error(`the explorer page is missing: ${join(STATIC_DIR, 'index.html')}`);
  const page = () => send(pageAsset, 'no-cache', { 'content-security-policy': csp, 'referrer-policy': 'no-referrer' });

  const ownAsset = (c: Context<AppEnv>) => {
    const name = c.req.param('name') ?? '';
    const asset = name === 'index.html' ? undefined : own.get(name);
    if (!asset) throw new ApiError(404, 'Not Found', `no asset ${name}`);
    return send(asset, 'no-cache');
  };

  /** Leaflet's files, each its own route (an allow-list: nothing else is read). */
  const vendorFiles = [...leaflet].map(([file, asset]) => ({ file, handler: () => send(asset, 'public, max-age=86400') }));

  const config: AppRouteHandler<typeof configRoute> = async (c) => {
    const extent = await placesExtent(deps.db);
    return c.json(
      {
        tiles: tiles ? { url: tiles.url, attribution: tiles.attribution, maxZoom: tiles.maxZoom } : null,
        extent,
        basemapLayers: [...BASEMAP_LAYERS],
        // How the page draws and names each spatial function's search area, from the functions' specs.
        spatialFunctions: explorerFunctions(),
      },
      200,
    );
  };

  const examples: AppRouteHandler<typeof examplesRoute> = async (c) => c.json({ examples: deps.examples ? await deps.examples() : [] }, 200);

  const basemap: AppRouteHandler<typeof basemapRoute> = async (c) => {
    const query = c.req.valid('query');
    const body = await loadBasemap(deps.db, query.bbox, query.layers ?? DEFAULT_BASEMAP_LAYERS, query.limit);
    // GeoJSON with its own media type, which the typed c.json would overwrite.
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/geo+json', 'cache-control': 'no-cache' },
    }) as never;
  };

  return { page, ownAsset, vendorFiles, config, examples, basemap };
}
