import { createRouter } from '../http/openapi-app.ts';
import { type MemoryDeps, memoryHandlers } from './memory.handlers.ts';
import * as r from './memory.routes.ts';

export function memoryRouter(deps: MemoryDeps) {
  const h = memoryHandlers(deps);
  return createRouter()
    .openapi(r.recordRunRoute, h.recordRun)
    .openapi(r.listRunsRoute, h.listRuns)
    .openapi(r.getRunRoute, h.getRun)
    .openapi(r.deleteRunRoute, h.deleteRun)
    .openapi(r.workflowsRoute, h.workflows)
    .openapi(r.deleteWorkflowRoute, h.deleteWorkflow)
    .openapi(r.experiencesRoute, h.experiences)
    .openapi(r.deleteExperienceRoute, h.deleteExperience)
    .openapi(r.sopsRoute, h.sops)
    .openapi(r.transitionsRoute, h.transitions)
    .openapi(r.exportMemoryRoute, h.exportMemory)
    .openapi(r.importMemoryRoute, h.importMemory)
    .openapi(r.resetRoute, h.reset);
}
