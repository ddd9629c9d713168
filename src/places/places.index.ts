import { createRouter } from '../http/openapi-app.ts';
import { importBodyLimit, type PlacesDeps, placesHandlers } from './places.handlers.ts';
import { importRoute, itemRoute, itemsRoute, placeRoute } from './places.routes.ts';

export function placesRouter(deps: PlacesDeps) {
  const h = placesHandlers(deps);
  const router = createRouter().openapi(itemsRoute, h.items).openapi(itemRoute, h.item).openapi(placeRoute, h.place);
  // `/v1/places:import` (a custom method, AIP-136 style) is one path segment with a colon, which Hono's path
  // syntax reads as a parameter; and it takes JSON or a place stream. So it is a plain route matched by a
  // pattern, its definition registered for the document under its real path.
  router.openAPIRegistry.registerPath(importRoute);
  router.post('/v1/:op{places:import}', importBodyLimit, h.importPlaces);
  return router;
}
