import { sql, type Kysely } from 'kysely';

/** Dimension of the tool embedding column; it follows the embedding model like `places.embedding`. */
export const TOOLS_EMBEDDING_DIMENSION = 384;

/**
 * Default HNSW parameters: the tool table is small (hundreds to tens of thousands of rows) and is
 * searched with a top-100 recall, where recall quality matters more than build time.
 */
export const TOOLS_HNSW_INDEX = 'CREATE INDEX tools_embedding_idx ON tools USING hnsw (embedding vector_cosine_ops)';

/**
 * The EO tool registry.
 *
 * No `tool_relations` table: every relation (prerequisite, downstream, "A's output feeds B's input") is
 * derived from the tools' own metadata, and input/output compatibility relates a new tool to every
 * compatible tool already registered. A materialised edge table would need O(n) rewrites on each
 * registration and could go stale; instead each row stores `produces` (its output products closed under
 * the knowledge graph's "satisfies" relation, GIN-indexed), which answers "who can produce X" in SQL,
 * and the search layer keeps an in-memory graph per `tools_revision`, rebuilt only after a write.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS vector`.execute(db);
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);

  await sql`
    CREATE TABLE tools (
      id text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 200),
      name text NOT NULL,
      description text NOT NULL,
      catalog text NOT NULL DEFAULT 'default',
      function text NOT NULL,
      inputs jsonb NOT NULL DEFAULT '[]'::jsonb,
      outputs jsonb NOT NULL DEFAULT '[]'::jsonb,
      prerequisites text[] NOT NULL DEFAULT '{}',
      downstream text[] NOT NULL DEFAULT '{}',
      modalities text[] NOT NULL DEFAULT '{}',
      data_sources text[] NOT NULL DEFAULT '{}',
      attributes jsonb NOT NULL DEFAULT '{}'::jsonb,
      version text NOT NULL DEFAULT '1.0.0',
      keywords text[] NOT NULL DEFAULT '{}',
      derived text[] NOT NULL DEFAULT '{}',
      produces text[] NOT NULL DEFAULT '{}',
      capability_text text NOT NULL,
      embedding vector(${sql.raw(String(TOOLS_EMBEDDING_DIMENSION))}),
      embedding_model text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX tools_catalog_idx ON tools (catalog)`.execute(db);
  await sql`CREATE INDEX tools_function_idx ON tools (function)`.execute(db);
  await sql`CREATE INDEX tools_produces_idx ON tools USING gin (produces)`.execute(db);
  // GET /v1/tools?q= matches a substring of the id or name.
  await sql`CREATE INDEX tools_name_trgm_idx ON tools USING gin ((lower(id || ' ' || name)) gin_trgm_ops)`.execute(db);
  await sql`${sql.raw(TOOLS_HNSW_INDEX)}`.execute(db);

  // A counter bumped by every write to `tools` (whatever the writer: service, CLI, another instance), so
  // that readers can cache the catalog and know in one cheap query whether it changed.
  await sql`CREATE TABLE tools_revision (id boolean PRIMARY KEY DEFAULT true CHECK (id), revision bigint NOT NULL)`.execute(db);
  await sql`INSERT INTO tools_revision (id, revision) VALUES (true, 0)`.execute(db);
  await sql`
    CREATE FUNCTION tools_bump_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE tools_revision SET revision = revision + 1;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER tools_revision_trigger AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tools
    FOR EACH STATEMENT EXECUTE FUNCTION tools_bump_revision()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS tools`.execute(db);
  await sql`DROP FUNCTION IF EXISTS tools_bump_revision()`.execute(db);
  await sql`DROP TABLE IF EXISTS tools_revision`.execute(db);
}
