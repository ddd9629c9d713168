import { createRoute } from '@hono/zod-openapi';
import { createRouter } from './openapi-app.ts';
import { ApiError } from './problem.ts';

export const BACKUP_PATH = '/v1/backup';

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

/** `dumpDataDir`: the embedded database's snapshot; absent in server mode. */
export function backupRoutes(dumpDataDir?: () => Promise<Uint8Array>) {
  return createRouter().openapi(backupRoute, async () => {
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
