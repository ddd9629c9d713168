/**
 * The web explorer's routes. The page and its static files are plain Hono routes (HTML, scripts, images:
 * nothing for the OpenAPI document), declared here with their policy like the JSON routes.
 */
import { z } from '@hono/zod-openapi';
import { FeaturePropertiesSchema, GeometrySchema, invalidRequest, jsonContent } from '../http/openapi-helpers.ts';
import { declareRoute, defineRoute } from '../http/route-policy.ts';
import { BASEMAP_LAYERS, DEFAULT_BASEMAP_LIMIT, MAX_BASEMAP_LIMIT, type BasemapLayer } from './basemap.ts';

export const pageRoute = declareRoute({ method: 'get', path: '/', policy: 'read' });
export const assetRoute = declareRoute({ method: 'get', path: '/web/assets/{name}', policy: 'read' });
export const vendorRoute = declareRoute({ method: 'get', path: '/web/vendor/leaflet/*', policy: 'read' });

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

const BasemapCollection = z
  .object({
    type: z.literal('FeatureCollection'),
    features: z.array(z.object({ type: z.literal('Feature'), geometry: GeometrySchema, properties: FeaturePropertiesSchema })),
  })
  .openapi('Basemap', { description: 'GeoJSON FeatureCollection; properties.layer names the layer' });

export const basemapRoute = defineRoute({
  policy: 'read',
  method: 'get',
  path: '/web/basemap',
  tags: ['web'],
  summary: 'Basemap vectors from the database in a bbox: streets, areas, buildings, neighbourhood outlines (simplified, limited per layer)',
  request: { query: basemapQuery },
  responses: {
    200: { description: 'GeoJSON FeatureCollection; properties.layer names the layer', content: { 'application/geo+json': { schema: BasemapCollection } } },
    400: invalidRequest,
  },
});

const languageLabels = z.object({ area: z.string(), place: z.string() });

/** How the explorer draws and names each spatial function's search area (src/spatial/functions). */
const ExplorerFunctions = z
  .record(
    z.string(),
    z.object({
      searchArea: z.object({
        kind: z.enum(['radius', 'buffer', 'fill', 'ring', 'corridor', 'sector']),
        metres: z.string().optional(),
        sector: z.object({ field: z.string(), degrees: z.record(z.string(), z.number()), halfWidthDeg: z.number() }).optional(),
      }),
      labels: z.object({
        en: languageLabels,
        zh: languageLabels,
        words: z.object({ en: z.record(z.string(), z.string()), zh: z.record(z.string(), z.string()) }).optional(),
      }),
    }),
  )
  .openapi('ExplorerFunctions');

const ExplorerConfig = z
  .object({
    tiles: z.object({ url: z.string(), attribution: z.string().nullable(), maxZoom: z.number() }).nullable(),
    extent: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
    basemapLayers: z.array(z.enum(BASEMAP_LAYERS)),
    spatialFunctions: ExplorerFunctions,
  })
  .openapi('ExplorerConfig');

export const configRoute = defineRoute({
  policy: 'read',
  method: 'get',
  path: '/web/config',
  tags: ['web'],
  summary: "The explorer's settings: the optional raster tile URL, the extent of the data, the spatial functions' search areas and labels",
  responses: { 200: jsonContent(ExplorerConfig, 'settings') },
});

export const examplesRoute = defineRoute({
  policy: 'read',
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

