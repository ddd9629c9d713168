import { createRouter } from '../http/openapi-app.ts';
import { webHandlers, type WebDeps } from './web.handlers.ts';
import { basemapRoute, configRoute, examplesRoute } from './web.routes.ts';

export type { WebDeps } from './web.handlers.ts';

export function webRouter(deps: WebDeps) {
  const h = webHandlers(deps);
  const router = createRouter();
  router.get('/', h.page);
  router.get('/web/assets/:name', h.ownAsset);
  for (const { file, handler } of h.vendorFiles) router.get(`/web/vendor/leaflet/${file}`, handler);
  return router.openapi(configRoute, h.config).openapi(examplesRoute, h.examples).openapi(basemapRoute, h.basemap);
}
