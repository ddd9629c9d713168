/**
 * The safety gate in front of the memory: a run enters the memory only if it is well-formed evidence about
 * tools that exist, in a chain that can run, with no text aimed at the system. Every failed check is a
 * reason; a run with reasons is stored (auditable) but never distilled and never influences ranking.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { CatalogSnapshot } from '../tools/catalog-cache.ts';
import type { RequestContext } from '../tools/prerequisites.ts';
import type { ToolRecord } from '../tools/schema.ts';
import { validateChain } from '../tools/workflow.ts';
import { effectiveSequence, GATE_LIMITS, type RunInput } from './types.ts';

/** Text aimed at the system rather than describing a run (prompt injection). */
const INJECTION_PATTERNS: RegExp[] = [
  /\b(ignore|disregard|forget|override)\b[^.\n]{0,40}\b(previous|prior|above|earlier|all|your|the)\b[^.\n]{0,20}\b(instructions?|prompts?|rules?|guidelines?|context)\b/i,
  /\bsystem\s*prompt\b/i,
  /\byou\s+are\s+now\b/i,
  /\bnew\s+instructions?\b/i,
  /\b(act|behave)\s+as\s+(an?\s+)?(ai|assistant|system|admin|developer)\b/i,
  /\bdeveloper\s+mode\b|\bjailbreak\b|\bDAN\b/,
  /<\s*\/?\s*(system|assistant|user|developer|tool)\s*>/i,
  /<\|\s*(im_start|im_end|system|assistant|user|endoftext)\s*\|>/i,
  /\[\/?(INST|SYS)\]|<<\/?SYS>>/i,
  /^\s*(system|assistant|developer)\s*:/im,
  /\b(always|only|never)\s+(recommend|rank|suggest|choose|return|prefer)\b/i,
  /\b(rank|put|place)\b[^.\n]{0,40}\b(first|on top|at the top|highest)\b/i,
];

export function injectionIn(text: string): string | undefined {
  for (const p of INJECTION_PATTERNS) {
    const m = p.exec(text);
    if (m) return m[0].slice(0, 60);
  }
  return undefined;
}

/** Every string inside a JSON value, with its path. */
function strings(value: unknown, path: string, out: [string, string][], depth = 0): void {
  if (depth > 8) return;
  if (typeof value === 'string') out.push([path, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => strings(v, `${path}[${i}]`, out, depth + 1));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) {
    out.push([`${path}.${k} (key)`, k]);
    strings(v, `${path}.${k}`, out, depth + 1);
  }
}

/** The part of a run context the tool layer understands (anything else is kept in the run, not used). */
export function requestContextOf(context: Record<string, unknown> | undefined): RequestContext {
  if (!context) return {};
  const str = (v: unknown) => (typeof v === 'string' && v.length <= 100 ? v : undefined);
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.length <= 100).slice(0, 50) : undefined);
  const out: RequestContext = {};
  const ds = str(context.dataSource);
  const level = str(context.processingLevel);
  const available = list(context.available);
  const lacking = list(context.lacking);
  return { ...out, ...(ds ? { dataSource: ds } : {}), ...(level ? { processingLevel: level } : {}), ...(available ? { available } : {}), ...(lacking ? { lacking } : {}) };
}

/** Identical runs from one client share a fingerprint (a flood of them counts once). */
export function fingerprintOf(run: RunInput, taskType: string): string {
  const canonical = JSON.stringify({
    t: taskType,
    o: run.outcome,
    s: run.steps.map((s) => [s.toolId, s.outcome, (s.error ?? '').trim().toLowerCase()]),
  });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

export interface GateVerdict {
  accepted: boolean;
  reasons: string[];
}

/** Checks a run against the registry and the limits; `db` answers the per-client flood checks. */
export async function gateRun(db: Db, snapshot: CatalogSnapshot, run: RunInput, taskType: string, client: string, fingerprint: string): Promise<GateVerdict> {
  const reasons: string[] = [];
  const L = GATE_LIMITS;

  // Shape and size.
  if (run.steps.length === 0) reasons.push('no tool step');
  if (run.steps.length > L.maxSteps) reasons.push(`too many steps: ${run.steps.length} > ${L.maxSteps}`);
  if (run.outcome !== 'success' && run.outcome !== 'failure') reasons.push('outcome not stated');
  if (run.outcome === 'success' && !run.answer?.trim()) reasons.push('a successful run must give its answer or product');
  if (run.request.length > L.requestChars) reasons.push(`request longer than ${L.requestChars} characters`);
  if ((run.answer ?? '').length > L.answerChars) reasons.push(`answer longer than ${L.answerChars} characters`);
  if (run.context && JSON.stringify(run.context).length > L.contextChars) reasons.push(`context larger than ${L.contextChars} characters of JSON`);
  run.steps.forEach((s, i) => {
    if ((s.error ?? '').length > L.errorChars) reasons.push(`step ${i + 1}: error longer than ${L.errorChars} characters`);
    if ((s.note ?? '').length > L.noteChars) reasons.push(`step ${i + 1}: note longer than ${L.noteChars} characters`);
    if (s.parameters && JSON.stringify(s.parameters).length > L.parametersChars) reasons.push(`step ${i + 1}: parameters larger than ${L.parametersChars} characters of JSON`);
    if (s.outcome === 'failure' && !s.error?.trim()) reasons.push(`step ${i + 1}: a failed step must state its error`);
  });
  if (run.outcome === 'success' && run.steps.length > 0 && run.steps[run.steps.length - 1]!.outcome !== 'success') reasons.push('a successful run must end with a successful step');

  // Text aimed at the system.
  const texts: [string, string][] = [['request', run.request]];
  if (run.answer) texts.push(['answer', run.answer]);
  strings(run.context, 'context', texts);
  run.steps.forEach((s, i) => {
    if (s.error) texts.push([`steps[${i}].error`, s.error]);
    if (s.note) texts.push([`steps[${i}].note`, s.note]);
    strings(s.parameters, `steps[${i}].parameters`, texts);
  });
  for (const [where, text] of texts) {
    const hit = injectionIn(text);
    if (hit) reasons.push(`${where}: instruction-like text ("${hit}")`);
  }

  // Tools exist, no step repeated beyond the limit, the chain can run.
  const unknown = [...new Set(run.steps.map((s) => s.toolId).filter((id) => !snapshot.lookup(id)))];
  for (const id of unknown) reasons.push(`unknown tool '${id}'`);
  const counts = new Map<string, number>();
  for (const s of run.steps) counts.set(s.toolId, (counts.get(s.toolId) ?? 0) + 1);
  for (const [id, n] of counts) if (n > L.maxRepeatsPerTool) reasons.push(`tool '${id}' repeated ${n} times (limit ${L.maxRepeatsPerTool})`);
  if (unknown.length === 0 && run.steps.length > 0) {
    const tools = effectiveSequence(run).map((id) => snapshot.lookup(id)).filter((t): t is ToolRecord => !!t);
    for (const p of validateChain(tools, requestContextOf(run.context), snapshot)) reasons.push(`invalid chain: ${p}`);
  }

  // Floods: identical runs from one client count once; failures per client and task type are capped.
  if (reasons.length === 0) {
    const { rows } = await sql<{ id: number }>`
      SELECT id FROM runs WHERE client = ${client} AND fingerprint = ${fingerprint} AND status = 'accepted' LIMIT 1`.execute(db);
    if (rows[0]) reasons.push(`identical to run ${rows[0].id} from the same client: counted once`);
    else if (run.outcome === 'failure') {
      const { rows: n } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM runs WHERE client = ${client} AND task_type = ${taskType} AND outcome = 'failure'
          AND status = 'accepted' AND created_at > now() - interval '1 day'`.execute(db);
      if ((n[0]?.n ?? 0) >= L.failuresPerClientPerDay) reasons.push(`more than ${L.failuresPerClientPerDay} failures from this client for ${taskType} today`);
    }
  }
  return { accepted: reasons.length === 0, reasons };
}
