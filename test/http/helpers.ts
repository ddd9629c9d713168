// A bare app with the HTTP edge's defences and stand-ins for the real routes (no database). The route
// definitions are loaded so that their declared policies are registered; requests go through
// `app.request()`, which has no socket.
import '../../src/ask/ask.routes.ts';
import '../../src/mcp/mcp.routes.ts';
import '../../src/memory/memory.routes.ts';
import '../../src/ogc/ogc.routes.ts';
import '../../src/places/places.routes.ts';
import '../../src/tools/tools.routes.ts';
import { dependencyFailure } from '../../src/http/dependency-failure/dependency-failure.ts';
import { createRouter } from '../../src/http/openapi-app.ts';
import { ApiError, problem } from '../../src/http/problem.ts';
import { DEFAULT_SECURITY, installSecurity, type SecurityOptions } from '../../src/http/security.ts';

export interface Problem {
  status: number;
  title: string;
  detail?: string;
  errors?: { in: string; field: string; message: string }[];
}

/** A bare app with the defences and stand-ins for the real routes; each answers 200 after `handlerDelayMs`. */
/** `handlerWork`: how long each handler works, in ms, or a promise it waits for (the test decides when work ends). */
export function testApp(overrides: Partial<SecurityOptions> = {}, handlerWork: number | Promise<unknown> = 0) {
  const app = createRouter();
  installSecurity(app, { ...DEFAULT_SECURITY, ...overrides });
  const ok = async (c: { json: (b: unknown) => Response; req: { raw: Request } }) => {
    if (typeof handlerWork !== 'number') await handlerWork;
    else if (handlerWork) await new Promise((r) => setTimeout(r, handlerWork));
    return c.json({ ok: true });
  };
  app.post('/v1/ask', ok);
  app.post('/v1/tools', ok);
  app.put('/v1/tools/:id', ok);
  app.delete('/v1/tools/:id', ok);
  app.post('/v1/tools/search', ok);
  app.get('/v1/tools', ok);
  app.post('/v1/:op{places:import}', ok);
  app.post('/v1/runs', ok);
  app.get('/v1/memory/workflows', ok);
  app.get('/collections/:id/items', ok);
  app.get('/fail/:kind', (c) => {
    const error = Object.assign(new Error('boom'), { code: c.req.param('kind') });
    throw error;
  });
  app.onError((error, c) => {
    if (error instanceof ApiError) return problem(c, error);
    return dependencyFailure(c, error) ?? problem(c, new ApiError(500, 'Internal Server Error', 'unexpected'));
  });
  return app;
}

export const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
