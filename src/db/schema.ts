import type { ColumnType, Generated } from 'kysely';

/** Kysely's view of the tables. Geometry, geography and vector columns are written and read through SQL functions. */
export interface PlacesTable {
  id: Generated<number>;
  source: string;
  source_id: string;
  name: string | null;
  category: string | null;
  tags: ColumnType<Record<string, string>, string, string>;
  description: string;
  geom: ColumnType<unknown, string, string>;
  geog: ColumnType<unknown, never, never>;
  /** Generated from tags for the candidates, NULL for other rows (migrations 0009, 0010): the `key=value` tokens the tag index covers. */
  tag_tokens: ColumnType<string[] | null, never, never>;
  embedding: ColumnType<string | null, string | null, string | null>;
  embedding_model: string | null;
  updated_at: ColumnType<Date, never, string>;
}

export interface EmbeddingSpacesTable {
  name: string;
  model: string;
  dimension: number;
  updated_at: ColumnType<Date, never, string>;
}

/** The EO tool registry (migrations/0002_tools.ts); list columns are text[], ports and attributes jsonb. */
export interface ToolsTable {
  id: string;
  name: string;
  description: string;
  catalog: string;
  function: string;
  inputs: ColumnType<unknown[], string, string>;
  outputs: ColumnType<unknown[], string, string>;
  prerequisites: string[];
  downstream: string[];
  modalities: string[];
  data_sources: string[];
  attributes: ColumnType<Record<string, unknown>, string, string>;
  version: string;
  keywords: string[];
  derived: string[];
  produces: string[];
  capability_text: string;
  embedding: ColumnType<string | null, string | null, string | null>;
  embedding_model: string | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, string>;
}

export interface ToolsRevisionTable {
  id: ColumnType<boolean, never, never>;
  revision: ColumnType<number, never, never>;
}

/** Workflow memory (migrations/0004_memory.ts); bigint ids and counts are read as numbers. */
export interface RunsTable {
  id: Generated<number>;
  request: string;
  task_type: string;
  context: ColumnType<Record<string, unknown>, string, string>;
  steps: ColumnType<unknown[], string, string>;
  outcome: string;
  answer: string | null;
  rating: number | null;
  client: string;
  fingerprint: string;
  status: 'accepted' | 'rejected';
  reasons: string[];
  created_at: ColumnType<Date, never, never>;
}

export interface MemoryWorkflowsTable {
  id: Generated<number>;
  task_type: string;
  description: string;
  requests: string[];
  tool_sequence: string[];
  parameter_hints: ColumnType<Record<string, unknown>, string, string>;
  caveats: string[];
  provenance: number[];
  success_count: number;
  failure_count: number;
  embedding: ColumnType<string | null, string | null, string | null>;
  updated_at: ColumnType<Date, never, string>;
}

export interface MemoryTransitionsTable {
  from_tool: string;
  to_tool: string;
  count: number;
}

export interface MemoryExperiencesTable {
  id: Generated<number>;
  task_type: string;
  tool_id: string;
  condition: string;
  action: string;
  source_step: number;
  provenance: number[];
  success_count: number;
  failure_count: number;
  updated_at: ColumnType<Date, never, string>;
}

export interface MemorySopsTable {
  task_type: string;
  procedure: string;
  rebuilt_at: ColumnType<Date, never, string>;
  author: ColumnType<'template' | 'llm', 'template' | 'llm' | undefined, 'template' | 'llm'>;
  model: string | null;
  fallback_reason: string | null;
  evidence_hash: string | null;
}

/** One row: bumped by every statement that changes places (migration 0007), for caches derived from places. */
export interface PlacesVersionTable {
  version: ColumnType<string, never, never>;
}

export interface Database {
  places: PlacesTable;
  places_version: PlacesVersionTable;
  embedding_spaces: EmbeddingSpacesTable;
  tools: ToolsTable;
  tools_revision: ToolsRevisionTable;
  runs: RunsTable;
  memory_workflows: MemoryWorkflowsTable;
  memory_transitions: MemoryTransitionsTable;
  memory_experiences: MemoryExperiencesTable;
  memory_sops: MemorySopsTable;
}
