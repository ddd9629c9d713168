import type { Context } from 'hono';
import type { Db } from '../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import type { AppEnv, AppRouteHandler } from '../http/openapi-app.ts';
import { badRequest, conflict, notFound } from '../http/problem.ts';
import { catalogSnapshot } from './catalog-cache.ts';
import { ToolImportError } from './importers/import-error.ts';
import { importerForData } from './importers/importer.ts';
import { deleteTool, importTools, registerTool, ToolConflictError, updateTool } from './registry.ts';
import type { ToolRecord } from './schema.ts';
import { getToolRow, listToolRows } from './repository.ts';
import { parseToolRequest } from './request/index.ts';
import { planWorkflow, searchTools, summarise, type ToolReranker } from './search/index.ts';
import type { MinimalToolInput } from './tool.ts';
import type { registerRoute, getRoute, listRoute, planRoute, removeRoute, searchRoute, updateRoute } from './tools.routes.ts';
import { checkWorkflow } from './workflow.ts';

export interface ToolsDeps {
  db: Db;
  embedder: Embedder;
  /** Where the read routes query (server mode: read-only connections with a statement timeout). */
  readDb: Db;
  /** The configured language model's ordering of the candidates (absent without a model). */
  toolReranker?: ToolReranker;
}

export function toolsHandlers({ db, embedder, readDb, toolReranker }: ToolsDeps) {
  const create: AppRouteHandler<typeof registerRoute> = async (c) => {
    const body = c.req.valid('json');
    try {
      const result = await registerTool(db, embedder, body as MinimalToolInput);
      return c.json({ tool: result.tool, derived: result.derived }, 201);
    } catch (error) {
      if (error instanceof ToolConflictError) throw conflict(error.message);
      throw error;
    }
  };

  const update: AppRouteHandler<typeof updateRoute> = async (c) => {
    const { id } = c.req.valid('param');
    const body = c.req.valid('json');
    if (body.id !== undefined && body.id !== id) {
      throw badRequest(`the body id '${body.id}' differs from the path id '${id}'`, [{ in: 'body', field: 'id', message: 'must equal the path id' }]);
    }
    const result = await updateTool(db, embedder, { ...body, id } as MinimalToolInput);
    if (!result) throw notFound(`no tool '${id}'`);
    return c.json({ tool: result.tool, derived: result.derived }, 200);
  };

  const get: AppRouteHandler<typeof getRoute> = async (c) => {
    const { id } = c.req.valid('param');
    const row = await getToolRow(readDb, id);
    if (!row) throw notFound(`no tool '${id}'`);
    return c.json(row, 200);
  };

  const list: AppRouteHandler<typeof listRoute> = async (c) => {
    const query = c.req.valid('query');
    const page = await listToolRows(readDb, query);
    return c.json({ tools: page.tools, total: page.total, limit: query.limit, offset: query.offset }, 200);
  };

  const remove: AppRouteHandler<typeof removeRoute> = async (c) => {
    const { id } = c.req.valid('param');
    if (!(await deleteTool(db, id))) throw notFound(`no tool '${id}'`);
    return c.body(null, 204);
  };

  const search: AppRouteHandler<typeof searchRoute> = async (c) => {
    const body = c.req.valid('json');
    return c.json(await searchTools(readDb, embedder, body, toolReranker), 200);
  };

  const plan: AppRouteHandler<typeof planRoute> = async (c) => {
    const body = c.req.valid('json');
    if (body.steps) {
      const parsed = parseToolRequest(body.query, body.context ?? {});
      const workflow = checkWorkflow(body.steps, parsed.context, await catalogSnapshot(readDb));
      return c.json({ workflow, parsed: summarise(parsed), tools: [] }, 200);
    }
    return c.json(await planWorkflow(readDb, embedder, body), 200);
  };

  /** POST /v1/tools:import: a plain route (see tools.index.ts), so its body is parsed and checked here. */
  const importCatalog = async (c: Context<AppEnv>) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw badRequest('the body is not valid JSON', [{ in: 'body', field: '(root)', message: 'invalid JSON' }]);
    }
    let records: ToolRecord[];
    try {
      // The importers in order (importers/importer.ts): tool records, an openEO process set, a spectral-indices dictionary.
      records = importerForData(body, 'request body').read(body, 'request body');
    } catch (error) {
      if (error instanceof ToolImportError) throw badRequest(`${error.message}; nothing was imported`, [{ in: 'body', field: 'tools', message: error.message }]);
      throw error;
    }
    const report = await importTools(db, embedder, records);
    return c.json({ read: records.length, ...report }, 200);
  };

  return { create, update, get, list, remove, search, plan, importCatalog };
}
