/**
 * HTTP contract of the workflow memory: POST /v1/runs, GET /v1/runs[/{id}], DELETE /v1/runs/{id},
 * GET/DELETE /v1/memory/workflows[/{id}], GET/DELETE /v1/memory/experiences[/{id}], GET /v1/memory/sops,
 * GET /v1/memory/transitions, GET /v1/memory/export, POST /v1/memory/import, POST /v1/memory/reset.
 */
import { z } from '@hono/zod-openapi';
import { INT4_MAX, invalidRequest, jsonBody, jsonContent, numericIdParams, problemResponse } from '../http/openapi-helpers.ts';
import { defineRoute } from '../http/route-policy.ts';
import { SNAKE_CASE } from '../tools/schema.ts';

/**
 * Hard limits keep a body storable; the gate's tighter limits (GATE_LIMITS) decide acceptance, so that an
 * oversized field is a rejected run with a reason rather than a bare 400.
 */
const BIG_TEXT = 100_000;
export const stepSchema = z.strictObject({
  toolId: z.string().min(1).max(200),
  parameters: z.record(z.string().max(200), z.unknown()).optional(),
  outcome: z.enum(['success', 'failure']),
  error: z.string().max(BIG_TEXT).optional(),
  note: z.string().max(BIG_TEXT).optional(),
});
export const runBody = z
  .strictObject({
    request: z.string().trim().min(1).max(BIG_TEXT),
    taskType: z.string().regex(SNAKE_CASE, 'taskType must be a snake_case task type').max(100).optional(),
    context: z.record(z.string().max(200), z.unknown()).optional(),
    steps: z.array(stepSchema).max(500),
    outcome: z.enum(['success', 'failure']),
    answer: z.string().max(BIG_TEXT).optional(),
    rating: z.number().int().min(1).max(5).optional(),
    client: z.string().min(1).max(200).optional(),
  })
  .openapi('Run');

const idParams = numericIdParams(INT4_MAX);
const taskQuery = z.strictObject({ taskType: z.string().min(1).max(100).optional() });
const importBody = z
  .strictObject({
    version: z.literal(1).optional(),
    workflows: z
      .array(
        z.object({
          taskType: z.string().regex(SNAKE_CASE).max(100),
          description: z.string().min(1).max(2000),
          requests: z.array(z.string().max(1000)).max(20),
          toolSequence: z.array(z.string().min(1).max(200)).min(1).max(20),
          parameterHints: z.record(z.string(), z.unknown()).optional(),
          caveats: z.array(z.string().max(1000)).max(20).optional(),
          provenance: z.array(z.number().int()).max(1000).optional(),
          successes: z.number().int().min(0),
          failures: z.number().int().min(0),
        }),
      )
      .max(10_000)
      .default([]),
    experiences: z
      .array(
        z.object({
          taskType: z.string().regex(SNAKE_CASE).max(100),
          toolId: z.string().min(1).max(200),
          condition: z.string().min(1).max(2000),
          action: z.string().min(1).max(2000),
          sourceStep: z.number().int().min(0),
          provenance: z.array(z.number().int()).max(1000).optional(),
          successes: z.number().int().min(0),
          failures: z.number().int().min(0),
        }),
      )
      .max(10_000)
      .default([]),
    transitions: z.array(z.object({ from: z.string().min(1).max(200), to: z.string().min(1).max(200), count: z.number().int().min(0) })).max(100_000).default([]),
    sops: z.array(z.record(z.string(), z.unknown())).optional().openapi({ description: 'ignored: SOPs are rebuilt from the imported items' }),
  })
  .openapi('MemoryImport');


const evidence = { provenance: z.array(z.number()), successes: z.number(), failures: z.number(), reliability: z.number() };

const RunSummary = z
  .object({
    id: z.number(),
    taskType: z.string(),
    outcome: z.string(),
    client: z.string(),
    status: z.enum(['accepted', 'rejected']),
    reasons: z.array(z.string()),
    createdAt: z.string(),
  })
  .openapi('RunSummary');

/** A run as stored: what the client sent (checked by {@link runBody} on the way in), with the gate's verdict. */
const StoredRun = RunSummary.extend({
  request: z.string(),
  context: z.record(z.string(), z.unknown()),
  steps: z.array(stepSchema),
  answer: z.string().nullable(),
  rating: z.number().nullable(),
}).openapi('StoredRun');

const MemoryWorkflow = z
  .object({
    id: z.number(),
    taskType: z.string(),
    description: z.string(),
    requests: z.array(z.string()),
    toolSequence: z.array(z.string()),
    parameterHints: z.record(z.string(), z.unknown()),
    caveats: z.array(z.string()),
    ...evidence,
  })
  .openapi('MemoryWorkflow');

const MemoryExperience = z
  .object({ id: z.number(), taskType: z.string(), toolId: z.string(), condition: z.string(), action: z.string(), sourceStep: z.number(), ...evidence })
  .openapi('MemoryExperience');

const Sop = z
  .object({
    taskType: z.string(),
    procedure: z.string(),
    author: z.enum(['template', 'llm']),
    model: z.string().nullable(),
    fallbackReason: z.string().nullable(),
    rebuiltAt: z.string(),
  })
  .openapi('Sop');

const Transition = z.object({ from: z.string(), to: z.string(), count: z.number() }).openapi('ToolTransition');

export const MemoryExportSchema = z
  .object({ version: z.literal(1), workflows: z.array(MemoryWorkflow), experiences: z.array(MemoryExperience), transitions: z.array(Transition), sops: z.array(Sop) })
  .openapi('MemoryExport');

const RecordedRun = z
  .object({ id: z.number(), status: z.enum(['accepted', 'rejected']), taskType: z.string(), reasons: z.array(z.string()).optional() })
  .openapi('RecordedRun');

const ImportReport = z
  .object({ workflows: z.number(), experiences: z.number(), transitions: z.number(), skipped: z.array(z.string()) })
  .openapi('MemoryImportReport');

const runsQuery = z.strictObject({
  status: z.enum(['accepted', 'rejected']).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

// Runs and memory items hold what clients sent: every route here is guarded, reads included ('private').

export const recordRunRoute = defineRoute({
  policy: 'expensive-write',
  method: 'post',
  path: '/v1/runs',
  tags: ['memory'],
  summary: 'Report a finished run; stored as sent, checked by the safety gate, distilled into the memory when accepted',
  request: { body: jsonBody(runBody) },
  responses: { 201: jsonContent(RecordedRun, 'stored'), 400: invalidRequest },
});

export const listRunsRoute = defineRoute({
  policy: 'private',
  method: 'get',
  path: '/v1/runs',
  tags: ['memory'],
  summary: 'Reported runs (audit log)',
  request: { query: runsQuery },
  responses: { 200: jsonContent(z.object({ runs: z.array(RunSummary) }), 'runs') },
});

export const getRunRoute = defineRoute({
  policy: 'private',
  method: 'get',
  path: '/v1/runs/{id}',
  tags: ['memory'],
  summary: 'One run as reported, with its status and reasons',
  request: { params: idParams },
  responses: { 200: jsonContent(StoredRun, 'the run'), 404: problemResponse('no such run') },
});

export const deleteRunRoute = defineRoute({
  policy: 'write',
  method: 'delete',
  path: '/v1/runs/{id}',
  tags: ['memory'],
  summary: 'Delete a run from the log (its distilled evidence stays)',
  request: { params: idParams },
  responses: { 204: { description: 'deleted' }, 404: problemResponse('no such run') },
});

export const workflowsRoute = defineRoute({
  policy: 'private',
  method: 'get',
  path: '/v1/memory/workflows',
  tags: ['memory'],
  summary: 'Workflow memory nodes',
  request: { query: taskQuery },
  responses: { 200: jsonContent(z.object({ workflows: z.array(MemoryWorkflow) }), 'workflows') },
});

export const deleteWorkflowRoute = defineRoute({
  policy: 'write',
  method: 'delete',
  path: '/v1/memory/workflows/{id}',
  tags: ['memory'],
  summary: 'Forget a workflow (the SOP is rebuilt)',
  request: { params: idParams },
  responses: { 204: { description: 'deleted' }, 404: problemResponse('not found') },
});

export const experiencesRoute = defineRoute({
  policy: 'private',
  method: 'get',
  path: '/v1/memory/experiences',
  tags: ['memory'],
  summary: 'Action-level experiences',
  request: { query: taskQuery },
  responses: { 200: jsonContent(z.object({ experiences: z.array(MemoryExperience) }), 'experiences') },
});

export const deleteExperienceRoute = defineRoute({
  policy: 'write',
  method: 'delete',
  path: '/v1/memory/experiences/{id}',
  tags: ['memory'],
  summary: 'Forget an experience',
  request: { params: idParams },
  responses: { 204: { description: 'deleted' }, 404: problemResponse('not found') },
});

export const sopsRoute = defineRoute({
  policy: 'private',
  method: 'get',
  path: '/v1/memory/sops',
  tags: ['memory'],
  summary: 'Standard procedures per task type (author: template, or llm when an LLM is configured and its text passed the checks)',
  responses: { 200: jsonContent(z.object({ sops: z.array(Sop) }), 'SOPs') },
});

export const transitionsRoute = defineRoute({
  policy: 'private',
  method: 'get',
  path: '/v1/memory/transitions',
  tags: ['memory'],
  summary: 'Observed tool-to-tool transitions',
  responses: { 200: jsonContent(z.object({ transitions: z.array(Transition) }), 'transitions') },
});

export const exportMemoryRoute = defineRoute({
  policy: 'private',
  method: 'get',
  path: '/v1/memory/export',
  tags: ['memory'],
  summary: 'The whole memory as JSON',
  responses: { 200: jsonContent(MemoryExportSchema, 'export') },
});

export const importMemoryRoute = defineRoute({
  policy: 'write',
  method: 'post',
  path: '/v1/memory/import',
  tags: ['memory'],
  summary: 'Replace the memory with an export (items about unknown tools or with instruction-like text are skipped)',
  request: { body: jsonBody(importBody) },
  responses: { 200: jsonContent(ImportReport, 'imported'), 400: invalidRequest },
});

export const resetRoute = defineRoute({
  policy: 'write',
  method: 'post',
  path: '/v1/memory/reset',
  tags: ['memory'],
  summary: 'Clear the memory (and the run log with {"runs": true})',
  request: { body: { content: { 'application/json': { schema: z.strictObject({ runs: z.boolean().optional() }) } }, required: false } },
  responses: { 204: { description: 'cleared' } },
});
