/**
 * All SQL of the tool registry. Records go in and out as `ToolRecord`s; rows are written through
 * `jsonb_to_recordset` so that one statement writes a whole batch and lists/arrays are converted by
 * PostgreSQL itself, identically in embedded (PGlite) and server (node-postgres) mode.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { ToolRecordSchema, type ToolRecord } from './schema.ts';

/** A record as stored: the record plus what the registry computes at write time. */
export interface StoredTool {
  record: ToolRecord;
  capabilityText: string;
  /** Output products closed under "satisfies" (who can produce X). */
  produces: string[];
  /** pgvector text literal, or null when no embedding could be computed. */
  embedding: string | null;
  embeddingModel: string | null;
}

export interface ToolRow extends ToolRecord {
  capabilityText: string;
  produces: string[];
  embeddingModel: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Columns read for a record (never the vector: it is only compared inside PostgreSQL). */
const RECORD_COLUMNS = sql`id, name, description, catalog, function, inputs, outputs, prerequisites, downstream,
  modalities, data_sources, attributes, version, keywords, derived, produces, capability_text, embedding_model,
  created_at, updated_at`;

interface RawRow {
  id: string;
  name: string;
  description: string;
  catalog: string;
  function: string;
  inputs: unknown;
  outputs: unknown;
  prerequisites: string[];
  downstream: string[];
  modalities: string[];
  data_sources: string[];
  attributes: unknown;
  version: string;
  keywords: string[];
  derived: string[];
  produces: string[];
  capability_text: string;
  embedding_model: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** jsonb may come back as text from some drivers; accept both. */
function json(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

function iso(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

function fromRow(row: RawRow): ToolRow {
  // Parsing again guarantees the shape callers rely on even if a row was written by other means.
  const record = ToolRecordSchema.parse({
    id: row.id,
    name: row.name,
    description: row.description,
    catalog: row.catalog,
    function: row.function,
    inputs: json(row.inputs),
    outputs: json(row.outputs),
    prerequisites: row.prerequisites,
    downstream: row.downstream,
    modalities: row.modalities,
    dataSources: row.data_sources,
    attributes: json(row.attributes),
    version: row.version,
    keywords: row.keywords,
    derived: row.derived,
  });
  return {
    ...record,
    capabilityText: row.capability_text,
    produces: row.produces,
    embeddingModel: row.embedding_model,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

function recordset(tools: readonly StoredTool[]): string {
  return JSON.stringify(
    tools.map(({ record: r, capabilityText, produces, embedding, embeddingModel }) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      catalog: r.catalog,
      function: r.function,
      inputs: r.inputs,
      outputs: r.outputs,
      prerequisites: r.prerequisites,
      downstream: r.downstream,
      modalities: r.modalities,
      data_sources: r.dataSources,
      attributes: r.attributes,
      version: r.version,
      keywords: r.keywords,
      derived: r.derived,
      produces,
      capability_text: capabilityText,
      embedding,
      embedding_model: embeddingModel,
    })),
  );
}

const textArray = (column: string) => sql.raw(`ARRAY(SELECT jsonb_array_elements_text(r.${column}))`);

/** SELECT over the JSON recordset with every column converted to its table type. */
function recordsetSelect(payload: string) {
  return sql`
    SELECT r.id, r.name, r.description, r.catalog, r.function, r.inputs, r.outputs,
      ${textArray('prerequisites')} AS prerequisites, ${textArray('downstream')} AS downstream,
      ${textArray('modalities')} AS modalities, ${textArray('data_sources')} AS data_sources, r.attributes, r.version,
      ${textArray('keywords')} AS keywords, ${textArray('derived')} AS derived, ${textArray('produces')} AS produces,
      r.capability_text, r.embedding::vector AS embedding, r.embedding_model
    FROM jsonb_to_recordset(${payload}::jsonb) AS r(
      id text, name text, description text, catalog text, function text, inputs jsonb, outputs jsonb,
      prerequisites jsonb, downstream jsonb, modalities jsonb, data_sources jsonb, attributes jsonb,
      version text, keywords jsonb, derived jsonb, produces jsonb, capability_text text, embedding text,
      embedding_model text)`;
}

const COLUMN_LIST = sql.raw(`(id, name, description, catalog, function, inputs, outputs, prerequisites, downstream,
  modalities, data_sources, attributes, version, keywords, derived, produces, capability_text, embedding, embedding_model)`);

const UPDATE_SET = sql.raw(`name = EXCLUDED.name, description = EXCLUDED.description, catalog = EXCLUDED.catalog,
  function = EXCLUDED.function, inputs = EXCLUDED.inputs, outputs = EXCLUDED.outputs,
  prerequisites = EXCLUDED.prerequisites, downstream = EXCLUDED.downstream, modalities = EXCLUDED.modalities,
  data_sources = EXCLUDED.data_sources, attributes = EXCLUDED.attributes, version = EXCLUDED.version,
  keywords = EXCLUDED.keywords, derived = EXCLUDED.derived, produces = EXCLUDED.produces,
  capability_text = EXCLUDED.capability_text, embedding = EXCLUDED.embedding,
  embedding_model = EXCLUDED.embedding_model, updated_at = EXCLUDED.updated_at`);

/** Inserts one tool; false when the id exists already (nothing written). */
export async function insertTool(db: Db, tool: StoredTool): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO tools ${COLUMN_LIST} ${recordsetSelect(recordset([tool]))}
    ON CONFLICT (id) DO NOTHING RETURNING id`.execute(db);
  if (rows.length === 1) await toolsWritten(db);
  return rows.length === 1;
}

/** Inserts or replaces tools by id, in one statement per call. */
export async function upsertTools(db: Db, tools: readonly StoredTool[]): Promise<void> {
  if (tools.length === 0) return;
  await sql`
    INSERT INTO tools ${COLUMN_LIST} ${recordsetSelect(recordset(tools))}
    ON CONFLICT (id) DO UPDATE SET ${UPDATE_SET}`.execute(db);
  await toolsWritten(db);
}

/** Replaces an existing tool; false when there is none. */
export async function replaceTool(db: Db, tool: StoredTool): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    UPDATE tools t SET ${sql.raw(UPDATE_SET_FROM_R)}
    FROM (${recordsetSelect(recordset([tool]))}) AS r
    WHERE t.id = r.id RETURNING t.id`.execute(db);
  if (rows.length === 1) await toolsWritten(db);
  return rows.length === 1;
}

const UPDATE_SET_FROM_R = `name = r.name, description = r.description, catalog = r.catalog, function = r.function,
  inputs = r.inputs, outputs = r.outputs, prerequisites = r.prerequisites, downstream = r.downstream,
  modalities = r.modalities, data_sources = r.data_sources, attributes = r.attributes, version = r.version,
  keywords = r.keywords, derived = r.derived, produces = r.produces, capability_text = r.capability_text,
  embedding = r.embedding, embedding_model = r.embedding_model, updated_at = now()`;

export async function getToolRow(db: Db, id: string): Promise<ToolRow | undefined> {
  const { rows } = await sql<RawRow>`SELECT ${RECORD_COLUMNS} FROM tools WHERE id = ${id}`.execute(db);
  return rows[0] ? fromRow(rows[0]) : undefined;
}

export async function deleteToolRow(db: Db, id: string): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`DELETE FROM tools WHERE id = ${id} RETURNING id`.execute(db);
  if (rows.length === 1) await toolsWritten(db);
  return rows.length === 1;
}

/**
 * Bumps tools_revision on Citus, where the statement trigger that does it elsewhere cannot run (migration
 * 0011); a no-op elsewhere.
 */
async function toolsWritten(db: Db): Promise<void> {
  await sql`SELECT tools_written()`.execute(db);
}

export interface ListQuery {
  catalog?: string;
  /** Case-insensitive substring of the id or name. */
  q?: string;
  limit: number;
  offset: number;
}

export async function listToolRows(db: Db, query: ListQuery): Promise<{ tools: ToolRow[]; total: number }> {
  const filters = [sql`true`];
  if (query.catalog) filters.push(sql`catalog = ${query.catalog}`);
  if (query.q) filters.push(sql`lower(id || ' ' || name) LIKE ${`%${escapeLike(query.q.toLowerCase())}%`}`);
  const where = sql.join(filters, sql` AND `);
  const [{ rows }, count] = await Promise.all([
    sql<RawRow>`SELECT ${RECORD_COLUMNS} FROM tools WHERE ${where} ORDER BY id LIMIT ${query.limit} OFFSET ${query.offset}`.execute(db),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM tools WHERE ${where}`.execute(db),
  ]);
  return { tools: rows.map(fromRow), total: count.rows[0]?.n ?? 0 };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Every tool, for the in-memory relation graph and lexical index (see catalog-cache.ts). */
export async function loadAllToolRows(db: Db): Promise<ToolRow[]> {
  const { rows } = await sql<RawRow>`SELECT ${RECORD_COLUMNS} FROM tools ORDER BY id`.execute(db);
  return rows.map(fromRow);
}

/** The catalog each of `ids` is registered under (ids not registered are absent). */
export async function catalogsOf(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ id: string; catalog: string }>`
    SELECT id, catalog FROM tools WHERE id = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)))`.execute(db);
  return new Map(rows.map((r) => [r.id, r.catalog]));
}

/** Name and task type of the given tools, for the neighbour context of capability texts. */
export async function neighbourRows(db: Db, ids: readonly string[]): Promise<{ id: string; name: string; function: string }[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<{ id: string; name: string; function: string }>`
    SELECT id, name, function FROM tools
    WHERE id = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)))`.execute(db);
  return rows;
}

export async function toolRevision(db: Db): Promise<number> {
  const { rows } = await sql<{ revision: number | string }>`SELECT revision FROM tools_revision`.execute(db);
  return Number(rows[0]?.revision ?? 0);
}

export async function countTools(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM tools`.execute(db);
  return rows[0]?.n ?? 0;
}

export interface DenseHit {
  id: string;
  /** Cosine similarity in [-1, 1]. */
  cosine: number;
}

/**
 * Coarse recall: the `limit` nearest tools by cosine through the HNSW index, plus the exact cosine of
 * `extraIds` (candidates found by the lexical and knowledge-graph channels), in ONE statement.
 *
 * Two pgvector settings are raised for this statement only: `hnsw.ef_search` (its default, 40, caps an
 * index scan at 40 rows) and `hnsw.iterative_scan` (so that rows hidden by a catalog filter or by dead
 * tuples after re-imports do not shorten the result). They are set with set_config(..., is_local) in a
 * materialised CTE that a one-time filter evaluates before the index scan starts: the statement is its
 * own transaction, so nothing leaks to other queries on the pooled connection, and it costs one round
 * trip instead of BEGIN/SET/SELECT/COMMIT. (The test suite checks that 100 rows come back, in both modes.)
 */
export async function recallByVector(
  db: Db,
  vector: string,
  options: { limit: number; catalogs?: readonly string[]; extraIds?: readonly string[] },
): Promise<DenseHit[]> {
  const efSearch = String(Math.max(40, Math.min(1000, options.limit)));
  const catalogFilter =
    options.catalogs && options.catalogs.length > 0
      ? sql`AND t.catalog = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(options.catalogs)}::jsonb)))`
      : sql``;
  const extra = options.extraIds ?? [];
  // The query vector is bound once (it is ~4 KB of text) and read through a scalar subquery, which the
  // planner turns into a parameter: ORDER BY embedding <=> $param still walks the HNSW index.
  const nearest = sql`
    SELECT t.id, t.embedding <=> (SELECT v FROM cfg) AS distance
    FROM tools t
    WHERE t.embedding IS NOT NULL AND (SELECT ok FROM cfg) IS NOT NULL ${catalogFilter}
    ORDER BY t.embedding <=> (SELECT v FROM cfg)
    LIMIT ${options.limit}`;
  const extraRows =
    extra.length === 0
      ? sql``
      : sql`UNION
    SELECT t.id, t.embedding <=> (SELECT v FROM cfg) AS distance
    FROM tools t
    WHERE t.id = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(extra)}::jsonb))) AND t.embedding IS NOT NULL`;
  const { rows } = await sql<{ id: string; distance: number }>`
    WITH cfg AS MATERIALIZED (
      SELECT set_config('hnsw.ef_search', ${efSearch}, true) || set_config('hnsw.iterative_scan', 'relaxed_order', true) AS ok,
             ${vector}::vector AS v
    )
    SELECT id, distance FROM (${nearest}) AS n
    ${extraRows}`.execute(db);
  return rows.map((r) => ({ id: r.id, cosine: 1 - Number(r.distance) }));
}

/** Only the dense channel (the "plain dense similarity" baseline of the evaluation). */
export async function nearestTools(db: Db, vector: string, limit: number): Promise<DenseHit[]> {
  return (await recallByVector(db, vector, { limit })).sort((a, b) => b.cosine - a.cosine).slice(0, limit);
}
