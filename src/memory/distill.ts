/**
 * Distillation of an accepted run into the memory: the workflow node (task type + compressed tool
 * sequence) with its counts, provenance, parameter hints and caveats; the observed tool-to-tool
 * transitions; action-level experiences (a failed step followed by a successful retry); and the SOP of
 * the task type, rebuilt (replaced) from the evidence.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { SopEvidence, SopWriter } from './sop-writer.ts';
import { effectiveSequence, reliability, type RunInput, type RunStep } from './types.ts';

const MAX_REQUESTS = 10;
const MAX_CAVEATS = 5;
const MAX_PROVENANCE = 200;

function scalarHints(parameters: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(parameters ?? {}).slice(0, 20)) {
    if (typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && v.length <= 100)) out[k] = v;
  }
  return out;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** What changed between a failed step and its successful retry, in words. */
export function correctiveAction(failed: RunStep, between: RunStep[], retry: RunStep): string {
  const parts: string[] = [];
  const inserted = [...new Set(between.filter((s) => s.outcome === 'success' && s.toolId !== failed.toolId).map((s) => s.toolId))];
  if (retry.toolId !== failed.toolId) parts.push(`use ${retry.toolId} instead of ${failed.toolId}`);
  if (inserted.length) parts.push(`run ${inserted.join(' then ')} before ${retry.toolId}`);
  if (retry.toolId === failed.toolId) {
    const before = failed.parameters ?? {};
    const after = retry.parameters ?? {};
    const changes: string[] = [];
    for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (JSON.stringify(before[k]) === JSON.stringify(after[k])) continue;
      if (!(k in after)) changes.push(`drop ${k}`);
      else changes.push(`set ${k} = ${describe(after[k])}${k in before ? ` (was ${describe(before[k])})` : ''}`);
    }
    if (changes.length) parts.push(`retry ${retry.toolId} with ${changes.slice(0, 5).join(', ')}`);
  }
  if (parts.length === 0) parts.push(`retry ${retry.toolId} unchanged`);
  return parts.join('; ');
}

interface Lesson {
  toolId: string;
  condition: string;
  action: string;
  sourceStep: number;
}

/** Lessons from failed steps each followed by a successful retry (the same tool, or a substitute). */
export function lessonsOf(run: RunInput): Lesson[] {
  const out: Lesson[] = [];
  run.steps.forEach((step, i) => {
    if (step.outcome !== 'failure') return;
    const rest = run.steps.slice(i + 1);
    let j = rest.findIndex((s) => s.toolId === step.toolId && s.outcome === 'success');
    // No retry of the same tool: the next successful step that is not an earlier tool of the chain substitutes it.
    if (j < 0) {
      const earlier = new Set(run.steps.slice(0, i).map((s) => s.toolId));
      j = rest.findIndex((s) => s.outcome === 'success' && !earlier.has(s.toolId));
      if (j < 0 || rest.slice(0, j).some((s) => s.outcome === 'failure')) return;
    }
    const retry = rest[j]!;
    out.push({
      toolId: step.toolId,
      condition: `${step.toolId} failed: ${(step.error ?? 'error').trim().slice(0, 300)}`,
      action: correctiveAction(step, rest.slice(0, j), retry),
      sourceStep: i + 1,
    });
  });
  return out;
}

export async function distillRun(db: Db, runId: number, run: RunInput, taskType: string, options: MemoryOptions = {}): Promise<void> {
  const sequence = effectiveSequence(run);
  if (sequence.length === 0) return;
  const success = run.outcome === 'success';
  const hints: Record<string, Record<string, unknown>> = {};
  if (success) for (const s of run.steps) if (s.outcome === 'success' && s.parameters) hints[s.toolId] = scalarHints(s.parameters);
  const caveats = run.steps.filter((s) => s.outcome === 'failure' && s.error).map((s) => `${s.toolId}: ${s.error!.trim().slice(0, 200)}`);
  const description = `${taskType.replace(/_/g, ' ')}: ${sequence.join(' -> ')}`;

  await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('memory_workflows').selectAll().where('task_type', '=', taskType).where(sql<boolean>`tool_sequence = ${sql.val(sequence)}::text[]`).executeTakeFirst();
    if (existing) {
      const requests = [...new Set([run.request, ...existing.requests])].slice(0, MAX_REQUESTS);
      await trx
        .updateTable('memory_workflows')
        .set({
          requests,
          parameter_hints: JSON.stringify(success ? { ...existing.parameter_hints, ...hints } : existing.parameter_hints),
          caveats: [...new Set([...caveats, ...existing.caveats])].slice(0, MAX_CAVEATS),
          provenance: [...existing.provenance, runId].slice(-MAX_PROVENANCE),
          success_count: existing.success_count + (success ? 1 : 0),
          failure_count: existing.failure_count + (success ? 0 : 1),
          updated_at: new Date().toISOString(),
        })
        .where('id', '=', existing.id)
        .execute();
    } else {
      await trx
        .insertInto('memory_workflows')
        .values({
          task_type: taskType,
          description,
          requests: [run.request],
          tool_sequence: sequence,
          parameter_hints: JSON.stringify(hints),
          caveats: caveats.slice(0, MAX_CAVEATS),
          provenance: [runId],
          success_count: success ? 1 : 0,
          failure_count: success ? 0 : 1,
          embedding: null,
        })
        .execute();
    }
    if (success) {
      for (let i = 0; i + 1 < sequence.length; i++) {
        await sql`INSERT INTO memory_transitions (from_tool, to_tool, count) VALUES (${sequence[i]!}, ${sequence[i + 1]!}, 1)
          ON CONFLICT (from_tool, to_tool) DO UPDATE SET count = memory_transitions.count + 1`.execute(trx);
      }
    }
    for (const lesson of lessonsOf(run)) {
      // The lesson worked if the run as a whole succeeded.
      await sql`INSERT INTO memory_experiences (task_type, tool_id, condition, action, source_step, provenance, success_count, failure_count)
        VALUES (${taskType}, ${lesson.toolId}, ${lesson.condition}, ${lesson.action}, ${lesson.sourceStep}, ARRAY[${runId}]::integer[], ${success ? 1 : 0}, ${success ? 0 : 1})
        ON CONFLICT (task_type, tool_id, condition, action) DO UPDATE SET
          provenance = memory_experiences.provenance || EXCLUDED.provenance,
          success_count = memory_experiences.success_count + EXCLUDED.success_count,
          failure_count = memory_experiences.failure_count + EXCLUDED.failure_count,
          updated_at = EXCLUDED.updated_at`.execute(trx);
    }
  });
  await rebuildSop(db, taskType, options);
}

/** Options of the memory's writers: the SOP writer when an LLM is configured. */
export interface MemoryOptions {
  sopWriter?: SopWriter;
}

/** The evidence of a task type's SOP (its most reliable successful workflow, lessons, failing sequences), with the templated text. */
export async function sopEvidence(db: Db, taskType: string): Promise<SopEvidence | undefined> {
  const workflows = await db.selectFrom('memory_workflows').selectAll().where('task_type', '=', taskType).execute();
  const best = workflows
    .filter((w) => w.success_count > 0)
    .sort((a, b) => reliability(b.success_count, b.failure_count) * Math.log2(2 + b.success_count) - reliability(a.success_count, a.failure_count) * Math.log2(2 + a.success_count) || a.id - b.id)[0];
  if (!best) return undefined;
  const experiences = await db.selectFrom('memory_experiences').selectAll().where('task_type', '=', taskType).orderBy('success_count', 'desc').orderBy('id').limit(5).execute();
  const hints = best.parameter_hints as Record<string, Record<string, unknown>>;
  const lessons = experiences.filter((x) => x.success_count > 0).map((e) => ({ toolId: e.tool_id, condition: e.condition, action: e.action }));
  const avoid = workflows
    .filter((w) => w.id !== best.id && reliability(w.success_count, w.failure_count) < 0.5)
    .sort((a, b) => a.id - b.id)
    .slice(0, 3)
    .map((w) => ({ toolSequence: w.tool_sequence, failures: w.failure_count }));
  const rel = reliability(best.success_count, best.failure_count);
  const lines = [`Standard procedure for ${taskType.replace(/_/g, ' ')} (from ${best.success_count} successful run(s), reliability ${rel.toFixed(2)}):`];
  best.tool_sequence.forEach((tool, i) => {
    const hint = hints[tool];
    const params = hint && Object.keys(hint).length ? ` with ${Object.entries(hint).map(([k, v]) => `${k}=${describe(v)}`).join(', ')}` : '';
    lines.push(`${i + 1}. ${tool}${params}`);
  });
  for (const e of lessons) lines.push(`If ${e.condition}: ${e.action}.`);
  for (const w of avoid) lines.push(`Avoid ${w.toolSequence.join(' -> ')} (${w.failures} failure(s)).`);
  return {
    taskType,
    workflow: {
      toolSequence: best.tool_sequence,
      successes: best.success_count,
      failures: best.failure_count,
      reliability: Math.round(rel * 1000) / 1000,
      parameterHints: hints,
      requests: best.requests.slice(0, 3),
    },
    lessons,
    avoid,
    template: lines.join('\n'),
  };
}

/**
 * Rebuilds (replaces) the task type's standard procedure from its evidence: templated, or written by the
 * LLM when a writer is configured and its text passes the checks (sop-writer.ts); the row says which, and
 * why the LLM's text was refused. An LLM-written SOP of unchanged evidence is kept without a new call.
 */
export async function rebuildSop(db: Db, taskType: string, options: MemoryOptions = {}): Promise<string | undefined> {
  const evidence = await sopEvidence(db, taskType);
  if (!evidence) {
    await db.deleteFrom('memory_sops').where('task_type', '=', taskType).execute();
    return undefined;
  }
  const hash = createHash('sha256').update(JSON.stringify(evidence)).digest('hex').slice(0, 32);
  const writer = options.sopWriter;
  let procedure = evidence.template;
  let author: 'template' | 'llm' = 'template';
  let fallbackReason: string | null = null;
  if (writer) {
    const current = await db.selectFrom('memory_sops').selectAll().where('task_type', '=', taskType).executeTakeFirst();
    if (current && current.author === 'llm' && current.model === writer.model && current.evidence_hash === hash) return current.procedure;
    try {
      procedure = await writer.write(evidence);
      author = 'llm';
    } catch (error) {
      fallbackReason = (error as Error).message.slice(0, 500);
    }
  }
  await sql`INSERT INTO memory_sops (task_type, procedure, rebuilt_at, author, model, fallback_reason, evidence_hash)
    VALUES (${taskType}, ${procedure}, now(), ${author}, ${writer?.model ?? null}, ${fallbackReason}, ${hash})
    ON CONFLICT (task_type) DO UPDATE SET procedure = EXCLUDED.procedure, rebuilt_at = EXCLUDED.rebuilt_at, author = EXCLUDED.author,
      model = EXCLUDED.model, fallback_reason = EXCLUDED.fallback_reason, evidence_hash = EXCLUDED.evidence_hash`.execute(db);
  return procedure;
}
