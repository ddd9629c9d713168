import { createRouter } from '../http/openapi-app.ts';
import { type AppFetch, mcpHandlers } from './mcp.handlers.ts';
import { MCP_PATH } from './mcp.routes.ts';

export type { AppFetch } from './mcp.handlers.ts';

export function mcpRouter(appFetch: AppFetch) {
  const h = mcpHandlers(appFetch);
  const router = createRouter();
  router.post(MCP_PATH, h.post);
  router.on(['GET', 'DELETE'], MCP_PATH, h.notAllowed);
  return router;
}
