import { createRouter } from '../http/openapi-app.ts';
import { type OgcDeps, ogcHandlers } from './ogc.handlers.ts';
import { collectionRoute, collectionsRoute, conformanceRoute, landingRoute, queryablesRoute, tileRoute } from './ogc.routes.ts';

export function ogcRouter(deps: OgcDeps) {
  const h = ogcHandlers(deps);
  const router = createRouter();
  // `/` is shared with the web explorer: a plain route that passes browsers on, its definition registered for the document.
  router.openAPIRegistry.registerPath(landingRoute);
  router.get('/', h.landing);
  return router
    .openapi(conformanceRoute, h.conformance)
    .openapi(collectionsRoute, h.collections)
    .openapi(collectionRoute, h.collection)
    .openapi(queryablesRoute, h.queryables)
    .openapi(tileRoute, h.tile);
}
