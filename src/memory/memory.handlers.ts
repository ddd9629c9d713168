import type { Db } from '../db/database.ts';
import type { AppRouteHandler } from '../http/openapi-app.ts';
import { notFound } from '../http/problem.ts';
import { catalogSnapshot } from '../tools/catalog-cache.ts';
import type { MemoryOptions } from './distill.ts';
import { injectionIn } from './gate.ts';
import type {
  deleteExperienceRoute,
  deleteRunRoute,
  deleteWorkflowRoute,
  experiencesRoute,
  exportMemoryRoute,
  getRunRoute,
  importMemoryRoute,
  listRunsRoute,
  recordRunRoute,
  resetRoute,
  sopsRoute,
  transitionsRoute,
  workflowsRoute,
} from './memory.routes.ts';
import { deleteExperience, deleteRun, deleteWorkflow, exportMemory, getRun, importMemory, listExperiences, listRuns, listSops, listTransitions, listWorkflows, recordRun, resetMemory } from './store.ts';
import type { RunStep } from './types.ts';

export interface MemoryDeps {
  db: Db;
  /** SOPs are LLM-written when an LLM is configured (templated otherwise). */
  options: MemoryOptions;
}

export function memoryHandlers({ db, options }: MemoryDeps) {
  const recordRunHandler: AppRouteHandler<typeof recordRunRoute> = async (c) => {
    const result = await recordRun(db, c.req.valid('json'), options);
    return c.json(result, 201);
  };
  const listRunsHandler: AppRouteHandler<typeof listRunsRoute> = async (c) => c.json({ runs: await listRuns(db, c.req.valid('query')) }, 200);
  const getRunHandler: AppRouteHandler<typeof getRunRoute> = async (c) => {
    const { id } = c.req.valid('param');
    const run = await getRun(db, id);
    if (!run) throw notFound(`no run ${id}`);
    // Stored as sent, after the route's body schema accepted them.
    return c.json({ ...run, steps: run.steps as RunStep[] }, 200);
  };
  const deleteRunHandler: AppRouteHandler<typeof deleteRunRoute> = async (c) => {
    const { id } = c.req.valid('param');
    if (!(await deleteRun(db, id))) throw notFound(`no run ${id}`);
    return c.body(null, 204);
  };
  const workflows: AppRouteHandler<typeof workflowsRoute> = async (c) => c.json({ workflows: await listWorkflows(db, c.req.valid('query').taskType) }, 200);
  const deleteWorkflowHandler: AppRouteHandler<typeof deleteWorkflowRoute> = async (c) => {
    const { id } = c.req.valid('param');
    if (!(await deleteWorkflow(db, id, options))) throw notFound(`no workflow ${id}`);
    return c.body(null, 204);
  };
  const experiences: AppRouteHandler<typeof experiencesRoute> = async (c) => c.json({ experiences: await listExperiences(db, c.req.valid('query').taskType) }, 200);
  const deleteExperienceHandler: AppRouteHandler<typeof deleteExperienceRoute> = async (c) => {
    const { id } = c.req.valid('param');
    if (!(await deleteExperience(db, id, options))) throw notFound(`no experience ${id}`);
    return c.body(null, 204);
  };
  const sops: AppRouteHandler<typeof sopsRoute> = async (c) => c.json({ sops: await listSops(db) }, 200);
  const transitions: AppRouteHandler<typeof transitionsRoute> = async (c) => c.json({ transitions: await listTransitions(db) }, 200);
  const exportHandler: AppRouteHandler<typeof exportMemoryRoute> = async (c) => c.json(await exportMemory(db), 200);
  const importHandler: AppRouteHandler<typeof importMemoryRoute> = async (c) => {
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
  };
  const reset: AppRouteHandler<typeof resetRoute> = async (c) => {
    let runs = false;
    if ((c.req.header('content-length') ?? '0') !== '0') runs = !!(c.req.valid('json') as { runs?: boolean } | undefined)?.runs;
    await resetMemory(db, { runs });
    return c.body(null, 204);
  };
  return {
    recordRun: recordRunHandler,
    listRuns: listRunsHandler,
    getRun: getRunHandler,
    deleteRun: deleteRunHandler,
    workflows,
    deleteWorkflow: deleteWorkflowHandler,
    experiences,
    deleteExperience: deleteExperienceHandler,
    sops,
    transitions,
    exportMemory: exportHandler,
    importMemory: importHandler,
    reset,
  };
}
