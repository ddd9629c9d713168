import { sql, type Kysely } from 'kysely';

/**
 * Who wrote each SOP (issue 6: "templated offline, LLM-written when an LLM is configured"): `author` is
 * 'template' or 'llm', `model` the model that wrote it, `fallback_reason` why an LLM-written procedure was
 * refused and the template kept, and `evidence_hash` the evidence it was written from, so that an
 * unchanged evidence does not cost another model call.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE memory_sops
      ADD COLUMN author text NOT NULL DEFAULT 'template' CHECK (author IN ('template', 'llm')),
      ADD COLUMN model text,
      ADD COLUMN fallback_reason text,
      ADD COLUMN evidence_hash text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE memory_sops DROP COLUMN author, DROP COLUMN model, DROP COLUMN fallback_reason, DROP COLUMN evidence_hash`.execute(db);
}
