/** Runs and memory items: recording (gate + distillation), listing, deletion, export/import, reset. */
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { catalogSnapshot } from '../tools/catalog-cache.ts';
import { parseToolRequest } from '../tools/request/index.ts';
import { distillRun, rebuildSop, type MemoryOptions } from './distill.ts';
import { fingerprintOf, gateRun, requestContextOf } from './gate.ts';
import { reliability, type RunInput } from './types.ts';

export interface RecordedRun {
  id: number;
  status: 'accepted' | 'rejected';
  taskType: string;
  reasons?: string[];
}

/** The task type a run is about: as stated, else the request's strongest task type. */
export function taskTypeOf(run: RunInput): string {
  if (run.taskType) return run.taskType;
  return parseToolRequest(run.request.slice(0, 2000), requestContextOf(run.context)).taskTypes[0]?.id ?? 'general';
}

/** Stores the run as sent, with the gate's verdict; accepted runs are distilled into the memory. */
export async function recordRun(db: Db, run: RunInput, options: MemoryOptions = {}): Promise<RecordedRun> {
  const taskType = taskTypeOf(run);
  const client = run.client ?? 'anonymous';
  const fingerprint = fingerprintOf(run, taskType);
  const verdict = await gateRun(db, await catalogSnapshot(db), run, taskType, client, fingerprint);
  const row = await db
    .insertInto('runs')
    .values({
      request: run.request,
      task_type: taskType,
      context: JSON.stringify(run.context ?? {}),
      steps: JSON.stringify(run.steps),
      outcome: run.outcome,
      answer: run.answer ?? null,
      rating: run.rating ?? null,
      client,
      fingerprint,
      status: verdict.accepted ? 'accepted' : 'rejected',
      reasons: verdict.reasons,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (verdict.accepted) await distillRun(db, row.id, run, taskType, options);
  return { id: row.id, status: verdict.accepted ? 'accepted' : 'rejected', taskType, ...(verdict.accepted ? {} : { reasons: verdict.reasons }) };
}

export async function getRun(db: Db, id: number) {
  const r = await db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirst();
  if (!r) return undefined;
  return {
    id: r.id,
    request: r.request,
    taskType: r.task_type,
    context: r.context,
    steps: r.steps,
    outcome: r.outcome,
    answer: r.answer,
    rating: r.rating,
    client: r.client,
    status: r.status,
    reasons: r.reasons,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

export async function listRuns(db: Db, filter: { status?: 'accepted' | 'rejected'; limit: number; offset: number }) {
  let q = db.selectFrom('runs').select(['id', 'task_type', 'outcome', 'client', 'status', 'reasons', 'created_at']);
  if (filter.status) q = q.where('status', '=', filter.status);
  const rows = await q.orderBy('id').limit(filter.limit).offset(filter.offset).execute();
  return rows.map((r) => ({ id: r.id, taskType: r.task_type, outcome: r.outcome, client: r.client, status: r.status, reasons: r.reasons, createdAt: new Date(r.created_at).toISOString() }));
}

export async function deleteRun(db: Db, id: number): Promise<boolean> {
  const res = await db.deleteFrom('runs').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function listWorkflows(db: Db, taskType?: string) {
  let q = db.selectFrom('memory_workflows').selectAll();
  if (taskType) q = q.where('task_type', '=', taskType);
  const rows = await q.orderBy('id').execute();
  return rows.map((w) => ({
    id: w.id,
    taskType: w.task_type,
    description: w.description,
    requests: w.requests,
    toolSequence: w.tool_sequence,
    parameterHints: w.parameter_hints,
    caveats: w.caveats,
    provenance: w.provenance,
    successes: w.success_count,
    failures: w.failure_count,
    reliability: Math.round(reliability(w.success_count, w.failure_count) * 1000) / 1000,
  }));
}

export async function listExperiences(db: Db, taskType?: string) {
  let q = db.selectFrom('memory_experiences').selectAll();
  if (taskType) q = q.where('task_type', '=', taskType);
  const rows = await q.orderBy('id').execute();
  return rows.map((e) => ({
    id: e.id,
    taskType: e.task_type,
    toolId: e.tool_id,
    condition: e.condition,
    action: e.action,
    sourceStep: e.source_step,
    provenance: e.provenance,
    successes: e.success_count,
    failures: e.failure_count,
    reliability: Math.round(reliability(e.success_count, e.failure_count) * 1000) / 1000,
  }));
}

export async function listSops(db: Db) {
  const rows = await db.selectFrom('memory_sops').selectAll().orderBy('task_type').execute();
  return rows.map((s) => ({ taskType: s.task_type, procedure: s.procedure, author: s.author, model: s.model, fallbackReason: s.fallback_reason, rebuiltAt: new Date(s.rebuilt_at).toISOString() }));
}

export async function listTransitions(db: Db) {
  const rows = await db.selectFrom('memory_transitions').selectAll().orderBy('count', 'desc').orderBy('from_tool').orderBy('to_tool').execute();
  return rows.map((t) => ({ from: t.from_tool, to: t.to_tool, count: t.count }));
}

export async function deleteWorkflow(db: Db, id: number, options: MemoryOptions = {}): Promise<boolean> {
  const row = await db.deleteFrom('memory_workflows').where('id', '=', id).returning('task_type').executeTakeFirst();
  if (row) await rebuildSop(db, row.task_type, options);
  return !!row;
}

export async function deleteExperience(db: Db, id: number, options: MemoryOptions = {}): Promise<boolean> {
  const row = await db.deleteFrom('memory_experiences').where('id', '=', id).returning('task_type').executeTakeFirst();
  if (row) await rebuildSop(db, row.task_type, options);
  return !!row;
}

export interface MemoryExport {
  version: 1;
  workflows: Awaited<ReturnType<typeof listWorkflows>>;
  experiences: Awaited<ReturnType<typeof listExperiences>>;
  transitions: Awaited<ReturnType<typeof listTransitions>>;
  sops: Awaited<ReturnType<typeof listSops>>;
}

export async function exportMemory(db: Db): Promise<MemoryExport> {
  return { version: 1, workflows: await listWorkflows(db), experiences: await listExperiences(db), transitions: await listTransitions(db), sops: await listSops(db) };
}

/** Clears the distilled memory (and, with `runs`, the run log; with `keepSops`, the SOPs stay until rebuilt). */
export async function resetMemory(db: Db, options: { runs?: boolean; keepSops?: boolean } = {}): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const t of ['memory_sops', 'memory_experiences', 'memory_transitions', 'memory_workflows'] as const) {
      if (t !== 'memory_sops' || !options.keepSops) await trx.deleteFrom(t).execute();
    }
    if (options.runs) await trx.deleteFrom('runs').execute();
  });
}

export interface ImportableMemory {
  workflows: { taskType: string; description: string; requests: string[]; toolSequence: string[]; parameterHints?: Record<string, unknown>; caveats?: string[]; provenance?: number[]; successes: number; failures: number }[];
  experiences: { taskType: string; toolId: string; condition: string; action: string; sourceStep: number; provenance?: number[]; successes: number; failures: number }[];
  transitions: { from: string; to: string; count: number }[];
}

/**
 * Imports exported memory, replacing what is there. Items are checked like runs: tools must exist and
 * text must be free of instruction-like content; items failing are skipped and reported.
 */
export async function importMemory(db: Db, data: ImportableMemory, check: (texts: string[], tools: string[]) => string | undefined, options: MemoryOptions = {}): Promise<{ workflows: number; experiences: number; transitions: number; skipped: string[] }> {
  const skipped: string[] = [];
  const counts = { workflows: 0, experiences: 0, transitions: 0 };
  const taskTypes = new Set<string>();
  // SOPs stay until rebuilt: one rebuilt from identical evidence keeps its LLM-written text without a new call.
  await resetMemory(db, { keepSops: true });
  await db.transaction().execute(async (trx) => {
    for (const [i, w] of data.workflows.entries()) {
      const why = check([w.description, ...w.requests, ...(w.caveats ?? []), JSON.stringify(w.parameterHints ?? {})], w.toolSequence);
      if (why) {
        skipped.push(`workflows[${i}]: ${why}`);
        continue;
      }
      await trx
        .insertInto('memory_workflows')
        .values({ task_type: w.taskType, description: w.description, requests: w.requests, tool_sequence: w.toolSequence, parameter_hints: JSON.stringify(w.parameterHints ?? {}), caveats: w.caveats ?? [], provenance: w.provenance ?? [], success_count: w.successes, failure_count: w.failures, embedding: null })
        .onConflict((oc) => oc.columns(['task_type', 'tool_sequence']).doNothing())
        .execute();
      taskTypes.add(w.taskType);
      counts.workflows++;
    }
    for (const [i, e] of data.experiences.entries()) {
      const why = check([e.condition, e.action], [e.toolId]);
      if (why) {
        skipped.push(`experiences[${i}]: ${why}`);
        continue;
      }
      await trx
        .insertInto('memory_experiences')
        .values({ task_type: e.taskType, tool_id: e.toolId, condition: e.condition, action: e.action, source_step: e.sourceStep, provenance: e.provenance ?? [], success_count: e.successes, failure_count: e.failures })
        .onConflict((oc) => oc.columns(['task_type', 'tool_id', 'condition', 'action']).doNothing())
        .execute();
      taskTypes.add(e.taskType);
      counts.experiences++;
    }
    for (const [i, t] of data.transitions.entries()) {
      const why = check([], [t.from, t.to]);
      if (why) {
        skipped.push(`transitions[${i}]: ${why}`);
        continue;
      }
      await sql`INSERT INTO memory_transitions (from_tool, to_tool, count) VALUES (${t.from}, ${t.to}, ${t.count})
        ON CONFLICT (from_tool, to_tool) DO UPDATE SET count = EXCLUDED.count`.execute(trx);
      counts.transitions++;
    }
  });
  for (const t of taskTypes) await rebuildSop(db, t, options);
  let stale = db.deleteFrom('memory_sops');
  if (taskTypes.size > 0) stale = stale.where('task_type', 'not in', [...taskTypes]);
  await stale.execute();
  return { ...counts, skipped };
}
