import { z } from '@hono/zod-openapi';
import { jsonContent, problemResponse } from '../openapi-helpers.ts';
import { defineRoute } from '../route-policy.ts';

const HealthStatus = z.object({ status: z.string() }).openapi('HealthStatus');
const Readiness = z
  .object({
    status: z.string(),
    replicas: z
      .array(z.object({ name: z.string(), state: z.enum(['unknown', 'up', 'down', 'behind']) }))
      .optional()
      .describe('with DATABASE_READ_URLS: what this instance last saw of each replica (no query is made for it)'),
    finishing: z.string().optional().describe('what the first start still does on the database (requests wait for it)'),
  })
  .openapi('Readiness');

export const livez = defineRoute({
  policy: 'read',
  method: 'get',
  path: '/livez',
  tags: ['health'],
  summary: 'Liveness: the process answers (never touches the database)',
  responses: { 200: jsonContent(HealthStatus, 'alive') },
});

export const readyz = defineRoute({
  policy: 'read',
  method: 'get',
  path: '/readyz',
  tags: ['health'],
  summary: 'Readiness: the database answers and the service is not draining',
  responses: {
    200: jsonContent(Readiness, 'ready (replicas that are down do not make it fail: the primary serves their reads)'),
    503: problemResponse('draining or database unavailable'),
  },
});
