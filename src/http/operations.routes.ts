// Operations on the whole database, for the commands run beside a service (`npm run backup`, `reembed`).
import { createRoute, z } from '@hono/zod-openapi';
import type { Db } from '../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { reembedPlaces } from '../embedding/reembed.ts';
import { reembedTools } from '../tools/registry.ts';
import { createRouter } from './openapi-app.ts';
import { ApiError } from './problem.ts';

export const BACKUP_PATH = '/v1/backup';
export const REEMBED_PATH = '/v1/reembed';

const backupRoute = createRoute({
  method: 'get',
  path: BACKUP_PATH,
  tags: ['operations'],
  summary: 'Embedded mode: a consistent snapshot of the whole database (gzipped tar), for `npm run restore`',
  description:
    'Taken between two transactions, so it holds every committed write and none half done. `npm run backup -- --url URL FILE` ' +
    'saves it. Server mode answers 409: back up PostgreSQL with pg_dump. Behind API_KEY (loopback only without one).',
  responses: {
    200: { description: 'the snapshot', content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } } },
    409: { description: 'server mode: use pg_dump' },
  },
});

const reembedRoute = createRoute({
  method: 'post',
  path: REEMBED_PATH,
  tags: ['operations'],
  summary: "Re-embed every place and tool with the service's embedding model (after a change of model)",
  description: 'What `npm run reembed` does, run by the service that holds the database. Behind API_KEY (loopback only without one).',
  responses: {
    200: { description: 'counts', content: { 'application/json': { schema: z.object({ model: z.string(), places: z.number(), tools: z.number() }) } } },
  },
});

/** `dumpDataDir`: the embedded database's snapshot; absent in server mode. */
export function operationsRoutes(db: Db, embedder: Embedder, dumpDataDir?: () => Promise<Uint8Array>) {
  const router = createRouter();
  router.openapi(reembedRoute, async (c) => {
    const places = await reembedPlaces(db, embedder);
    const tools = await reembedTools(db, embedder);
    return c.json({ model: embedder.model, places, tools }, 200);
  });
  return router.openapi(backupRoute, async () => {
    if (!dumpDataDir) {
      throw new ApiError(409, 'Conflict', 'the service runs on PostgreSQL (DATABASE_URL): back it up with pg_dump -Fc, restore with pg_restore', undefined, 'server-mode');
    }
    const snapshot = await dumpDataDir();
    const name = `spatial-rag-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`;
    return new Response(snapshot, {
      status: 200,
      headers: { 'content-type': 'application/gzip', 'content-disposition': `attachment; filename="${name}"` },
    }) as never;
  });
}
