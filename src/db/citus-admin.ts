/**
 * Making a database of a Citus coordinator a Citus database, and dropping one: the tests (a database per test
 * file) and the scale benchmark's scratch databases. Needs a superuser login (`CITUS_ADMIN_URL`, printed by
 * scripts/setup-citus.sh): CREATE EXTENSION citus and citus_add_node are a superuser's.
 *
 * The database is first made from a template without citus (a database with citus keeps a maintenance daemon
 * connected, and a template in use cannot be copied): the same database is created on every worker, the
 * extension on every node, the nodes registered, and tables that migrations already created distributed.
 */
import { distributeTables } from './citus.ts';
import { openDatabase } from './database.ts';
import { withPgClient } from './pg-client.ts';

export interface CitusNode {
  host: string;
  port: number;
}

/** The admin login's URL for a node and a database. */
function urlOf(adminUrl: string, node: CitusNode, database: string): string {
  const url = new URL(adminUrl);
  url.hostname = node.host;
  url.port = String(node.port);
  url.pathname = `/${database}`;
  return url.toString();
}

function coordinatorOf(serverUrl: string): CitusNode {
  const url = new URL(serverUrl);
  return { host: url.hostname, port: Number(url.port || 5432) };
}

/** The workers registered in the database of `serverUrl` (scripts/setup-citus.sh registered them in the service's database). */
export async function citusWorkers(adminUrl: string, serverUrl: string): Promise<CitusNode[]> {
  const database = new URL(serverUrl).pathname.slice(1);
  return withPgClient(urlOf(adminUrl, coordinatorOf(serverUrl), database), async (client) => {
    const { rows } = await client.query<{ nodename: string; nodeport: number }>(
      `SELECT nodename, nodeport FROM pg_dist_node WHERE groupid <> 0 AND noderole = 'primary' ORDER BY nodeport`,
    );
    return rows.map((r) => ({ host: r.nodename, port: r.nodeport }));
  });
}

/**
 * Makes `name`, just created on the coordinator of `serverUrl` from a template without citus, a Citus
 * database: its copies on the workers (from `workerTemplate`), the extension, the nodes, and the tables
 * distributed when migrations already made them.
 */
export async function prepareCitusDatabase(adminUrl: string, serverUrl: string, name: string, workerTemplate: string): Promise<void> {
  const coordinator = coordinatorOf(serverUrl);
  const owner = decodeURIComponent(new URL(serverUrl).username);
  const workers = await citusWorkers(adminUrl, serverUrl);
  for (const worker of workers) {
    await withPgClient(urlOf(adminUrl, worker, 'postgres'), (c) => c.query(`CREATE DATABASE ${name} OWNER ${owner} TEMPLATE ${workerTemplate}`));
    await withPgClient(urlOf(adminUrl, worker, name), (c) => c.query('CREATE EXTENSION citus'));
  }
  await withPgClient(urlOf(adminUrl, coordinator, name), async (c) => {
    await c.query('CREATE EXTENSION citus');
    await c.query('SELECT citus_set_coordinator_host($1, $2)', [coordinator.host, coordinator.port]);
    for (const worker of workers) await c.query('SELECT citus_add_node($1, $2)', [worker.host, worker.port]);
  });
  // Tables migrated and loaded before citus was there (a test fixture): distributed now, as their owner.
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
export async function dropCitusDatabase(adminUrl: string, serverUrl: string, name: string): Promise<void> {
  for (const node of [coordinatorOf(serverUrl), ...(await citusWorkers(adminUrl, serverUrl))]) {
    await withPgClient(urlOf(adminUrl, node, 'postgres'), (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}
