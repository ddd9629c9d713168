import { createRouter } from '../http/openapi-app.ts';
import { toolsHandlers, type ToolsDeps } from './tools.handlers.ts';
import { registerRoute, getRoute, importRoute, listRoute, planRoute, removeRoute, searchRoute, updateRoute } from './tools.routes.ts';

export function toolsRouter(deps: ToolsDeps) {
  const h = toolsHandlers(deps);
  const router = createRouter()
    .openapi(registerRoute, h.create)
    .openapi(updateRoute, h.update)
    .openapi(getRoute, h.get)
    .openapi(listRoute, h.list)
    .openapi(removeRoute, h.remove)
    .openapi(searchRoute, h.search)
    .openapi(planRoute, h.plan);
  // `/v1/tools:import` is one path segment with a colon, which Hono's path syntax reads as a parameter: it is
  // a plain route matched by a pattern, its definition registered for the document under its real path.
  router.openAPIRegistry.registerPath(importRoute);
  router.post('/v1/:op{tools:import}', h.importCatalog);
  return router;
}
