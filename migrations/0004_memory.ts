import { sql, type Kysely } from 'kysely';

/**
 * Self-evolving workflow memory (issue 6). `runs` keeps every reported run as sent (auditable), accepted or
 * rejected with the gate's reasons; only accepted runs are distilled into the other tables, which are
 * evidence summaries that management routes may inspect, delete, export, import and reset.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE runs (
      id serial PRIMARY KEY,
      request text NOT NULL,
      task_type text NOT NULL,
      context jsonb NOT NULL DEFAULT '{}'::jsonb,
      steps jsonb NOT NULL DEFAULT '[]'::jsonb,
      outcome text NOT NULL,
      answer text,
      rating integer,
      client text NOT NULL DEFAULT 'anonymous',
      fingerprint text NOT NULL,
      status text NOT NULL CHECK (status IN ('accepted', 'rejected')),
      reasons text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX runs_client_fingerprint_idx ON runs (client, fingerprint)`.execute(db);
  await sql`CREATE INDEX runs_status_idx ON runs (status, task_type)`.execute(db);

  await sql`
    CREATE TABLE memory_workflows (
      id serial PRIMARY KEY,
      task_type text NOT NULL,
      description text NOT NULL,
      requests text[] NOT NULL DEFAULT '{}',
      tool_sequence text[] NOT NULL,
      parameter_hints jsonb NOT NULL DEFAULT '{}'::jsonb,
      caveats text[] NOT NULL DEFAULT '{}',
      provenance integer[] NOT NULL DEFAULT '{}',
      success_count integer NOT NULL DEFAULT 0,
      failure_count integer NOT NULL DEFAULT 0,
      embedding vector(384),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (task_type, tool_sequence)
    )`.execute(db);

  await sql`
    CREATE TABLE memory_transitions (
      from_tool text NOT NULL,
      to_tool text NOT NULL,
      count integer NOT NULL DEFAULT 0,
      PRIMARY KEY (from_tool, to_tool)
    )`.execute(db);

  await sql`
    CREATE TABLE memory_experiences (
      id serial PRIMARY KEY,
      task_type text NOT NULL,
      tool_id text NOT NULL,
      condition text NOT NULL,
      action text NOT NULL,
      source_step integer NOT NULL,
      provenance integer[] NOT NULL DEFAULT '{}',
      success_count integer NOT NULL DEFAULT 0,
      failure_count integer NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (task_type, tool_id, condition, action)
    )`.execute(db);

  await sql`
    CREATE TABLE memory_sops (
      task_type text PRIMARY KEY,
      procedure text NOT NULL,
      rebuilt_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['memory_sops', 'memory_experiences', 'memory_transitions', 'memory_workflows', 'runs']) {
    await sql`DROP TABLE IF EXISTS ${sql.table(t)}`.execute(db);
  }
}
