/**
 * The registry service: registration with metadata derivation, updates, deletion and bulk catalog
 * imports. Every write renders the capability text and embeds it in the same call, so a tool is
 * searchable as soon as the write returns: nothing is trained, nothing is rebuilt offline.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { ensureEmbeddingSpace, toVectorLiteral, vectorColumnDimension } from '../embedding/space.ts';
import { TOOLS_HNSW_INDEX } from '../db/indexes.ts';
import { producesOf, renderCapabilityText, type NeighbourInfo } from './capability.ts';
import { DOMAIN_CATALOG, loadDomainCatalog } from './catalog/domain.ts';
import { readJsonFile, ToolImportError } from './importers/import-error.ts';
import { importOpenEOProcesses } from './importers/openeo.ts';
import { importSpectralIndices } from './importers/spectral-indices.ts';
import {
  catalogsOf,
  deleteToolRow,
  getToolRow,
  insertTool,
  neighbourRows,
  replaceTool,
  upsertTools,
  type StoredTool,
  type ToolRow,
} from './repository.ts';
import type { ToolRecord } from './schema.ts';
import { deriveToolMetadata, type MinimalToolInput } from './tool.ts';

export class ToolConflictError extends Error {
  override name = 'ToolConflictError';
}

/** Rows per INSERT statement of a bulk import (one JSON parameter each). */
const BATCH = 500;

/** Completes a registration: fields the caller did not give are derived and listed in `derived`. */
export function completeRecord(input: MinimalToolInput): ToolRecord {
  return deriveToolMetadata(input);
}

async function neighbourLookup(db: Db, tools: readonly ToolRecord[]): Promise<(id: string) => NeighbourInfo | undefined> {
  const inBatch = new Map(tools.map((t) => [t.id, { id: t.id, name: t.name, function: t.function }] as const));
  const wanted = [...new Set(tools.flatMap((t) => [...t.prerequisites, ...t.downstream]))].filter((id) => !inBatch.has(id));
  const stored = new Map((await neighbourRows(db, wanted)).map((r) => [r.id, r] as const));
  return (id) => inBatch.get(id) ?? stored.get(id);
}

/** Capability texts, products and embeddings of records about to be written. */
export async function prepareTools(db: Db, embedder: Embedder, tools: readonly ToolRecord[]): Promise<StoredTool[]> {
  const lookup = await neighbourLookup(db, tools);
  const texts = tools.map((t) => renderCapabilityText(t, lookup));
  const vectors = await embedder.embed(texts);
  return tools.map((record, i) => ({
    record,
    capabilityText: texts[i]!,
    produces: producesOf(record),
    embedding: vectors[i] ? toVectorLiteral(vectors[i]!) : null,
    embeddingModel: vectors[i] ? embedder.model : null,
  }));
}

export interface RegisterResult {
  tool: ToolRow;
  /** Fields inferred from the text rather than given. */
  derived: string[];
}

/** Registers a new tool; throws ToolConflictError when the id exists. */
export async function registerTool(db: Db, embedder: Embedder, input: MinimalToolInput): Promise<RegisterResult> {
  const record = completeRecord(input);
  const [prepared] = await prepareTools(db, embedder, [record]);
  await db.transaction().execute(async (trx) => {
    await ensureEmbeddingSpace(trx, 'tools', embedder);
    if (!(await insertTool(trx, prepared!))) throw new ToolConflictError(`a tool with id '${record.id}' exists already`);
  });
  return { tool: (await getToolRow(db, record.id))!, derived: record.derived };
}

/** Replaces a tool's metadata (derivation applies to the fields not given); undefined if there is none. */
export async function updateTool(db: Db, embedder: Embedder, input: MinimalToolInput): Promise<RegisterResult | undefined> {
  const record = completeRecord(input);
  const [prepared] = await prepareTools(db, embedder, [record]);
  const found = await db.transaction().execute(async (trx) => {
    await ensureEmbeddingSpace(trx, 'tools', embedder);
    return replaceTool(trx, prepared!);
  });
  if (!found) return undefined;
  return { tool: (await getToolRow(db, record.id))!, derived: record.derived };
}

export async function deleteTool(db: Db, id: string): Promise<boolean> {
  return deleteToolRow(db, id);
}

export interface ImportReport {
  /** Tools written (inserted or updated). */
  written: number;
  /** Ids left alone because another catalog owns them. */
  skipped: { id: string; ownedBy: string }[];
  ms: number;
}

export interface ImportOptions {
  /**
   * Take over ids registered by other catalogs. The built-in domain catalog does (its records are
   * curated and authoritative); catalog imports do not, so that e.g. the openEO proposal
   * `atmospheric_correction` never overwrites the domain tool of the same id.
   */
  takeOver?: boolean;
}

/**
 * Writes a batch of complete records in ONE transaction (all or nothing), upserting by id. Re-importing a
 * catalog updates it in place.
 */
export async function importTools(db: Db, embedder: Embedder, tools: readonly ToolRecord[], options: ImportOptions = {}): Promise<ImportReport> {
  const started = performance.now();
  const unique = [...new Map(tools.map((t) => [t.id, t])).values()];
  const report: ImportReport = { written: 0, skipped: [], ms: 0 };
  await db.transaction().execute(async (trx) => {
    await ensureEmbeddingSpace(trx, 'tools', embedder);
    const owners = await catalogsOf(trx, unique.map((t) => t.id));
    const writable = unique.filter((t) => {
      const owner = owners.get(t.id);
      if (!owner || owner === t.catalog || options.takeOver) return true;
      report.skipped.push({ id: t.id, ownedBy: owner });
      return false;
    });
    for (let i = 0; i < writable.length; i += BATCH) {
      const batch = writable.slice(i, i + BATCH);
      await upsertTools(trx, await prepareTools(trx, embedder, batch));
      report.written += batch.length;
    }
  });
  // Fresh statistics after a bulk write, so that the planner keeps choosing the indexes.
  if (report.written >= 100) await sql`ANALYZE tools`.execute(db);
  report.ms = Math.round(performance.now() - started);
  return report;
}

/** Loads (or refreshes) the built-in domain catalog. Called on the service's first start and by `npm run seed`. */
export async function loadBuiltinTools(db: Db, embedder: Embedder): Promise<ImportReport> {
  return importTools(db, embedder, loadDomainCatalog(), { takeOver: true });
}

/** Whether the built-in catalog is loaded (the service loads it on a first start only). */
export async function hasBuiltinTools(db: Db): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM tools WHERE catalog = ${DOMAIN_CATALOG}`.execute(db);
  return (rows[0]?.n ?? 0) > 0;
}

// ---------------------------------------------------------------------------------------------------
// Catalog files

export type CatalogKind = 'openeo' | 'spectral-indices' | 'tool-records';

const RecordFileSchema = z.union([
  z.array(z.looseObject({ id: z.string() })),
  z.looseObject({ tools: z.array(z.looseObject({ id: z.string() })), catalog: z.string().optional(), version: z.string().optional() }),
]);

const readJson = (path: string): unknown => readJsonFile(path, 'tool import');

/**
 * What a path holds: a folder of openEO process files (or the spectral-indices folder), the spectral
 * indices dictionary, a `GET /processes` body or one process, or a file of tool records (this registry's
 * own format: an array of records or `{catalog, tools: [...]}`).
 */
export function detectCatalog(path: string): CatalogKind {
  if (!existsSync(path)) throw new ToolImportError(`no such file or folder: ${path}`, path);
  if (statSync(path).isDirectory()) {
    if (existsSync(join(path, 'spectral-indices-dict.json'))) return 'spectral-indices';
    if (readdirSync(path).some((f) => f.endsWith('.json'))) return 'openeo';
    throw new ToolImportError(`${path} holds no JSON files`, path);
  }
  const data = readJson(path) as Record<string, unknown> | unknown[];
  if (!Array.isArray(data) && data && typeof data === 'object') {
    if ('SpectralIndices' in data) return 'spectral-indices';
    if (Array.isArray(data.processes)) return 'openeo';
    if (Array.isArray(data.tools)) return 'tool-records';
    if (typeof data.id === 'string' && ('parameters' in data || 'returns' in data || 'process_graph' in data)) return 'openeo';
    const first = Object.values(data)[0] as Record<string, unknown> | undefined;
    if (first && typeof first === 'object' && 'short_name' in first && 'formula' in first) return 'spectral-indices';
  }
  if (Array.isArray(data)) {
    const first = data[0] as Record<string, unknown> | undefined;
    if (first && ('parameters' in first || 'returns' in first)) return 'openeo';
    return 'tool-records';
  }
  throw new ToolImportError(`${path}: not an openEO process set, a spectral-indices dictionary or a tool-record file`, path);
}

/** What every record of a file must have; the rest is derived (and validated) by deriveToolMetadata. */
const MinimalRecordSchema = z.looseObject({ id: z.string().min(1), name: z.string().min(1), description: z.string().min(1) });

function readToolRecords(path: string): ToolRecord[] {
  return parseToolRecords(readJson(path), path);
}

/**
 * Tool records in this registry's own format (an array of records or `{catalog, version, tools}`), each
 * completed by deriveToolMetadata; `where` names the file or body in errors.
 */
export function parseToolRecords(data: unknown, where: string): ToolRecord[] {
  const path = where;
  const parsed = RecordFileSchema.safeParse(data);
  if (!parsed.success) throw new ToolImportError(`${path}: ${z.prettifyError(parsed.error)}`, path);
  const file = parsed.data;
  const raw = Array.isArray(file) ? file : file.tools;
  const defaults = Array.isArray(file) ? {} : { ...(file.catalog ? { catalog: file.catalog } : {}), ...(file.version ? { version: file.version } : {}) };
  return raw.map((r, i) => {
    const input = { ...defaults, ...r } as MinimalToolInput;
    const check = MinimalRecordSchema.safeParse(input);
    if (!check.success) throw new ToolImportError(`${path}: tool #${i}: ${z.prettifyError(check.error)}`, path);
    try {
      return deriveToolMetadata(input);
    } catch (error) {
      const detail = error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message;
      throw new ToolImportError(`${path}: tool ${input.id}: ${detail}`, path);
    }
  });
}

/** Reads the records of one catalog path (see detectCatalog). */
export function readCatalog(path: string): { kind: CatalogKind; tools: ToolRecord[] } {
  const kind = detectCatalog(path);
  if (kind === 'spectral-indices') return { kind, tools: importSpectralIndices(path) };
  if (kind === 'openeo') return { kind, tools: importOpenEOProcesses(path) };
  return { kind, tools: readToolRecords(path) };
}

export interface CatalogImportReport extends ImportReport {
  path: string;
  kind: CatalogKind;
  read: number;
}

/** Imports catalog files (one transaction each, see importTools); used by `npm run tools:import`. */
export async function importToolCatalogs(db: Db, embedder: Embedder, paths: readonly string[]): Promise<CatalogImportReport[]> {
  const reports: CatalogImportReport[] = [];
  for (const path of paths) {
    const { kind, tools } = readCatalog(path);
    const report = await importTools(db, embedder, tools);
    reports.push({ path, kind, read: tools.length, ...report });
  }
  return reports;
}

/**
 * Re-renders and re-embeds every tool with `embedder` (after a change of embedding model or of the
 * knowledge graph), in one transaction, and records the model of the `tools` vector space.
 */
export async function reembedTools(db: Db, embedder: Embedder): Promise<number> {
  const { rows } = await sql<{ id: string }>`SELECT id FROM tools ORDER BY id`.execute(db);
  const [probe] = await embedder.embed(['dimension probe']);
  const dimension = probe!.length;
  let done = 0;
  await db.transaction().execute(async (trx) => {
    await sql`DROP INDEX IF EXISTS tools_embedding_idx`.execute(trx);
    if ((await vectorColumnDimension(trx, 'tools')) !== dimension) {
      await sql`ALTER TABLE tools ALTER COLUMN embedding TYPE ${sql.raw(`vector(${dimension})`)} USING NULL`.execute(trx);
    }
    for (let i = 0; i < rows.length; i += BATCH) {
      const ids = rows.slice(i, i + BATCH).map((r) => r.id);
      const records = (await Promise.all(ids.map((id) => getToolRow(trx, id)))).filter((r): r is ToolRow => !!r);
      await upsertTools(trx, await prepareTools(trx, embedder, records.map(toRecord)));
      done += records.length;
    }
    await sql`${sql.raw(TOOLS_HNSW_INDEX)}`.execute(trx);
    await trx
      .insertInto('embedding_spaces')
      .values({ name: 'tools', model: embedder.model, dimension })
      .onConflict((oc) => oc.column('name').doUpdateSet({ model: embedder.model, dimension, updated_at: sql`excluded.updated_at` as never }))
      .execute();
  });
  return done;
}

/** The record part of a stored row. */
export function toRecord(row: ToolRow): ToolRecord {
  const { capabilityText: _c, produces: _p, embeddingModel: _m, createdAt: _a, updatedAt: _u, ...record } = row;
  return record;
}
