/**
 * Server mode: question answering runs on its own small pool whose connections
 *  - run as a role that may only SELECT the tables question answering reads (`SET ROLE` at connection
 *    start, through the startup `options`), or log in as a separate read-only user (DATABASE_READER_URL);
 *  - are read-only by default (`default_transaction_read_only`), so a write fails even with more privileges;
 *  - have a `statement_timeout`, and a client-side query timeout in case the server stops answering.
 *
 * The SQL itself is built by Kysely with bound parameters (src/spatial/*): this is the second wall, for the
 * day a bug lets text through. Note that a role switched to with SET ROLE can be switched back by SQL the
 * session runs; only a separate login (DATABASE_READER_URL) holds against arbitrary SQL. See docs/security.md.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from '../log.ts';
import { APPLICATION_NAME, numericTypes, redact, SESSION_OPTIONS, type Db } from './database.ts';
import { REPLICA_CONNECT_TIMEOUT_MS, RoutingPool, type ReplicaSet } from './replicas.ts';
import type { Database } from './schema.ts';

export const DEFAULT_READER_ROLE = 'srag_reader';

/**
 * The tables the read routes read (question answering, the OGC and place routes, the tool search and workflow
 * plans with the workflow memory they consult). Nothing else: runs, transitions and SOPs are never read there.
 */
export const READER_TABLES = [
  'places', 'places_version', 'embedding_spaces', 'tools', 'tools_revision', 'memory_workflows', 'memory_experiences',
  'land_borders',
] as const;

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function checkedRole(role: string): string {
  if (!ROLE_NAME.test(role)) throw new Error(`invalid role name: ${JSON.stringify(role)}`);
  return role;
}

/**
 * SQL of the migration (one DO block, constant text): create the role when it is missing and the migrating
 * user may create roles (superuser, CREATEROLE: docker compose, PGlite); grant it SELECT on {@link READER_TABLES}
 * that exist; make the migrating user a member so it can switch to it. Without the privileges it only says so
 * (NOTICE): an administrator creates the role once (docs/security.md) and the service then uses it.
 */
export function grantReaderSql(role: string = DEFAULT_READER_ROLE): string {
  const r = checkedRole(role);
  const tables = READER_TABLES.map((t) => `'${t}'`).join(', ');
  return `
DO $srag$
DECLARE
  may_create boolean;
  t text;
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${r}') THEN
    SELECT rolsuper OR rolcreaterole INTO may_create FROM pg_roles WHERE rolname = current_user;
    IF NOT coalesce(may_create, false) THEN
      RAISE NOTICE 'role ${r} is missing and % may not create it: question answering will not switch roles', current_user;
      RETURN;
    END IF;
    BEGIN
      CREATE ROLE ${r} NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL; -- created meanwhile by a migration of another database of the cluster
    END;
  END IF;
  FOREACH t IN ARRAY ARRAY[${tables}] LOOP
    IF to_regclass('public.' || t) IS NOT NULL THEN
      EXECUTE format('GRANT SELECT ON public.%I TO ${r}', t);
    END IF;
  END LOOP;
  IF NOT pg_has_role(current_user, '${r}', 'MEMBER') THEN
    BEGIN
      EXECUTE format('GRANT ${r} TO %I', current_user);
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE '% may not join role ${r}: question answering will not switch roles', current_user;
    END;
  END IF;
END
$srag$`;
}

export function revokeReaderSql(role: string = DEFAULT_READER_ROLE): string {
  const r = checkedRole(role);
  const tables = READER_TABLES.map((t) => `'${t}'`).join(', ');
  return `
DO $srag$
DECLARE t text;
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = '${r}') THEN
    FOREACH t IN ARRAY ARRAY[${tables}] LOOP
      IF to_regclass('public.' || t) IS NOT NULL THEN
        EXECUTE format('REVOKE ALL ON public.%I FROM ${r}', t);
      END IF;
    END LOOP;
  END IF;
END
$srag$`;
}

export interface ReaderRoleCheck {
  usable: boolean;
  /** Why not, when not. */
  reason?: string;
}

/** Whether the current user can switch to `role` and the role reads places but writes nothing. */
export async function checkReaderRole(db: Db, role: string): Promise<ReaderRoleCheck> {
  const { rows } = await sql<{ member: boolean; reads: boolean; writes: boolean; superuser: boolean }>`
    SELECT pg_has_role(current_user, r.oid, 'MEMBER') AS member,
           has_table_privilege(r.oid, 'public.places', 'SELECT') AS reads,
           has_table_privilege(r.oid, 'public.places', 'INSERT, UPDATE, DELETE, TRUNCATE') AS writes,
           r.rolsuper AS superuser
    FROM pg_roles r WHERE r.rolname = ${role}`.execute(db);
  const row = rows[0];
  if (!row) return { usable: false, reason: `role ${role} does not exist` };
  if (!row.member) return { usable: false, reason: `the service's user is not a member of role ${role}` };
  if (row.superuser || row.writes) return { usable: false, reason: `role ${role} may change places: it is not read-only` };
  if (!row.reads) return { usable: false, reason: `role ${role} may not read places (run the migrations)` };
  return { usable: true };
}

export interface ReaderOptions {
  databaseUrl: string;
  /** A separate login for question answering; used as it is (no role switch). */
  readerUrl?: string | undefined;
  /** The role to switch to; `none` or empty: no switch. */
  role?: string | undefined;
  poolSize: number;
  statementTimeoutMs: number;
  /**
   * Streaming replicas (DATABASE_READ_URLS): question answering runs there with the same settings, and on
   * the primary when none can serve (src/db/replicas.ts). With `readerUrl`, replica connections log in as
   * that user (logins are replicated) at the replica's host, port and database.
   */
  replicas?: ReplicaSet | undefined;
  log?: Pick<Logger, 'info' | 'warn' | 'debug'> | undefined;
}

export interface ReaderHandle {
  db: Db;
  /** The role the connections run as, or null when they run as the service's own user. */
  role: string | null;
  /** Why no role is used, when none is. */
  warning?: string;
  /** With replicas: the routing pool (its {@link RoutingPool.probe} checks them). */
  routing?: RoutingPool;
  close(): Promise<void>;
}

/** Settings of every question-answering connection, on the primary or a replica. */
function readerPoolConfig(connectionString: string, role: string | null, options: ReaderOptions): pg.PoolConfig {
  const timeout = Math.max(1, Math.round(options.statementTimeoutMs));
  const settings = [
    SESSION_OPTIONS,
    `-c statement_timeout=${timeout}`,
    '-c default_transaction_read_only=on',
    `-c idle_in_transaction_session_timeout=${Math.max(timeout * 2, 10_000)}`,
    ...(role ? [`-c role=${role}`] : []),
  ];
  return {
    connectionString,
    max: options.poolSize,
    connectionTimeoutMillis: 5_000,
    // Client-side bound for a server that stops answering (the statement_timeout cannot fire then).
    query_timeout: timeout + 5_000,
    options: settings.join(' '),
    types: numericTypes(),
    application_name: `${APPLICATION_NAME} ask`,
  };
}

/** A replica's URL with the login of `readerUrl` when there is one. */
function replicaLogin(replicaUrl: string, readerUrl: string | undefined): string {
  if (!readerUrl) return replicaUrl;
  const target = new URL(replicaUrl);
  const login = new URL(readerUrl);
  target.username = login.username;
  target.password = login.password;
  return target.toString();
}

/** The question-answering pool of server mode (see the module comment). */
export async function openReader(mainDb: Db, options: ReaderOptions): Promise<ReaderHandle> {
  let role: string | null = null;
  let warning: string | undefined;
  if (options.readerUrl) {
    role = null;
  } else if (options.role && options.role !== 'none') {
    const check = await checkReaderRole(mainDb, checkedRole(options.role));
    if (check.usable) role = options.role;
    else warning = `${check.reason}; question answering runs as the service's user (read-only transactions, statement_timeout)`;
  }
  const pool = new pg.Pool(readerPoolConfig(options.readerUrl ?? options.databaseUrl, role, options));
  // Neither an idle nor a checked-out client losing its server may crash the process (see database.ts).
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  try {
    await pool.query('SELECT 1 FROM places LIMIT 1');
  } catch (error) {
    await pool.end();
    const where = options.readerUrl ? `DATABASE_READER_URL (${redact(options.readerUrl)})` : `role ${role ?? '(own user)'}`;
    throw new Error(`question-answering connections (${where}) cannot read places: ${(error as Error).message}`);
  }
  const replicas = options.replicas;
  const routing =
    replicas && replicas.replicas.length > 0
      ? new RoutingPool(replicas, {
          kind: 'ask',
          replicaConfig: (replica) => ({
            ...readerPoolConfig(replicaLogin(replica.url, options.readerUrl), role, options),
            // A replica that does not answer is skipped quickly; the primary keeps the longer wait.
            connectionTimeoutMillis: REPLICA_CONNECT_TIMEOUT_MS,
          }),
          primary: pool,
          ownsPrimary: true,
          log: options.log,
        })
      : undefined;
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: routing ?? pool }) });
  return { db, role, ...(warning ? { warning } : {}), ...(routing ? { routing } : {}), close: () => db.destroy() };
}
