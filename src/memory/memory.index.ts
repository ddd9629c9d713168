import { createRouter } from '../http/openapi-app.ts';
import { type MemoryDeps, memoryHandlers } from './memory.handlers.ts';
import * as r from './memory.routes.ts';

export function memoryRouter(deps: MemoryDeps) {
  const h = memoryHandlers(deps);
  const router = createRouter();
  // The run log.
  router.openapi(r.recordRunRoute, h.recordRun).openapi(r.listRunsRoute, h.listRuns).openapi(r.getRunRoute, h.getRun).openapi(r.deleteRunRoute, h.deleteRun);
  // The distilled items, one kind at a time.
  router.openapi(r.workflowsRoute, h.workflows).openapi(r.deleteWorkflowRoute, h.deleteWorkflow);
  router.openapi(r.experiencesRoute, h.experiences).openapi(r.deleteExperienceRoute, h.deleteExperience);
  router.openapi(r.sopsRoute, h.sops).openapi(r.transitionsRoute, h.transitions);
  // The whole memory.
  router.openapi(r.exportMemoryRoute, h.exportMemory).openapi(r.importMemoryRoute, h.importMemory).openapi(r.resetRoute, h.reset);
  return router;
}
