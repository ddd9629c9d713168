/**
 * HTTP contract of the workflow memory (issue 6): POST /v1/runs, GET /v1/runs[/{id}], DELETE /v1/runs/{id},
 * GET/DELETE /v1/memory/workflows[/{id}], GET/DELETE /v1/memory/experiences[/{id}], GET /v1/memory/sops,
 * GET /v1/memory/transitions, GET /v1/memory/export, POST /v1/memory/import, POST /v1/memory/reset.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Db } from '../db/database.ts';
import { createRouter } from '../http/openapi-app.ts';
import { notFound } from '../http/problem.ts';
import { catalogSnapshot } from '../tools/catalog-cache.ts';
import { SNAKE_CASE } from '../tools/schema.ts';
import type { MemoryOptions } from './distill.ts';
import { injectionIn } from './gate.ts';
import { deleteExperience, deleteRun, deleteWorkflow, exportMemory, getRun, importMemory, listExperiences, listRuns, listSops, listTransitions, listWorkflows, recordRun, resetMemory } from './store.ts';
import type { RunInput } from './types.ts';

/**
 * Hard limits keep a body storable; the gate's tighter limits (GATE_LIMITS) decide acceptance, so that an
 * oversized field is a rejected run with a reason rather than a bare 400.
 */
const BIG_TEXT = 100_000;
const stepSchema = z.strictObject({
  toolId: z.string().min(1).max(200),
  parameters: z.record(z.string().max(200), z.unknown()).optional(),
  outcome: z.enum(['success', 'failure']),
  error: z.string().max(BIG_TEXT).optional(),
  note: z.string().max(BIG_TEXT).optional(),
});
const runBody = z
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

const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });
const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
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
    sops: z.array(z.record(z.string(), z.any())).optional(),
  })
  .openapi('MemoryImport');

export const routes = {
  record: createRoute({
    method: 'post',
    path: '/v1/runs',
    tags: ['memory'],
    summary: 'Report a finished run; stored as sent, checked by the safety gate, distilled into the memory when accepted',
    request: { body: { content: { 'application/json': { schema: runBody } }, required: true } },
    responses: {
      201: json(z.object({ id: z.number(), status: z.enum(['accepted', 'rejected']), taskType: z.string(), reasons: z.array(z.string()).optional() }), 'stored'),
      400: { description: 'invalid body' },
    },
  }),
  listRuns: createRoute({
    method: 'get',
    path: '/v1/runs',
    tags: ['memory'],
    summary: 'Reported runs (audit log)',
    request: { query: z.strictObject({ status: z.enum(['accepted', 'rejected']).optional(), limit: z.coerce.number().int().min(1).max(1000).default(100), offset: z.coerce.number().int().min(0).default(0) }) },
    responses: { 200: json(z.object({ runs: z.array(z.record(z.string(), z.any())) }), 'runs') },
  }),
  getRun: createRoute({ method: 'get', path: '/v1/runs/{id}', tags: ['memory'], summary: 'One run as reported, with its status and reasons', request: { params: idParams }, responses: { 200: json(z.any(), 'the run'), 404: { description: 'no such run' } } }),
  deleteRun: createRoute({ method: 'delete', path: '/v1/runs/{id}', tags: ['memory'], summary: 'Delete a run from the log (its distilled evidence stays)', request: { params: idParams }, responses: { 204: { description: 'deleted' }, 404: { description: 'no such run' } } }),
  workflows: createRoute({ method: 'get', path: '/v1/memory/workflows', tags: ['memory'], summary: 'Workflow memory nodes', request: { query: taskQuery }, responses: { 200: json(z.object({ workflows: z.array(z.record(z.string(), z.any())) }), 'workflows') } }),
  deleteWorkflow: createRoute({ method: 'delete', path: '/v1/memory/workflows/{id}', tags: ['memory'], summary: 'Forget a workflow (the SOP is rebuilt)', request: { params: idParams }, responses: { 204: { description: 'deleted' }, 404: { description: 'not found' } } }),
  experiences: createRoute({ method: 'get', path: '/v1/memory/experiences', tags: ['memory'], summary: 'Action-level experiences', request: { query: taskQuery }, responses: { 200: json(z.object({ experiences: z.array(z.record(z.string(), z.any())) }), 'experiences') } }),
  deleteExperience: createRoute({ method: 'delete', path: '/v1/memory/experiences/{id}', tags: ['memory'], summary: 'Forget an experience', request: { params: idParams }, responses: { 204: { description: 'deleted' }, 404: { description: 'not found' } } }),
  sops: createRoute({ method: 'get', path: '/v1/memory/sops', tags: ['memory'], summary: 'Standard procedures per task type (author: template, or llm when an LLM is configured and its text passed the checks)', responses: { 200: json(z.object({ sops: z.array(z.record(z.string(), z.any())) }), 'SOPs') } }),
  transitions: createRoute({ method: 'get', path: '/v1/memory/transitions', tags: ['memory'], summary: 'Observed tool-to-tool transitions', responses: { 200: json(z.object({ transitions: z.array(z.record(z.string(), z.any())) }), 'transitions') } }),
  exportMemory: createRoute({ method: 'get', path: '/v1/memory/export', tags: ['memory'], summary: 'The whole memory as JSON', responses: { 200: json(z.any(), 'export') } }),
  importMemory: createRoute({
    method: 'post',
    path: '/v1/memory/import',
    tags: ['memory'],
    summary: 'Replace the memory with an export (items about unknown tools or with instruction-like text are skipped)',
    request: { body: { content: { 'application/json': { schema: importBody } }, required: true } },
    responses: { 200: json(z.object({ workflows: z.number(), experiences: z.number(), transitions: z.number(), skipped: z.array(z.string()) }), 'imported'), 400: { description: 'invalid body' } },
  }),
  reset: createRoute({
    method: 'post',
    path: '/v1/memory/reset',
    tags: ['memory'],
    summary: 'Clear the memory (and the run log with {"runs": true})',
    request: { body: { content: { 'application/json': { schema: z.strictObject({ runs: z.boolean().optional() }) } }, required: false } },
    responses: { 204: { description: 'cleared' } },
  }),
};

/** `options.sopWriter`: SOPs are LLM-written when an LLM is configured (templated otherwise). */
export function memoryRoutes(db: Db, options: MemoryOptions = {}) {
  const router = createRouter();

  router.openapi(routes.record, async (c) => {
    const result = await recordRun(db, c.req.valid('json') as RunInput, options);
    return c.json(result, 201);
  });
  router.openapi(routes.listRuns, async (c) => c.json({ runs: await listRuns(db, c.req.valid('query')) }, 200));
  router.openapi(routes.getRun, async (c) => {
    const run = await getRun(db, c.req.valid('param').id);
    if (!run) throw notFound(`no run ${c.req.valid('param').id}`);
    return c.json(run, 200);
  });
  router.openapi(routes.deleteRun, async (c) => {
    if (!(await deleteRun(db, c.req.valid('param').id))) throw notFound(`no run ${c.req.valid('param').id}`);
    return c.body(null, 204);
  });
  router.openapi(routes.workflows, async (c) => c.json({ workflows: await listWorkflows(db, c.req.valid('query').taskType) }, 200));
  router.openapi(routes.deleteWorkflow, async (c) => {
    if (!(await deleteWorkflow(db, c.req.valid('param').id, options))) throw notFound(`no workflow ${c.req.valid('param').id}`);
    return c.body(null, 204);
  });
  router.openapi(routes.experiences, async (c) => c.json({ experiences: await listExperiences(db, c.req.valid('query').taskType) }, 200));
  router.openapi(routes.deleteExperience, async (c) => {
    if (!(await deleteExperience(db, c.req.valid('param').id, options))) throw notFound(`no experience ${c.req.valid('param').id}`);
    return c.body(null, 204);
  });
  router.openapi(routes.sops, async (c) => c.json({ sops: await listSops(db) }, 200));
  router.openapi(routes.transitions, async (c) => c.json({ transitions: await listTransitions(db) }, 200));
  router.openapi(routes.exportMemory, async (c) => c.json(await exportMemory(db), 200));
  router.openapi(routes.importMemory, async (c) => {
    const body = c.req.valid('json');
    const snapshot = await catalogSnapshot(db);
    const check = (texts: string[], tools: string[]) => {
      const unknown = tools.find((t) => !snapshot.lookup(t));
      if (unknown) return `unknown tool '${unknown}'`;
      for (const t of texts) {
        const hit = injectionIn(t);
        if (hit) return `instruction-like text ("${hit}")`;
      }
      return undefined;
    };
    return c.json(await importMemory(db, body, check, options), 200);
  });
  router.openapi(routes.reset, async (c) => {
    let runs = false;
    if ((c.req.header('content-length') ?? '0') !== '0') runs = !!(c.req.valid('json') as { runs?: boolean } | undefined)?.runs;
    await resetMemory(db, { runs });
    return c.body(null, 204);
  });
  return router;
}
