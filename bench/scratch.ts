import pg from 'pg';

const TEMPLATE = process.env.SRAG_TEST_TEMPLATE_DB ?? 'spatial_rag_template';

/**
 * A scratch database on the server of `serverUrl`, cloned from the migrated template (a leftover of the same
 * name, from a run that was killed, is dropped first). Benchmarks write millions of rows and must never touch
 * the development database; `drop()` removes it afterwards.
 */
export async function scratchServerDatabase(serverUrl: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
