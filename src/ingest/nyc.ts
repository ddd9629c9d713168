import type { Db } from '../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { readPlaces, SOURCE_PRESETS } from './formats.ts';
import { loadPlaces } from './load.ts';

/**
 * Loads the NYC evaluation data (Midtown OSM extract + neighbourhood polygons) with the source names and
 * ids the tests and the evaluation harness expect. Neighbourhoods first, so places can be described in them.
 */
export async function loadNycData(
  db: Db,
  embedder: Embedder,
  paths: { midtownPbf: string; neighborhoods: string },
  deferVectorIndex: boolean,
): Promise<void> {
  await loadPlaces(db, embedder, readPlaces(paths.neighborhoods, SOURCE_PRESETS.nycNeighborhoods), { deferVectorIndex });
  await loadPlaces(db, embedder, readPlaces(paths.midtownPbf, { ...SOURCE_PRESETS.osm, skipInvalid: true }), {
    deferVectorIndex,
  });
}
