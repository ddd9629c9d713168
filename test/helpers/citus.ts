/**
 * The Citus test mode: DATABASE_URL names the coordinator of scripts/setup-citus.sh and CITUS_ADMIN_URL its
 * superuser login (printed by the script). Each test database is a copy of a template without citus (a
 * database with citus keeps a maintenance daemon connected, and a template in use cannot be copied) made a
 * Citus database: the same database on every worker, the extension on every node, the nodes registered, and
 * tables that migrations already created (the data fixtures) distributed.
 */
import pg from 'pg';
import { openDatabase } from '../../src/db/database.ts';
import { distributeTables } from '../../src/db/citus.ts';

const adminUrl = process.env.CITUS_ADMIN_URL;
export const isCitus = Boolean(process.env.DATABASE_URL && adminUrl);

/** The template every worker database is copied from (scripts/setup-citus.sh: postgis, vector, pg_trgm). */
const WORKER_TEMPLATE = process.env.SRAG_TEST_TEMPLATE_DB ?? 'spatial_rag_template';

interface Node {
  host: string;
  port: number;
}

function urlOf(node: Node, database: string): string {
  const url = new URL(adminUrl!);
  url.hostname = node.host;
  url.port = String(node.port);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function coordinatorOf(serverUrl: string): Node {
  const url = new URL(serverUrl);
  return { host: url.hostname, port: Number(url.port || 5432) };
}

/** The workers registered in the service's own database (scripts/setup-citus.sh registered them there). */
export async function citusWorkers(serverUrl = process.env.DATABASE_URL!): Promise<Node[]> {
  const database = new URL(serverUrl).pathname.slice(1);
  return withClient(urlOf(coordinatorOf(serverUrl), database), async (client) => {
    const { rows } = await client.query<{ nodename: string; nodeport: number }>(
      `SELECT nodename, nodeport FROM pg_dist_node WHERE groupid <> 0 AND noderole = 'primary' ORDER BY nodeport`,
    );
    return rows.map((r) => ({ host: r.nodename, port: r.nodeport }));
  });
}

/** Makes the coordinator database `name` (just created from a template) a Citus database with its own workers' copies. */
export async function prepareCitusDatabase(serverUrl: string, name: string): Promise<void> {
  const coordinator = coordinatorOf(serverUrl);
  const owner = decodeURIComponent(new URL(serverUrl).username);
  const workers = await citusWorkers(serverUrl);
  for (const worker of workers) {
    await withClient(urlOf(worker, 'postgres'), (c) => c.query(`CREATE DATABASE ${name} OWNER ${owner} TEMPLATE ${WORKER_TEMPLATE}`));
    await withClient(urlOf(worker, name), (c) => c.query('CREATE EXTENSION citus'));
  }
  await withClient(urlOf(coordinator, name), async (c) => {
    await c.query('CREATE EXTENSION citus');
    await c.query('SELECT citus_set_coordinator_host($1, $2)', [coordinator.host, coordinator.port]);
    for (const worker of workers) await c.query('SELECT citus_add_node($1, $2)', [worker.host, worker.port]);
  });
  // A fixture migrated and loaded before citus was there: its tables are distributed now (rows move to the workers).
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
  try {
    const { rows } = await handle.pool!.query<{ pending: boolean }>(
      `SELECT to_regclass('places') IS NOT NULL AND NOT EXISTS (SELECT FROM pg_dist_partition WHERE logicalrelid::text = 'places') AS pending`,
    );
    if (rows[0]!.pending) await handle.db.transaction().execute((trx) => distributeTables(trx));
  } finally {
    await handle.close();
  }
}

/** Drops `name` on the coordinator and the workers (as the superuser: Citus's maintenance daemon is connected to it). */
export async function dropCitusDatabase(serverUrl: string, name: string): Promise<void> {
  for (const node of [coordinatorOf(serverUrl), ...(await citusWorkers(serverUrl))]) {
    await withClient(urlOf(node, 'postgres'), (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}
