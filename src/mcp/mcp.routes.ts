/**
 * MCP over Streamable HTTP at /mcp, stateless: each POST carries one JSON-RPC message (or batch) and gets a
 * JSON answer. A plain Hono route, not an OpenAPI one: the MCP transport reads and answers the raw request,
 * and its messages are described by MCP, not by a schema here.
 */
import { declareRoute } from '../http/route-policy.ts';

export const MCP_PATH = '/mcp';

/** Tool calls become requests to the other routes, checked there under their own policies. */
export const mcpPostRoute = declareRoute({ method: 'post', path: MCP_PATH, policy: 'relay' });
/** Answered 405: stateless, there is no server-initiated stream (GET) and no session to end (DELETE). */
export const mcpGetRoute = declareRoute({ method: 'get', path: MCP_PATH, policy: 'read' });
export const mcpDeleteRoute = declareRoute({ method: 'delete', path: MCP_PATH, policy: 'read' });
