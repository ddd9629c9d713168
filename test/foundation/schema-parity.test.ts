import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { isServer, openTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { schemaSnapshot } from '../helpers/schema-snapshot.ts';

// Needs both engines at once, so it runs in the server pass (where PGlite is available too).
describe.skipIf(!isServer)('schema parity between embedded and server mode (server pass only)', () => {
  let server: TestDatabase;
  let embedded: DatabaseHandle;
  beforeAll(async () => {
    server = await openTestDatabase();
    embedded = await openDatabase({ pgliteDataDir: 'memory://' });
    await migrateToLatest(embedded.db);
  });
  afterAll(async () => {
    await server?.dispose();
    await embedded?.close();
  });

  it('has the same tables, columns, indexes and extensions', async () => {
    const [a, b] = await Promise.all([schemaSnapshot(server.db), schemaSnapshot(embedded.db)]);
    expect(b.columns).toEqual(a.columns);
    expect(b.indexes).toEqual(a.indexes);
    expect(b.extensions).toEqual(a.extensions);
    expect(b.migrations).toEqual(a.migrations);
  });
});
