import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ReplicaSet } from '../../db/replicas.ts';
import type { AppRouteHandler } from '../openapi-app.ts';
import { unavailable } from '../problem.ts';
import type { livez, readyz } from './health.routes.ts';

export interface Lifecycle {
  /** Set when shutdown starts: readiness fails so load balancers stop sending traffic. */
  draining: boolean;
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
    try {
      await sql`SELECT 1`.execute(db);
    } catch {
      throw unavailable('the database does not answer');
    }
    return c.json({ status: 'ready', ...(replicas ? { replicas: replicas.status() } : {}) }, 200);
  };
}
