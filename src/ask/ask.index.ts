import { createRouter } from '../http/openapi-app.ts';
import { askHandler, type AskRouteDeps } from './ask.handlers.ts';
import { askRoute } from './ask.routes.ts';

export function askRouter(deps: AskRouteDeps) {
  return createRouter().openapi(askRoute, askHandler(deps));
}
