/**
 * The rows of a load on their way to the database: the temporary tables' columns, the binary COPY of the
 * embedded mode, and the text a place's vector is made from.
 */
import { CompiledQuery, sql, type RawBuilder } from 'kysely';
import { CopyData } from '../db/pglite-dialect.ts';
import { CopyWriter, NonFiniteCoordinate, type ArrayElementType, type RowWriter } from './binary.ts';
import { IngestError, type PlaceFeature } from './feature.ts';

/** A row on its way to places. */
export interface StagedRow {
  seq: number;
  feature: PlaceFeature;
  description: string;
  vector: number[] | null;
  /**
   * Waiting rows: the description with STREET_SLOT where the street goes if one is found (finished in
   * SQL, so only the geometry of waiting rows is read back; see describeWithStreetSlot).
   */
  descriptionWithStreet?: string;
}

export type Columns = Readonly<Record<string, ArrayElementType>>;

export interface UpsertResult {
  written: number;
  repaired: string[] | null;
}

/** Embedded: rows into a temporary table by binary COPY through PGlite's /dev/blob. */
export function copyQuery(table: string, columns: Columns, fill: (w: RowWriter) => void): CompiledQuery {
  const w = new CopyWriter();
  fill(w);
  return CompiledQuery.raw(`COPY ${table} (${Object.keys(columns).join(', ')}) FROM '/dev/blob' WITH (FORMAT binary)`, [new CopyData(w.take())]);
}

/** Columns of places_stage, in the order writeStaged writes them. */
export const STAGE_COLUMNS: Columns = {
  seq: 'int4', source: 'text', source_id: 'text', name: 'text', category: 'text', tags: 'jsonb',
  description: 'text', geom: 'geometry', embedding: 'vector',
};
export const WAITING_COLUMNS: Columns = { ...STAGE_COLUMNS, description_street: 'text' };
export const DESCRIBED_COLUMNS: Columns = { seq: 'int4', street: 'text', embedding: 'vector' };

export function columnList(columns: Columns): RawBuilder<unknown> {
  return sql.raw(`(${Object.keys(columns).join(', ')})`);
}

export function writeStaged(w: RowWriter, rows: StagedRow[], waiting: boolean): void {
  for (const { seq, feature: f, description, vector, descriptionWithStreet } of rows) {
    w.row(waiting ? 10 : 9);
    w.int4(seq);
    w.text(f.source);
    w.text(f.sourceId);
    w.text(f.name);
    w.text(f.category);
    w.jsonb(JSON.stringify(f.tags));
    w.text(description);
    try {
      w.geometry(f.geometry);
    } catch (e) {
      // Readers check coordinates; this catches features built in code.
      if (e instanceof NonFiniteCoordinate) throw new IngestError(f.source, f.sourceId, e.message);
      throw e;
    }
    w.vector(vector);
    if (waiting) w.text(descriptionWithStreet ?? null);
  }
}

/** What the vector of a place stands for: its name, kind and description. */
export function embeddingText(feature: Pick<PlaceFeature, 'name' | 'description'>): string {
  return feature.name && !feature.description.includes(feature.name)
    ? `${feature.name}. ${feature.description}`
    : feature.description;
}
