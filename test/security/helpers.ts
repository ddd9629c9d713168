import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { ALLOWED_SQL_FUNCTIONS } from '../../src/spatial/retrieve.ts';

/** SQL words that are followed by "(" but are syntax, not functions (as in test/unit/spatial/compile.test.ts). */
const SYNTAX = ['AS', 'IN', 'ANY', 'NOT', 'AND', 'OR', 'ARRAY', 'WHERE', 'SELECT', 'FROM', 'BY', 'WHEN', 'THEN', 'UNION', 'MATERIALIZED', 'USING', 'EXISTS'];
const ALLOWED = new Set([...ALLOWED_SQL_FUNCTIONS, ...SYNTAX].map((f) => f.toLowerCase()));

export function functionsIn(sqlText: string): string[] {
  return [...sqlText.matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*\(/g)].map((m) => m[1]!.toLowerCase());
}

/** The functions of a returned SQL text that are not in the allow-list (src/spatial/retrieve.ts). */
export function disallowedFunctions(sqlText: string): string[] {
  return functionsIn(sqlText).filter((f) => !ALLOWED.has(f));
}

/** Cheap: the tables and their row counts (any DROP, CREATE, INSERT or DELETE shows). */
export async function tableCounts(db: Db): Promise<Record<string, number>> {
  const { rows: tables } = await sql<{ tablename: string }>`
    SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`.execute(db);
  const counts: Record<string, number> = {};
  for (const { tablename } of tables) {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(tablename)}`.execute(db);
    counts[tablename] = rows[0]!.n;
  }
  return counts;
}

/** Thorough: every column of every place (geometry and vector as digests), in id order. */
export async function placesChecksum(db: Db): Promise<string> {
  const { rows } = await sql<{ digest: string | null }>`
    SELECT md5(string_agg(concat_ws('|', id, source, source_id, name, category, tags::text, md5(description),
                                    md5(ST_AsBinary(geom)::text), embedding_model, md5(embedding::text), updated_at),
                          E'\n' ORDER BY id)) AS digest
    FROM places`.execute(db);
  return rows[0]!.digest ?? 'empty';
}

export interface DataFingerprint {
  tables: Record<string, number>;
  places: string;
}

export async function dataFingerprint(db: Db): Promise<DataFingerprint> {
  return { tables: await tableCounts(db), places: await placesChecksum(db) };
}

/** A problem+json body without internals: no stack frames, no SQL errors, no file paths. */
export function expectCleanProblem(status: number, contentType: string | null, text: string): void {
  expect(contentType ?? '').toContain('application/problem+json');
  const body = JSON.parse(text) as { status: number; title: string; type: string };
  expect(body.status).toBe(status);
  expect(body.title).toBeTruthy();
  expect(text).not.toMatch(/\n\s+at |\bat [\w.<>]+ \(|node_modules|\/src\/|syntax error at|ERROR:/);
}

/** Sends a JSON body (or a raw text body) to a route of the service. */
export function postJson(url: string, body: unknown, raw?: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: raw ?? JSON.stringify(body),
  });
}
