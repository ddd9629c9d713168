/**
 * Index DDL that runtime code re-creates after bulk work (a large load or a re-embedding drops the HNSW index
 * and builds it once at the end, far faster than maintaining it row by row). The migrations keep their own
 * frozen copies: a migration must not change when this file does.
 */

/** Approximate nearest-neighbour index over place descriptions; small graph parameters keep builds fast. */
export const PLACES_HNSW_INDEX =
  'CREATE INDEX places_embedding_idx ON places USING hnsw (embedding vector_cosine_ops) WITH (m = 8, ef_construction = 24)';

export const TOOLS_HNSW_INDEX = 'CREATE INDEX tools_embedding_idx ON tools USING hnsw (embedding vector_cosine_ops)';
