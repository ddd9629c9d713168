import type { Db } from '../../db/database.ts';
import type { Embedder } from '../../embedding/embedder.ts';
import { reembedPlaces } from '../../embedding/reembed.ts';
import { reembedTools } from '../../tools/registry.ts';
import type { AppRouteHandler } from '../openapi-app.ts';
import { ApiError } from '../problem.ts';
import type { backupRoute, reembedRoute } from './operations.routes.ts';

export interface OperationsDeps {
  db: Db;
  embedder: Embedder;
  /** The embedded database's snapshot; absent in server mode. */
  dumpDataDir?: (() => Promise<Uint8Array>) | undefined;
}

export function reembedHandler({ db, embedder }: OperationsDeps): AppRouteHandler<typeof reembedRoute> {
  return async (c) => {
    const places = await reembedPlaces(db, embedder);
    const tools = await reembedTools(db, embedder);
    return c.json({ model: embedder.model, places, tools }, 200);
  };
}

export function backupHandler({ dumpDataDir }: OperationsDeps): AppRouteHandler<typeof backupRoute> {
  return async () => {
    if (!dumpDataDir) {
      throw new ApiError(409, 'Conflict', 'the service runs on PostgreSQL (DATABASE_URL): back it up with pg_dump -Fc, restore with pg_restore', undefined, 'server-mode');
    }
    const snapshot = await dumpDataDir();
    const name = `spatial-rag-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`;
    // A binary body: the typed c.json/c.body helpers do not describe it.
    return new Response(snapshot, {
      status: 200,
      headers: { 'content-type': 'application/gzip', 'content-disposition': `attachment; filename="${name}"` },
    }) as never;
  };
}
