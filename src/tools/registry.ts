/**
 * The registry service: registration with metadata derivation, updates, deletion and bulk catalog
 * imports. Every write renders the capability text and embeds it in the same call, so a tool is
 * searchable as soon as the write returns: nothing is trained, nothing is rebuilt offline.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { ensureEmbeddingSpace, toVectorLiteral, vectorColumnDimension } from '../embedding/space.ts';
import { TOOLS_HNSW_INDEX } from '../db/indexes.ts';
import { producesOf, renderCapabilityText, type NeighbourInfo } from './capability.ts';
import { DOMAIN_CATALOG, loadDomainCatalog } from './catalog/domain.ts';
import { importerForPath, type CatalogKind } from './importers/importer.ts';
import { parseToolRecords } from './importers/tool-records.ts';
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

export type { CatalogKind };
export { parseToolRecords };

/** What a path holds (see importers/importer.ts). */
export function detectCatalog(path: string): CatalogKind {
  return importerForPath(path).kind;
}

/** Reads the records of one catalog path with the importer that reads it (see importers/importer.ts). */
export function readCatalog(path: string): { kind: CatalogKind; tools: ToolRecord[] } {
  const importer = importerForPath(path);
  return { kind: importer.kind, tools: importer.read(path, path) };
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
