// Operations on the whole database, for the commands run beside a service (`npm run backup`, `reembed`).
import { z } from '@hono/zod-openapi';
import { jsonContent, problemResponse } from '../openapi-helpers.ts';
import { defineRoute } from '../route-policy.ts';

export const BACKUP_PATH = '/v1/backup';
export const REEMBED_PATH = '/v1/reembed';

export const backupRoute = defineRoute({
  // A backup reads everything stored, so it is guarded like a write.
  policy: 'private',
  method: 'get',
  path: BACKUP_PATH,
  tags: ['operations'],
  summary: 'Embedded mode: a consistent snapshot of the whole database (gzipped tar), for `npm run restore`',
  description:
    'Taken between two transactions, so it holds every committed write and none half done. `npm run backup -- --url URL FILE` ' +
    'saves it. Server mode answers 409: back up PostgreSQL with pg_dump. Behind API_KEY (loopback only without one).',
  responses: {
    200: { description: 'the snapshot', content: { 'application/gzip': { schema: z.string().openapi({ format: 'binary' }) } } },
    409: problemResponse('server mode: use pg_dump'),
  },
});

const ReembedReport = z.object({ model: z.string(), places: z.number(), tools: z.number() }).openapi('ReembedReport');

export const reembedRoute = defineRoute({
  policy: 'expensive-write',
  method: 'post',
  path: REEMBED_PATH,
  tags: ['operations'],
  summary: "Re-embed every place and tool with the service's embedding model (after a change of model)",
  description: 'What `npm run reembed` does, run by the service that holds the database. Behind API_KEY (loopback only without one).',
  responses: { 200: jsonContent(ReembedReport, 'counts') },
});
