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

export interface Database {
  places: PlacesTable;
  embedding_spaces: EmbeddingSpacesTable;
}
