// Server mode: question answering runs on read-only connections with a statement_timeout, as a role that may
// only SELECT what it reads (when the role exists: scripts/setup-postgres.sh or a superuser's migration make it).
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReaderRole, DEFAULT_READER_ROLE, grantReaderSql, openReader, type ReaderHandle } from '../../src/db/readonly-role.ts';
import { hasNycData, NO_NYC_DATA } from '../helpers/data.ts';
import { isServer, openTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { postJson } from './helpers.ts';

async function errorCode(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code ?? (error as Error).message;
  }
}

describe.skipIf(!isServer)('question-answering connections (server mode)', () => {
  let database: TestDatabase;
  let roleUsable = false;
  const readers: ReaderHandle[] = [];
  const open = async (role: string, statementTimeoutMs = 300) => {
    const reader = await openReader(database.db, { databaseUrl: database.location.env.DATABASE_URL!, role, poolSize: 2, statementTimeoutMs });
    readers.push(reader);
    return reader;
  };

  beforeAll(async () => {
    database = await openTestDatabase();
    const check = await checkReaderRole(database.db, DEFAULT_READER_ROLE);
    roleUsable = check.usable;
    if (!roleUsable) console.warn(`[query-safety] ${check.reason}: the role checks are skipped (see docs/security.md)`);
  });
  afterAll(async () => {
    for (const r of readers) await r.close();
    await database?.dispose();
  });

  it('run as the SELECT-only role when it exists', async ({ skip }) => {
    if (!roleUsable) skip();
    const reader = await open(DEFAULT_READER_ROLE);
    expect(reader.role).toBe(DEFAULT_READER_ROLE);
    const { rows } = await sql<{ who: string }>`SELECT current_user AS who`.execute(reader.db);
    expect(rows[0]!.who).toBe(DEFAULT_READER_ROLE);
    // Even in a read-write transaction the role may not write, nor read tables outside question answering.
    const write = reader.db.transaction().execute(async (trx) => {
      await sql`SET TRANSACTION READ WRITE`.execute(trx);
      await sql`DELETE FROM places`.execute(trx);
    });
    expect(await errorCode(write)).toBe('42501');
    expect(await errorCode(sql`SELECT name FROM kysely_migration`.execute(reader.db))).toBe('42501');
    expect(await errorCode(sql`SELECT 1 FROM places LIMIT 1`.execute(reader.db))).toBeUndefined();
  });

  it('refuse writes (read-only by default) and cancel long statements, with or without the role', async () => {
    for (const role of [roleUsable ? DEFAULT_READER_ROLE : 'none', 'none']) {
      const reader = await open(role, 300);
      expect(await errorCode(sql`INSERT INTO embedding_spaces (name, model, dimension) VALUES ('x', 'y', 1)`.execute(reader.db))).toBe('25006');
      // A stacked statement sent as a simple query (no parameters) is refused too.
      expect(await errorCode(sql.raw('SELECT 1; DELETE FROM places').execute(reader.db))).toMatch(/25006|42501/);
      const started = performance.now();
      expect(await errorCode(sql`SELECT pg_sleep(3)`.execute(reader.db))).toBe('57014');
      expect(performance.now() - started).toBeLessThan(2_000);
      const { rows } = await sql<{ t: string }>`SELECT current_setting('statement_timeout') AS t`.execute(reader.db);
      expect(rows[0]!.t).toBe('300ms');
    }
  });

  it('the migration neither fails nor creates a role when the user may not create roles', async ({ skip }) => {
    const { rows } = await sql<{ may: boolean }>`SELECT rolsuper OR rolcreaterole AS may FROM pg_roles WHERE rolname = current_user`.execute(database.db);
    if (rows[0]!.may) skip(); // it would create the role: covered by the embedded (superuser) runs instead
    await sql.raw(grantReaderSql('srag_test_absent_role')).execute(database.db);
    expect((await checkReaderRole(database.db, 'srag_test_absent_role')).reason).toMatch(/does not exist/);
  });

  it('fall back to the service user, saying why, when the role is missing', async () => {
    const reader = await open('srag_no_such_role');
    expect(reader.role).toBeNull();
    expect(reader.warning).toMatch(/does not exist/);
    expect(await errorCode(sql`DELETE FROM places`.execute(reader.db))).toBe('25006');
  });
});

describe.skipIf(!isServer || !hasNycData)('POST /v1/ask and the other read routes run on those connections (server mode)', () => {
  let service: TestService;
  let admin: pg.Client;
  let roleUsable = false;
  beforeAll(async () => {
    service = await startTestService({}, { fixture: 'nyc' });
    admin = new pg.Client({ connectionString: service.location.env.DATABASE_URL });
    await admin.connect();
    roleUsable = (await checkReaderRole(service.database.db, DEFAULT_READER_ROLE)).usable;
  }, 300_000);
  afterAll(async () => {
    await admin?.end();
    await service?.stop();
  });

  const ask = () => postJson(`${service.url}/v1/ask`, { question: 'Show me cafés within 200 m of Herald Square', planner: 'offline' });

  it('as the reader role: without its SELECT grant the question fails, with it the question is answered', async ({ skip }) => {
    if (!roleUsable) skip();
    expect((await ask()).status).toBe(200);
    await admin.query(`REVOKE SELECT ON places FROM ${DEFAULT_READER_ROLE}`);
    try {
      const res = await ask();
      expect(res.status).toBe(500); // permission denied: proof that the role, not the service's user, ran it
      expect(await res.text()).not.toMatch(/permission|places/);
      // The other read routes run on the same connections (with the same statement timeout): the same refusal.
      expect((await fetch(`${service.url}/collections/places/items?limit=1`)).status).toBe(500);
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200); // the service's own pool: its own user
    } finally {
      await admin.query(`GRANT SELECT ON places TO ${DEFAULT_READER_ROLE}`);
    }
    expect((await ask()).status).toBe(200);
  });
});

if (!hasNycData) console.warn(NO_NYC_DATA);
