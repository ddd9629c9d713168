/**
 * The MCP transport's handlers: nothing is kept between requests and any instance can answer. Tool calls go
 * to the REST routes of the same app with the caller's socket and Authorization header (src/mcp/server.ts).
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context } from 'hono';
import { isLoopback } from '../http/access/access-control.ts';
import type { AppEnv } from '../http/openapi-app.ts';
import { ApiError, problem } from '../http/problem.ts';
import { MCP_PATH } from './mcp.routes.ts';
import { createMcpServer, type RouteRequest } from './server.ts';

/** The app the calls are dispatched to: `fetch(request, env)` of the Hono app this route is mounted in. */
export type AppFetch = (request: Request, env: unknown) => Response | Promise<Response>;

/**
 * Browsers send Origin; agents do not. A page elsewhere must not reach a local service through DNS
 * rebinding (its name resolving to 127.0.0.1), so a request with an Origin is served only from a loopback
 * page, as the MCP specification asks of servers.
 */
function originAllowed(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    const host = new URL(origin).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || isLoopback(host);
  } catch {
    return false;
  }
}

function routeCall(c: Context<AppEnv>, appFetch: AppFetch) {
  const authorization = c.req.header('authorization');
  return async (request: RouteRequest): Promise<Response> => {
    const headers: Record<string, string> = authorization ? { authorization } : {};
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const inner = new Request(new URL(request.path, c.req.url), {
      method: request.method,
      headers,
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    // The same env: the socket, hence the same client address for the rate limit and the loopback rule.
    return appFetch(inner, c.env);
  };
}

export function mcpHandlers(appFetch: AppFetch) {
  const post = async (c: Context<AppEnv>) => {
    if (!originAllowed(c.req.header('origin'))) {
      return problem(c, new ApiError(403, 'Forbidden', 'MCP requests from a web page are accepted only from loopback origins', undefined, 'forbidden'));
    }
    const server = createMcpServer(routeCall(c, appFetch));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      // The security middleware has parsed a JSON body already (Hono caches it); the raw stream is consumed.
      const json = /json/i.test(c.req.header('content-type') ?? '');
      return await transport.handleRequest(c.req.raw, json ? { parsedBody: await c.req.json() } : {});
    } finally {
      await server.close();
    }
  };
  const notAllowed = (c: Context<AppEnv>) => problem(c, new ApiError(405, 'Method Not Allowed', `${MCP_PATH} takes POST only (stateless Streamable HTTP)`), { Allow: 'POST' });
  return { post, notAllowed };
}
