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

export interface Database {
  places: PlacesTable;
  embedding_spaces: EmbeddingSpacesTable;
  tools: ToolsTable;
  tools_revision: ToolsRevisionTable;
}
