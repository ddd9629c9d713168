import { sql, type Kysely } from 'kysely';

/** Dimension of the place embedding column; `npm run reembed` changes it when the embedding model changes. */
export const INITIAL_EMBEDDING_DIMENSION = 384;

/**
 * m = 8, ef_construction = 24 instead of pgvector's 16/64: the question path ranks vectors inside a spatial
 * window exactly (EXPLAIN at 10k to 1M places never chose this index there), so it serves unfiltered vector
 * searches, and its build is the largest single cost of a bulk load. Measured in PGlite on the 9,725 Midtown
 * vectors (200 queries, recall@10 by distance, default ef_search): 16/64 builds in 5.2 s CPU (recall 0.99),
 * 12/40 in 3.8 s (0.95), 8/32 in 2.0 s (0.944–0.965), 8/24 in 1.7 s (0.943–0.945); 8/20 and 6/24 fall to ~0.91.
 */
export const PLACES_HNSW_INDEX =
  'CREATE INDEX places_embedding_idx ON places USING hnsw (embedding vector_cosine_ops) WITH (m = 8, ef_construction = 24)';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS postgis`.execute(db);
  await sql`CREATE EXTENSION IF NOT EXISTS vector`.execute(db);
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);

  await sql`
    CREATE TABLE places (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      source text NOT NULL,
      source_id text NOT NULL,
      name text,
      category text,
      tags jsonb NOT NULL DEFAULT '{}'::jsonb,
      description text NOT NULL DEFAULT '',
      geom geometry(Geometry, 4326) NOT NULL,
      -- metre distances and DWithin on the sphere, indexed, without a cast per row per query
      geog geography(Geometry, 4326) GENERATED ALWAYS AS (geom::geography) STORED,
      embedding vector(${sql.raw(String(INITIAL_EMBEDDING_DIMENSION))}),
      embedding_model text,
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT places_source_key UNIQUE (source, source_id)
    )`.execute(db);
  await sql`CREATE INDEX places_geom_idx ON places USING gist (geom)`.execute(db);
  await sql`CREATE INDEX places_geog_idx ON places USING gist (geog)`.execute(db);
  await sql`CREATE INDEX places_name_trgm_idx ON places USING gin (lower(name) gin_trgm_ops) WHERE name IS NOT NULL`.execute(db);
  await sql`CREATE INDEX places_category_idx ON places (category)`.execute(db);
  await sql`${sql.raw(PLACES_HNSW_INDEX)}`.execute(db);

  // Which embedding model filled each vector space: vectors of two models are never compared.
  await sql`
    CREATE TABLE embedding_spaces (
      name text PRIMARY KEY,
      model text NOT NULL,
      dimension integer NOT NULL CHECK (dimension > 0),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS embedding_spaces`.execute(db);
  await sql`DROP TABLE IF EXISTS places`.execute(db);
}
