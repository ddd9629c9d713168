import type { Migration } from 'kysely';
import * as places from './0001_places.ts';
import * as tools from './0002_tools.ts';
import * as readonlyRole from './0003_readonly_role.ts';
import * as memory from './0004_memory.ts';
import * as readerMemory from './0005_reader_memory.ts';
import * as memorySopAuthor from './0006_memory_sop_author.ts';
import * as candidateIndexes from './0007_candidate_indexes.ts';
import * as placeNamesIndex from './0008_place_names_index.ts';
import * as storedTagTokens from './0009_stored_tag_tokens.ts';
import * as candidateTagTokens from './0010_candidate_tag_tokens.ts';
import * as citusDistribution from './0011_citus_distribution.ts';
import * as landBorders from './0012_land_borders.ts';

/** Every migration, by name in order. A static list: no file-system scan, the same in every runner. */
export const migrations: Record<string, Migration> = {
  '0001_places': places,
  '0002_tools': tools,
  '0003_readonly_role': readonlyRole,
  '0004_memory': memory,
  '0005_reader_memory': readerMemory,
  '0006_memory_sop_author': memorySopAuthor,
  '0007_candidate_indexes': candidateIndexes,
  '0008_place_names_index': placeNamesIndex,
  '0009_stored_tag_tokens': storedTagTokens,
  '0010_candidate_tag_tokens': candidateTagTokens,
  '0011_citus_distribution': citusDistribution,
  '0012_land_borders': landBorders,
};
