import { createRoute, z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { ReplicaSet } from '../db/replicas.ts';
import { createRouter } from './openapi-app.ts';
import { unavailable } from './problem.ts';

export interface Lifecycle {
  /** Set when shutdown starts: readiness fails so load balancers stop sending traffic. */
  draining: boolean;
  /**
   * Set while the first start finishes on the embedded database after the port is open (e.g. "building the
   * vector index"): the single connection is busy with that statement, so readiness says so instead of
   * queueing a probe behind it; requests wait their turn and are served.
   */
  finishing?: string | undefined;
}

const status = z.object({ status: z.string() }).openapi('HealthStatus');
const readiness = z
  .object({
    status: z.string(),
    replicas: z
      .array(z.object({ name: z.string(), state: z.enum(['unknown', 'up', 'down', 'behind']) }))
      .optional()
      .describe('with DATABASE_READ_URLS: what this instance last saw of each replica (no query is made for it)'),
    finishing: z.string().optional().describe('what the first start still does on the database (requests wait for it)'),
  })
  .openapi('Readiness');

const livez = createRoute({
  method: 'get',
  path: '/livez',
  tags: ['health'],
  summary: 'Liveness: the process answers (never touches the database)',
  responses: { 200: { description: 'alive', content: { 'application/json': { schema: status } } } },
});

const readyz = createRoute({
  method: 'get',
  path: '/readyz',
  tags: ['health'],
  summary: 'Readiness: the database answers and the service is not draining',
  responses: {
    200: { description: 'ready (replicas that are down do not make it fail: the primary serves their reads)', content: { 'application/json': { schema: readiness } } },
    503: { description: 'draining or database unavailable' },
  },
});

export function healthRoutes(db: Db, lifecycle: Lifecycle, replicas?: ReplicaSet) {
  return createRouter()
    .openapi(livez, (c) => c.json({ status: 'ok' }, 200))
    .openapi(readyz, async (c) => {
      if (lifecycle.draining) throw unavailable('the service is shutting down');
      if (lifecycle.finishing) return c.json({ status: 'ready', finishing: lifecycle.finishing }, 200);
      try {
        await sql`SELECT 1`.execute(db);
      } catch {
        throw unavailable('the database does not answer');
      }
      return c.json({ status: 'ready', ...(replicas ? { replicas: replicas.status() } : {}) }, 200);
    });
}
