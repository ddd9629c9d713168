import { createRouter } from '../openapi-app.ts';
import { type HealthDeps, livezHandler, readyzHandler } from './health.handlers.ts';
import { livez, readyz } from './health.routes.ts';

export type { Lifecycle } from './health.handlers.ts';

export function healthRouter(deps: HealthDeps) {
  return createRouter().openapi(livez, livezHandler).openapi(readyz, readyzHandler(deps));
}
