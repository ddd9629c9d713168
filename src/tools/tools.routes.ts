/**
 * HTTP contract of the EO tool registry (keep stable, extend by adding fields):
 * POST/PUT/GET/DELETE /v1/tools[/{id}], GET /v1/tools?catalog=&q=, POST /v1/tools/search,
 * POST /v1/workflows/plan, POST /v1/tools:import. Bodies are strict: an unknown field is a 400 naming it.
 */
import { z } from '@hono/zod-openapi';
import { DegradationSchema, invalidRequest, jsonBody, jsonContent, problemResponse, textIdParams } from '../http/openapi-helpers.ts';
import { defineRoute } from '../http/route-policy.ts';
import { PortTypeSchema, SNAKE_CASE, TemporalSchema, ToolRecordSchema } from './schema.ts';

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

/** A stored tool: the record schema's fields, with what the registry adds. */
const toolOut = z
  .object({
    ...ToolRecordSchema.shape,
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
    /** Scoring weights for experiments (defaults documented in src/tools/search/). */
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
    rerank: z
      .enum(['auto', 'rules', 'llm'])
      .optional()
      .openapi({ description: "who orders the tools: the configured language model ('auto', the default, or 'llm') or the rules alone ('rules')" }),
  })
  .openapi('ToolSearchRequest');

export const ToolHitSchema = z
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
    rankReason: z.string().optional().openapi({ description: "the language model's reason, when it ordered the tools and chose this one" }),
  })
  .openapi('ToolHit');

export const WorkflowSchema = z
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
  .array(DegradationSchema)
  .openapi({ description: 'present when the ranking was computed without a failing dependency: which, why, and what was used instead' });

const weighted = z.object({ id: z.string(), weight: z.number() });

/** The request channel's reading of the query, as returned to clients. */
const ParsedSchema = z
  .object({
    lang: z.enum(['en', 'zh']),
    taskType: z.string().optional(),
    taskTypes: z.array(weighted),
    targetObjects: z.array(z.string()),
    targetProducts: z.array(z.string()),
    concepts: z.array(z.string()),
    temporal: z
      .object({ shape: TemporalSchema.optional(), dates: z.array(z.string()), start: z.string().optional(), end: z.string().optional(), text: z.array(z.string()) })
      .optional(),
    spatial: z.object({ kind: z.enum(['bbox', 'place', 'zones', 'grid']), text: z.string() }).optional(),
    precision: z.object({ resolutionM: z.number().optional(), class: z.string().optional(), text: z.array(z.string()) }).optional(),
    dataSource: z.string().optional(),
    dataSources: z.array(z.string()),
    processingLevel: z.string().optional(),
    modalities: z.array(z.string()),
    bands: z.array(z.string()),
    absentBands: z.array(z.string()).openapi({ description: 'bands the text says the data does not have; tools that need one are left out' }),
    onlyBands: z.array(z.string()).openapi({ description: 'all the bands the text says the data has ("only RGB"); tools that declare another are left out' }),
    has: z.array(z.string()),
    lacks: z.array(z.string()),
    subTasks: z.array(z.string()),
    expansions: z.array(z.string()),
    confidence: z.number(),
  })
  .openapi('ToolRequestReading');

/** Which workflow-memory items guided the ranking: named, open records (their shape is the memory's, src/memory/priors.ts). */
const MemoryUsedSchema = z
  .object({
    workflows: z.array(z.number()),
    experiences: z.array(z.record(z.string(), z.unknown())),
    matches: z.array(z.record(z.string(), z.unknown())),
  })
  .openapi('MemoryUsed');

const searchResponse = z
  .object({
    tools: z.array(ToolHitSchema),
    parsed: ParsedSchema,
    workflow: WorkflowSchema.optional(),
    clarification: clarificationSchema.optional(),
    memory: MemoryUsedSchema.optional(),
    degraded: degradedSchema.optional(),
    rerank: z
      .object({ by: z.enum(['llm', 'rules']), model: z.string().optional(), fallbackReason: z.string().optional() })
      .openapi({ description: 'who ordered the tools; with the reason when the model was wanted but its order was not used' }),
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

export const listQuery = z.strictObject({
  catalog: z.string().min(1).max(100).optional(),
  q: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).default(100).transform((n) => Math.min(n, 1000)),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

const idParams = textIdParams(TOOL_ID);

/**
 * A catalog in one of the importers' formats (src/tools/importers/importer.ts reads it and names the bad field):
 * a tool-record file (an object with its catalog and records, or a bare array of records), an openEO process
 * set or single process, or an Awesome Spectral Indices dictionary.
 */
const record = z.record(z.string(), z.unknown());
const toolRecordFile = z
  .union([
    z.object({ catalog: z.string().optional(), version: z.string().optional(), tools: z.array(record) }).passthrough(),
    z.array(record),
    z.object({ processes: z.array(record) }).passthrough().describe('an openEO GET /processes body'),
    z.object({ id: z.string(), process_graph: record.optional() }).passthrough().describe('one openEO process'),
    z.object({ SpectralIndices: record }).passthrough().describe('an Awesome Spectral Indices dictionary'),
  ])
  .openapi('ToolCatalogBody');

const registered = z.object({ tool: toolOut, derived: z.array(z.string()) }).openapi('ToolRegistered');

export const registerRoute = defineRoute({
  policy: 'write',
  method: 'post',
  path: '/v1/tools',
  tags: ['tools'],
  summary: 'Register a tool (only id, name, description required; the rest is derived and listed in `derived`)',
  request: { body: jsonBody(createBody) },
  responses: {
    201: jsonContent(registered, 'registered'),
    400: problemResponse('invalid body (problem+json naming the fields)'),
    409: problemResponse('a tool with this id exists'),
  },
});

export const updateRoute = defineRoute({
  policy: 'write',
  method: 'put',
  path: '/v1/tools/{id}',
  tags: ['tools'],
  summary: "Replace a tool's metadata (fields left out are derived again)",
  request: { params: idParams, body: jsonBody(updateBody) },
  responses: { 200: jsonContent(registered, 'updated'), 400: invalidRequest, 404: problemResponse('no such tool') },
});

export const getRoute = defineRoute({
  policy: 'read',
  method: 'get',
  path: '/v1/tools/{id}',
  tags: ['tools'],
  summary: 'One tool with its capability text',
  request: { params: idParams },
  responses: { 200: jsonContent(toolOut, 'the tool'), 404: problemResponse('no such tool') },
});

export const listRoute = defineRoute({
  policy: 'read',
  method: 'get',
  path: '/v1/tools',
  tags: ['tools'],
  summary: 'Tools, optionally of one catalog and/or whose id or name contains q',
  request: { query: listQuery },
  responses: { 200: jsonContent(z.object({ tools: z.array(toolOut), total: z.number(), limit: z.number(), offset: z.number() }), 'a page of tools') },
});

export const removeRoute = defineRoute({
  policy: 'write',
  method: 'delete',
  path: '/v1/tools/{id}',
  tags: ['tools'],
  summary: 'Remove a tool',
  request: { params: idParams },
  responses: { 204: { description: 'deleted' }, 404: problemResponse('no such tool') },
});

export const searchRoute = defineRoute({
  policy: 'expensive-read',
  method: 'post',
  path: '/v1/tools/search',
  tags: ['tools'],
  summary: 'Rank tools for a request: similarity + complementarity with the request context, with explanations and a workflow',
  request: { body: jsonBody(searchBody) },
  responses: { 200: jsonContent(searchResponse, 'ranked tools'), 400: invalidRequest },
});

export const importRoute = defineRoute({
  policy: 'expensive-write',
  bodyLimit: 'import',
  method: 'post',
  path: '/v1/tools:import',
  tags: ['tools'],
  summary: 'Import a catalog of tool records in one transaction (upsert by id; ids owned by another catalog are skipped and listed)',
  description: 'The body is a catalog in one of the formats of the importers: a tool-record file (`{catalog, version, tools: [{id, name, description, ...}]}` or an array of records), an openEO `GET /processes` body or process, or an Awesome Spectral Indices dictionary. `npm run tools:import` sends any catalog it reads this way while a service holds the embedded data directory.',
  request: { body: jsonBody(toolRecordFile) },
  responses: {
    200: jsonContent(z.object({ read: z.number(), written: z.number(), skipped: z.array(z.object({ id: z.string(), ownedBy: z.string() })), ms: z.number() }), 'import report'),
    400: problemResponse('invalid records; nothing was imported'),
  },
});

export const planRoute = defineRoute({
  policy: 'expensive-read',
  method: 'post',
  path: '/v1/workflows/plan',
  tags: ['tools'],
  summary: 'An ordered, checked chain of tools for a (multi-step) request, or a check of a given chain',
  request: { body: jsonBody(planBody) },
  responses: {
    200: jsonContent(
      z.object({ workflow: WorkflowSchema, parsed: ParsedSchema, tools: z.array(ToolHitSchema), clarification: clarificationSchema.optional(), memory: MemoryUsedSchema.optional(), degraded: degradedSchema.optional() }),
      'the chain',
    ),
    400: invalidRequest,
  },
});
