import { createRouter } from '../openapi-app.ts';
import { backupHandler, type OperationsDeps, reembedHandler } from './operations.handlers.ts';
import { backupRoute, reembedRoute } from './operations.routes.ts';

export function operationsRouter(deps: OperationsDeps) {
  return createRouter().openapi(reembedRoute, reembedHandler(deps)).openapi(backupRoute, backupHandler(deps));
}
