/**
 * HTTP contract of the EO tool registry (issue 5; keep stable, extend by adding fields):
 * POST/PUT/GET/DELETE /v1/tools[/{id}], GET /v1/tools?catalog=&q=, POST /v1/tools/search,
 * POST /v1/workflows/plan. Bodies are strict: an unknown field is a 400 naming it.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Db } from '../db/database.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { createRouter } from '../http/openapi-app.ts';
import { badRequest, conflict, notFound } from '../http/problem.ts';
import { catalogSnapshot } from './catalog-cache.ts';
import { ToolImportError } from './importers/import-error.ts';
import { importerForData } from './importers/importer.ts';
import { deleteTool, importTools, registerTool, ToolConflictError, updateTool } from './registry.ts';
import type { ToolRecord } from './schema.ts';
import { getToolRow, listToolRows } from './repository.ts';
import { PortTypeSchema, TemporalSchema, SNAKE_CASE } from './schema.ts';
import { parseToolRequest } from './request.ts';
import { planWorkflow, searchTools, summarise } from './search.ts';
import { checkWorkflow } from './workflow.ts';
import type { MinimalToolInput } from './tool.ts';

const TOOL_ID = z
  .string()
  .regex(/^[^\s/?#]{1,200}$/, 'tool ids are 1-200 characters without spaces, "/", "?" or "#"')
  .openapi({ example: 'cva_change_detector' });

const portSchema = z.strictObject({
  name: z.string().min(1).max(200),
  type: PortTypeSchema,
  product: z.string().min(1).max(200).optional(),
  bands: z.array(z.string().min(1).max(50)).max(50).optional(),
  processingLevel: z.string().min(1).max(50).optional(),
  modality: z.string().min(1).max(50).optional(),
  temporal: TemporalSchema.optional(),
  optional: z.boolean().optional(),
});

const names = (max: number) => z.array(z.string().min(1).max(200)).max(max);

/**
 * Registration body: only id, name and description are required. No defaults here on purpose: a field
 * left out is derived from the text (and listed in `derived`), a field given is kept as given.
 */
const toolBodyFields = {
  name: z.string().min(1).max(300),
  description: z.string().min(1).max(10_000),
  catalog: z.string().min(1).max(100).optional(),
  function: z.string().regex(SNAKE_CASE, 'function must be a snake_case task type').max(100).optional(),
  inputs: z.array(portSchema).max(50).optional(),
  outputs: z.array(portSchema).max(50).optional(),
  prerequisites: names(50).optional(),
  downstream: names(100).optional(),
  modalities: names(20).optional(),
  dataSources: names(100).optional(),
  attributes: z.record(z.string(), z.unknown()).optional(),
  version: z.string().min(1).max(50).optional(),
  keywords: names(200).optional(),
};
const createBody = z.strictObject({ id: TOOL_ID, ...toolBodyFields }).openapi('ToolRegistration');
const updateBody = z.strictObject({ id: TOOL_ID.optional(), ...toolBodyFields }).openapi('ToolUpdate');

const toolOut = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    catalog: z.string(),
    function: z.string(),
    inputs: z.array(z.any()),
    outputs: z.array(z.any()),
    prerequisites: z.array(z.string()),
    downstream: z.array(z.string()),
    modalities: z.array(z.string()),
    dataSources: z.array(z.string()),
    attributes: z.record(z.string(), z.any()),
    version: z.string(),
    keywords: z.array(z.string()),
    derived: z.array(z.string()),
    capabilityText: z.string(),
    produces: z.array(z.string()),
    embeddingModel: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Tool');

const contextSchema = z
  .strictObject({
    dataSource: z.string().min(1).max(100).optional().openapi({ example: 'Sentinel-2' }),
    processingLevel: z.string().min(1).max(50).optional().openapi({ example: 'L1C' }),
    available: z.array(z.string().min(1).max(200)).max(100).optional().openapi({ example: ['image_t1', 'image_t2'] }),
  })
  .openapi('ToolRequestContext');

const searchBody = z
  .strictObject({
    query: z.string().trim().min(1).max(2000).openapi({ example: 'map new buildings between two dates from L1C Sentinel-2' }),
    k: z.number().int().min(1).max(50).optional(),
    context: contextSchema.optional(),
    catalogs: z.array(z.string().min(1).max(100)).max(20).optional(),
    /** Scoring weights for experiments (defaults documented in src/tools/search.ts). */
    weights: z
      .strictObject({
        alpha: z.number().min(0).max(10).optional(),
        beta: z.number().min(0).max(10).optional(),
        dense: z.number().min(0).max(10).optional(),
        lexical: z.number().min(0).max(10).optional(),
        taskType: z.number().min(0).max(10).optional(),
        output: z.number().min(0).max(10).optional(),
        bands: z.number().min(0).max(10).optional(),
        name: z.number().min(0).max(10).optional(),
      })
      .optional(),
  })
  .openapi('ToolSearchRequest');

const hitSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    catalog: z.string(),
    function: z.string(),
    score: z.number(),
    similarity: z.number(),
    complementarity: z.number(),
    why: z.string(),
    missingPrerequisites: z.array(z.string()),
    matched: z.array(z.string()),
    complements: z.array(z.string()),
  })
  .openapi('ToolHit');

const workflowSchema = z
  .object({
    steps: z.array(z.object({ toolId: z.string(), why: z.string() })),
    valid: z.boolean(),
    problems: z.array(z.string()).optional(),
    assumptions: z.array(z.string()).optional(),
  })
  .openapi('Workflow');

const clarificationSchema = z
  .object({
    question: z.string(),
    options: z.array(z.object({ taskType: z.string(), label: z.string(), exampleToolIds: z.array(z.string()) })),
  })
  .openapi('Clarification');

const degradedSchema = z
  .array(z.object({ component: z.literal('embeddings'), cause: z.string(), fallback: z.string() }))
  .openapi('Degradation', { description: 'present when the ranking was computed without a failing dependency: which, why, and what was used instead' });

const searchResponse = z
  .object({
    tools: z.array(hitSchema),
    parsed: z.record(z.string(), z.any()),
    workflow: workflowSchema.optional(),
    clarification: clarificationSchema.optional(),
    degraded: degradedSchema.optional(),
  })
  .openapi('ToolSearchResponse');

const planBody = z
  .strictObject({
    query: z.string().trim().min(1).max(2000),
    context: contextSchema.optional(),
    catalogs: z.array(z.string().min(1).max(100)).max(20).optional(),
    /** A chain to check as given (tool ids in order) instead of composing one. */
    steps: z.array(TOOL_ID).min(1).max(50).optional(),
  })
  .openapi('WorkflowPlanRequest');

const listQuery = z.strictObject({
  catalog: z.string().min(1).max(100).optional(),
  q: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).default(100).transform((n) => Math.min(n, 1000)),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });
const problemResponse = (description: string) => ({ description });
const idParams = z.object({ id: TOOL_ID });

export const routes = {
  create: createRoute({
    method: 'post',
    path: '/v1/tools',
    tags: ['tools'],
    summary: 'Register a tool (only id, name, description required; the rest is derived and listed in `derived`)',
    request: { body: { content: { 'application/json': { schema: createBody } }, required: true } },
    responses: {
      201: json(z.object({ tool: toolOut, derived: z.array(z.string()) }), 'registered'),
      400: problemResponse('invalid body (problem+json naming the fields)'),
      409: problemResponse('a tool with this id exists'),
    },
  }),
  update: createRoute({
    method: 'put',
    path: '/v1/tools/{id}',
    tags: ['tools'],
    summary: "Replace a tool's metadata (fields left out are derived again)",
    request: { params: idParams, body: { content: { 'application/json': { schema: updateBody } }, required: true } },
    responses: { 200: json(z.object({ tool: toolOut, derived: z.array(z.string()) }), 'updated'), 400: problemResponse('invalid body'), 404: problemResponse('no such tool') },
  }),
  get: createRoute({
    method: 'get',
    path: '/v1/tools/{id}',
    tags: ['tools'],
    summary: 'One tool with its capability text',
    request: { params: idParams },
    responses: { 200: json(toolOut, 'the tool'), 404: problemResponse('no such tool') },
  }),
  list: createRoute({
    method: 'get',
    path: '/v1/tools',
    tags: ['tools'],
    summary: 'Tools, optionally of one catalog and/or whose id or name contains q',
    request: { query: listQuery },
    responses: { 200: json(z.object({ tools: z.array(toolOut), total: z.number(), limit: z.number(), offset: z.number() }), 'a page of tools') },
  }),
  remove: createRoute({
    method: 'delete',
    path: '/v1/tools/{id}',
    tags: ['tools'],
    summary: 'Remove a tool',
    request: { params: idParams },
    responses: { 204: { description: 'deleted' }, 404: problemResponse('no such tool') },
  }),
  search: createRoute({
    method: 'post',
    path: '/v1/tools/search',
    tags: ['tools'],
    summary: 'Rank tools for a request: similarity + complementarity with the request context, with explanations and a workflow',
    request: { body: { content: { 'application/json': { schema: searchBody } }, required: true } },
    responses: { 200: json(searchResponse, 'ranked tools'), 400: problemResponse('invalid body') },
  }),
  import: createRoute({
    method: 'post',
    path: '/v1/tools:import',
    tags: ['tools'],
    summary: 'Import a catalog of tool records in one transaction (upsert by id; ids owned by another catalog are skipped and listed)',
    description: 'The body is a catalog in one of the formats of the importers: a tool-record file (`{catalog, version, tools: [{id, name, description, ...}]}` or an array of records), an openEO `GET /processes` body or process, or an Awesome Spectral Indices dictionary. `npm run tools:import` sends any catalog it reads this way while a service holds the embedded data directory.',
    request: { body: { content: { 'application/json': { schema: z.any() } }, required: true } },
    responses: {
      200: json(z.object({ read: z.number(), written: z.number(), skipped: z.array(z.object({ id: z.string(), ownedBy: z.string() })), ms: z.number() }), 'import report'),
      400: problemResponse('invalid records; nothing was imported'),
    },
  }),
  plan: createRoute({
    method: 'post',
    path: '/v1/workflows/plan',
    tags: ['tools'],
    summary: 'An ordered, checked chain of tools for a (multi-step) request, or a check of a given chain',
    request: { body: { content: { 'application/json': { schema: planBody } }, required: true } },
    responses: {
      200: json(
        z.object({ workflow: workflowSchema, parsed: z.record(z.string(), z.any()), tools: z.array(hitSchema), clarification: clarificationSchema.optional(), degraded: degradedSchema.optional() }),
        'the chain',
      ),
      400: problemResponse('invalid body'),
    },
  }),
};

/** `readDb`: where the read routes query (server mode: read-only connections with a statement timeout). */
export function toolsRoutes(db: Db, embedder: Embedder, readDb: Db = db) {
  const router = createRouter();

  router.openapi(routes.create, async (c) => {
    const body = c.req.valid('json');
    try {
      const result = await registerTool(db, embedder, body as MinimalToolInput);
      return c.json({ tool: result.tool, derived: result.derived }, 201);
    } catch (error) {
      if (error instanceof ToolConflictError) throw conflict(error.message);
      throw error;
    }
  });

  router.openapi(routes.update, async (c) => {
    const { id } = c.req.valid('param');
    const body = c.req.valid('json');
    if (body.id !== undefined && body.id !== id) {
      throw badRequest(`the body id '${body.id}' differs from the path id '${id}'`, [{ in: 'body', field: 'id', message: 'must equal the path id' }]);
    }
    const result = await updateTool(db, embedder, { ...body, id } as MinimalToolInput);
    if (!result) throw notFound(`no tool '${id}'`);
    return c.json({ tool: result.tool, derived: result.derived }, 200);
  });

  router.openapi(routes.get, async (c) => {
    const { id } = c.req.valid('param');
    const row = await getToolRow(readDb, id);
    if (!row) throw notFound(`no tool '${id}'`);
    return c.json(row, 200);
  });

  router.openapi(routes.list, async (c) => {
    const query = c.req.valid('query');
    const page = await listToolRows(readDb, query);
    return c.json({ tools: page.tools, total: page.total, limit: query.limit, offset: query.offset }, 200);
  });

  router.openapi(routes.remove, async (c) => {
    const { id } = c.req.valid('param');
    if (!(await deleteTool(db, id))) throw notFound(`no tool '${id}'`);
    return c.body(null, 204);
  });

  router.openapi(routes.search, async (c) => {
    const body = c.req.valid('json');
    return c.json(await searchTools(readDb, embedder, body), 200);
  });

  // `/v1/tools:import` is one path segment with a colon, which Hono's path syntax reads as a parameter: it is
  // routed with a pattern, and documented under its real path.
  router.openAPIRegistry.registerPath(routes.import);
  router.post('/v1/:op{tools:import}', async (c) => {
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
  });

  router.openapi(routes.plan, async (c) => {
    const body = c.req.valid('json');
    if (body.steps) {
      const parsed = parseToolRequest(body.query, body.context ?? {});
      const workflow = checkWorkflow(body.steps, parsed.context, await catalogSnapshot(readDb));
      return c.json({ workflow, parsed: summarise(parsed), tools: [] }, 200);
    }
    return c.json(await planWorkflow(readDb, embedder, body), 200);
  });

  return router;
}
