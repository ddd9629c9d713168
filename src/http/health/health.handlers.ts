import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ReplicaSet } from '../../db/replicas.ts';
import type { AppRouteHandler } from '../openapi-app.ts';
import { unavailable } from '../problem.ts';
import type { livez, readyz } from './health.routes.ts';

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

export interface HealthDeps {
  db: Db;
  lifecycle: Lifecycle;
  replicas?: ReplicaSet | undefined;
}

export const livezHandler: AppRouteHandler<typeof livez> = (c) => c.json({ status: 'ok' }, 200);

export function readyzHandler({ db, lifecycle, replicas }: HealthDeps): AppRouteHandler<typeof readyz> {
  return async (c) => {
    if (lifecycle.draining) throw unavailable('the service is shutting down');
    if (lifecycle.finishing) return c.json({ status: 'ready', finishing: lifecycle.finishing }, 200);
    try {
      await sql`SELECT 1`.execute(db);
    } catch {
      throw unavailable('the database does not answer');
    }
    return c.json({ status: 'ready', ...(replicas ? { replicas: replicas.status() } : {}) }, 200);
  };
}
