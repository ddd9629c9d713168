import pg from 'pg';

/** Runs `work` on one short-lived client of `url` (administration statements such as CREATE DATABASE). */
export async function withPgClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
