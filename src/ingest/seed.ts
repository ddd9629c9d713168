import type { Db } from '../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { sql } from 'kysely';
import { importerForPath } from '../tools/importers/importer.ts';
import { importToolCatalogs, loadBuiltinTools, readCatalog, type CatalogImportReport } from '../tools/registry.ts';
import type { PlaceFeature } from './feature.ts';
import { writeLandBorders, type LandBorder } from './land-borders.ts';
import { loadPlaces, type LoadProgress } from './load.ts';
import { loadNycData } from './nyc.ts';

/** What a seed set holds (its definitions are in the top-level seed/ folder). */
export interface SeedPlaces {
  demo?: { midtownPbf: string; neighborhoods: string };
  /** Per source, its places and, for areas that meet on shared outlines (countries), their land borders. */
  places: { source: string; features: () => Iterable<PlaceFeature>; landBorders?: () => Iterable<LandBorder> }[];
}

export interface SeedLoadOptions {
  /** Bulk mode (embedded: one connection anyway; see LoadOptions.deferVectorIndex). */
  bulk: boolean;
  onProgress?: (progress: LoadProgress) => void;
  /** Leave the vector index to buildVectorIndex after the load (see LoadOptions.vectorIndexLater). */
  vectorIndexLater?: boolean;
  /** Receives milliseconds per stage (see LoadOptions.timings). */
  timings?: Record<string, number>;
}

/**
 * Loads a seed set's places in one bulk load (the demo's neighbourhoods first, so that the places after them
 * are described in them): a second load into a filled table keeps its indexes up row by row, several times slower.
 */
export async function loadSeedPlaces(db: Db, embedder: Embedder, set: SeedPlaces, options: SeedLoadOptions): Promise<void> {
  const world = allPlaces(set.places);
  if (set.demo) {
    await loadNycData(db, embedder, set.demo, options.bulk, { alongside: world, onProgress: options.onProgress, timings: options.timings, vectorIndexLater: options.vectorIndexLater });
  } else {
    await loadPlaces(db, embedder, world, {
      deferVectorIndex: options.bulk || undefined,
      vectorIndexLater: options.vectorIndexLater,
      onProgress: options.onProgress,
      timings: options.timings,
    });
  }
  const started = performance.now();
  for (const group of set.places) if (group.landBorders) await writeLandBorders(db, group.source, group.landBorders());
  if (options.timings) options.timings.landBorders = performance.now() - started;
}

/**
 * Writes the land borders of a seed's sources whose areas are in but whose borders are not: a database seeded
 * before borders were stored would otherwise measure "near the border" to the coast. Checked on every start;
 * returns the number of borders written.
 */
export async function fillMissingLandBorders(db: Db, groups: SeedPlaces['places']): Promise<number> {
  let written = 0;
  for (const group of groups) {
    if (!group.landBorders) continue;
    // Two statements: under Citus, places is distributed and land_borders a local table of the coordinator.
    const areas = await sql`SELECT 1 FROM places WHERE source = ${group.source} LIMIT 1`.execute(db);
    const borders = await sql`SELECT 1 FROM land_borders WHERE source = ${group.source} LIMIT 1`.execute(db);
    if (areas.rows.length > 0 && borders.rows.length === 0) written += await writeLandBorders(db, group.source, group.landBorders());
  }
  return written;
}

function* allPlaces(groups: SeedPlaces['places']): Generator<PlaceFeature> {
  for (const group of groups) yield* group.features();
}

/** The built-in tool records and the seed's catalog folders; returns the number of tools written. */
export async function loadSeedTools(db: Db, embedder: Embedder, toolCatalogs: readonly string[]): Promise<number> {
  const builtin = await loadBuiltinTools(db, embedder);
  const catalogs = await importToolCatalogs(db, embedder, toolCatalogs);
  return builtin.written + catalogs.reduce((n, c) => n + c.written, 0);
}

/**
 * Imports the catalog folders whose catalog has no tool in the table yet (the first start, or one that was
 * interrupted); a folder whose format does not fix its catalog name is read to learn it.
 */
export async function importMissingCatalogs(db: Db, embedder: Embedder, toolCatalogs: readonly string[]): Promise<CatalogImportReport[]> {
  const { rows } = await sql<{ catalog: string }>`SELECT DISTINCT catalog FROM tools`.execute(db);
  const present = new Set(rows.map((r) => r.catalog));
  const missing = toolCatalogs.filter((path) => {
    const { catalog } = importerForPath(path);
    return catalog === undefined ? readCatalog(path).tools.some((t) => !present.has(t.catalog)) : !present.has(catalog);
  });
  return importToolCatalogs(db, embedder, missing);
}

export async function hasPlaces(db: Db): Promise<boolean> {
  return (await db.selectFrom('places').select('id').limit(1).executeTakeFirst()) !== undefined;
}
