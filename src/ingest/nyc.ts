import type { Db } from '../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { readPlaces, SOURCE_PRESETS } from './formats.ts';
import type { PlaceFeature } from './feature.ts';
import { loadPlaces, type LoadProgress } from './load.ts';

export interface NycLoadOptions {
  /** More places loaded in the same bulk load as the Midtown extract (the first start's world cities). */
  alongside?: Iterable<PlaceFeature>;
  onProgress?: (progress: LoadProgress) => void;
  /** See LoadOptions.vectorIndexLater. */
  vectorIndexLater?: boolean | undefined;
  /** Receives milliseconds per stage of both loads (see LoadOptions.timings). */
  timings?: Record<string, number>;
}

/**
 * Loads the NYC evaluation data (Midtown OSM extract + neighbourhood polygons) with the source names and
 * ids the tests and the evaluation harness expect. Neighbourhoods first, so places can be described in them.
 * `deferVectorIndex`: true forces the bulk mode (embedded); false leaves it to the loader (bulk mode for a
 * first load, see LoadOptions.deferVectorIndex).
 */
export async function loadNycData(
  db: Db,
  embedder: Embedder,
  paths: { midtownPbf: string; neighborhoods: string },
  deferVectorIndex: boolean,
  more: NycLoadOptions = {},
): Promise<void> {
  const { alongside = [], onProgress, timings, vectorIndexLater } = more;
  const bulk = deferVectorIndex || undefined;
  // describe: false: the loader builds the descriptions from tags itself, with their street and neighbourhood.
  await loadPlaces(db, embedder, readPlaces(paths.neighborhoods, { ...SOURCE_PRESETS.nycNeighborhoods, describe: false }), {
    deferVectorIndex: bulk,
    vectorIndexLater,
    ...(timings ? { timings } : {}),
  });
  const midtown = readPlaces(paths.midtownPbf, { ...SOURCE_PRESETS.osm, skipInvalid: true, describe: false });
  await loadPlaces(db, embedder, concat(midtown, alongside), { deferVectorIndex: bulk, vectorIndexLater, onProgress, ...(timings ? { timings } : {}) });
}

async function* concat(first: AsyncIterable<PlaceFeature>, second: Iterable<PlaceFeature>): AsyncGenerator<PlaceFeature> {
  yield* first;
  yield* second;
}
