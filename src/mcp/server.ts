/**
 * The service as an MCP server (Model Context Protocol), for agents: questions, places and EO tools as MCP
 * tools, places and the tool catalog as MCP resources.
 *
 * There is no second implementation here: every tool call and resource read is one request to the REST route
 * that does the same thing, through `dispatch` (in the service: the Hono app itself, with the caller's socket
 * and Authorization header; over stdio: the service's URL). So the input checks and their problem+json
 * errors, the API key on writes, the rate limits, the body limits, the concurrency cap and the deadlines are
 * the REST routes' own, and the schemas an agent sees are the routes' zod schemas.
 *
 * The SDK's low-level `Server` is used rather than `McpServer` on purpose: McpServer validates arguments
 * itself and answers with zod's messages, where the route's problem+json (naming the field) is wanted.
 */
import { z } from '@hono/zod-openapi';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Resource,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { askBody, askResponse } from '../ask/ask.routes.ts';
import type { FieldError, ProblemBody } from '../http/problem.ts';
import { checkJsonValue } from '../http/input-checks/json-value.ts';
import { recordRunRoute } from '../memory/memory.routes.ts';
import { itemsRoute, placeRoute } from '../places/places.routes.ts';
import { planRoute, searchRoute } from '../tools/tools.routes.ts';

/** One request to a REST route of the service. */
export interface RouteRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/v1/places/12` (values already encoded). */
  path: string;
  body?: unknown;
  signal?: AbortSignal;
}

export type Dispatch = (request: RouteRequest) => Promise<Response>;

export const SERVER_INFO = { name: 'spatial-rag', version: '0.1.0' } as const;

export const COLLECTIONS_URI = 'spatial-rag://collections';
const PLACE_PREFIX = 'place://';
const TOOL_PREFIX = 'tool://';
/** Tools listed per page of resources/list. */
const RESOURCE_PAGE = 100;

type Args = Record<string, unknown>;

interface ToolSpec {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  output: z.ZodType;
  /** The route request for these arguments, or the field errors that make a request impossible. */
  request(args: Args): RouteRequest | FieldError[];
  /** A few lines for the agent; the whole route response is the structured content. */
  summary: (body: never) => string;
  /** Changes stored data (record_run): the route's access control applies. */
  writes?: boolean;
}

const jsonOf = <T extends z.ZodType>(content: { 'application/json': { schema: T } } | undefined): T => {
  if (!content) throw new Error('route without a JSON body schema');
  return content['application/json'].schema;
};

/** A POST route with a JSON body: the arguments are the body. */
const postRoute = (path: string, input: z.ZodType, output: z.ZodType) => ({
  input,
  output,
  request: (args: Args): RouteRequest => ({ method: 'POST', path, body: args }),
});

const searchPlacesInput = itemsRoute.request.query.extend({
  collectionId: z.string().max(200).default('places').describe("'places' (all) or one data source, as listed by the collections resource"),
});

const TOOLS: ToolSpec[] = [
  {
    name: 'ask',
    title: 'Answer a geographic question',
    description:
      'Answers a natural-language geographic question (English or Chinese) over the places in the database: ' +
      'the plan, the spatial SQL, the candidates with their scores (sparse, denseSpatial, semantic, hybrid) and ' +
      'Pareto membership, and the EO tools that fit the question. Same as POST /v1/ask.',
    ...postRoute('/v1/ask', askBody, askResponse),
    summary: askSummary,
  },
  {
    name: 'search_eo_tools',
    title: 'Find Earth-observation tools',
    description:
      'Ranks the Earth-observation processing tools for a request (similarity and complementarity with the ' +
      'request context), with explanations, missing prerequisites and a workflow for multi-step requests. ' +
      'Same as POST /v1/tools/search.',
    ...postRoute(searchRoute.path, jsonOf(searchRoute.request.body.content), searchRoute.responses[200].content['application/json'].schema),
    summary: toolSearchSummary,
  },
  {
    name: 'plan_workflow',
    title: 'Plan an EO workflow',
    description:
      'An ordered, checked chain of EO tools for a (multi-step) request, or a check of a chain given in steps. ' +
      'Same as POST /v1/workflows/plan.',
    ...postRoute(planRoute.path, jsonOf(planRoute.request.body.content), planRoute.responses[200].content['application/json'].schema),
    summary: workflowSummary,
  },
  {
    name: 'get_place',
    title: 'One place',
    description: 'One place by id (as returned by ask or search_places), as a GeoJSON Feature with its tags. Same as GET /v1/places/{id}.',
    input: placeRoute.request.params,
    output: placeRoute.responses[200].content['application/geo+json'].schema,
    request: (args) => {
      const bad = nonScalarFields(args, []);
      if (bad.length) return bad;
      return { method: 'GET', path: `/v1/places/${encodeURIComponent(String(args.id ?? ''))}` };
    },
    summary: placeSummary,
  },
  {
    name: 'search_places',
    title: 'Search places',
    description:
      'Places of a collection filtered by bbox (minLon,minLat,maxLon,maxLat), category and name text (q), ' +
      'paged with limit and offset (the next page is offset + limit while a next link is present). ' +
      'Same as GET /collections/{collectionId}/items.',
    input: searchPlacesInput,
    output: itemsRoute.responses[200].content['application/geo+json'].schema,
    request: (args) => {
      const { collectionId = 'places', ...query } = args;
      const bad = nonScalarFields(args, ['bbox']);
      if (bad.length) return bad;
      const params = new URLSearchParams();
      // A bbox may also come as an array of four numbers: joined, it is the route's text form.
      for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, Array.isArray(value) ? value.join(',') : String(value));
      const search = params.size ? `?${params}` : '';
      return { method: 'GET', path: `/collections/${encodeURIComponent(String(collectionId))}/items${search}` };
    },
    summary: placesSummary,
  },
  {
    name: 'record_run',
    title: 'Record a finished run',
    description:
      'Reports a finished EO run (the request, the ordered tool steps with their outcomes, the overall outcome) ' +
      'to the workflow memory; it passes the safety gate before it influences rankings. A write: needs the ' +
      'API key when the service has one. Same as POST /v1/runs.',
    ...postRoute(recordRunRoute.path, jsonOf(recordRunRoute.request.body.content), recordRunRoute.responses[201].content['application/json'].schema),
    summary: runSummary,
    writes: true,
  },
];

/**
 * JSON Schema of a route schema. Inputs as the route accepts them (defaults optional); outputs in the same
 * "input" view, so that objects stay open to added fields as the REST contract promises.
 */
function jsonSchema(schema: z.ZodType): Tool['inputSchema'] {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest as Tool['inputSchema'];
}

const LISTED_TOOLS: Tool[] = TOOLS.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: jsonSchema(tool.input),
  outputSchema: jsonSchema(tool.output) as Tool['outputSchema'],
  annotations: { readOnlyHint: !tool.writes, destructiveHint: false, openWorldHint: false },
}));

/** Query and path values are text: an object or array there would be read as its string form, so it is refused. */
function nonScalarFields(args: Args, listsAllowed: string[]): FieldError[] {
  return Object.entries(args)
    .filter(([key, value]) => value !== null && typeof value === 'object' && !(Array.isArray(value) && listsAllowed.includes(key)))
    .map(([key]) => ({ in: 'arguments', field: key, message: 'must be a string or a number' }));
}

function badArguments(errors: FieldError[]): ProblemBody {
  return {
    type: 'https://spatial-rag.dev/problems/validation-failed',
    title: 'Bad Request',
    status: 400,
    detail: `invalid arguments field '${errors[0]!.field}': ${errors[0]!.message}`,
    errors,
  };
}

/** The route's JSON answer; a body that is not JSON becomes a problem carrying its first characters. */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return { type: 'about:blank', title: response.statusText || 'Error', status: response.status, detail: text.slice(0, 300) };
  }
}

function unreachable(error: unknown): ProblemBody {
  return {
    type: 'https://spatial-rag.dev/problems/unavailable',
    title: 'Service Unavailable',
    status: 503,
    detail: (error as Error).message,
  };
}

const problemResult = (problem: unknown): CallToolResult => ({ isError: true, content: [{ type: 'text', text: JSON.stringify(problem) }] });

async function callTool(dispatch: Dispatch, name: string, args: Args, signal: AbortSignal): Promise<CallToolResult> {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `no tool '${name}'; tools/list names them`);
  // Nesting beyond what any route accepts is refused before it is serialised again (NUL characters are left
  // to the route, which names the field in its own words).
  const tooDeep = checkJsonValue(args, { nul: false });
  if (tooDeep) return problemResult(badArguments([{ ...tooDeep, in: 'arguments' }]));
  const request = tool.request(args);
  if (Array.isArray(request)) return problemResult(badArguments(request));
  let response: Response;
  try {
    response = await dispatch({ ...request, signal });
  } catch (error) {
    return problemResult(unreachable(error));
  }
  const body = await readBody(response);
  if (!response.ok) return problemResult(body);
  return { content: [{ type: 'text', text: tool.summary(body as never) }], structuredContent: body as Record<string, unknown> };
}

// ---------------------------------------------------------------------------------------------------------
// Resources: the collections, places by id (a template: there are too many to list) and the tool catalog.

async function listResources(dispatch: Dispatch, cursor: string | undefined): Promise<{ resources: Resource[]; nextCursor?: string }> {
  const offset = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isInteger(offset) || offset < 0) throw new McpError(ErrorCode.InvalidParams, `invalid cursor '${cursor}'`);
  const response = await dispatch({ method: 'GET', path: `/v1/tools?limit=${RESOURCE_PAGE}&offset=${offset}` });
  const body = (await readBody(response)) as { tools?: { id: string; name: string; catalog: string }[]; total?: number };
  if (!response.ok || !body.tools) throw resourceError(response.status, body);
  const resources: Resource[] = body.tools.map((tool) => ({
    uri: `${TOOL_PREFIX}${encodeURIComponent(tool.id)}`,
    name: tool.id,
    title: `${tool.name} (${tool.catalog})`,
    mimeType: 'application/json',
  }));
  if (offset === 0) {
    resources.unshift({ uri: COLLECTIONS_URI, name: 'collections', title: 'Feature collections: all places, and one per data source', mimeType: 'application/json' });
  }
  const next = offset + body.tools.length;
  return { resources, ...(next < (body.total ?? 0) ? { nextCursor: String(next) } : {}) };
}

const RESOURCE_TEMPLATES = [
  { uriTemplate: `${PLACE_PREFIX}{id}`, name: 'place', title: 'A place by id, as a GeoJSON Feature', mimeType: 'application/geo+json' },
  { uriTemplate: `${TOOL_PREFIX}{id}`, name: 'tool', title: 'An EO tool of the catalog by id, with its capability text', mimeType: 'application/json' },
];

function resourcePath(uri: string): { path: string; mimeType: string } {
  if (uri === COLLECTIONS_URI) return { path: '/collections', mimeType: 'application/json' };
  const id = (prefix: string) => {
    try {
      return encodeURIComponent(decodeURIComponent(uri.slice(prefix.length)));
    } catch {
      throw new McpError(ErrorCode.InvalidParams, `invalid resource URI '${uri.slice(0, 200)}'`);
    }
  };
  if (uri.startsWith(PLACE_PREFIX)) return { path: `/v1/places/${id(PLACE_PREFIX)}`, mimeType: 'application/geo+json' };
  if (uri.startsWith(TOOL_PREFIX)) return { path: `/v1/tools/${id(TOOL_PREFIX)}`, mimeType: 'application/json' };
  throw new McpError(ErrorCode.InvalidParams, `unknown resource URI '${uri.slice(0, 200)}': ${COLLECTIONS_URI}, place://{id} or tool://{id}`);
}

/** MCP's code for an unknown resource. */
const RESOURCE_NOT_FOUND = -32002;

function resourceError(status: number, problem: unknown): McpError {
  const detail = (problem as { detail?: string }).detail ?? `status ${status}`;
  if (status === 404) return new McpError(RESOURCE_NOT_FOUND, detail, problem);
  if (status === 400) return new McpError(ErrorCode.InvalidParams, detail, problem);
  return new McpError(ErrorCode.InternalError, detail, problem);
}

async function readResource(dispatch: Dispatch, uri: string, signal: AbortSignal) {
  const { path, mimeType } = resourcePath(uri);
  let response: Response;
  try {
    response = await dispatch({ method: 'GET', path, signal });
  } catch (error) {
    throw new McpError(ErrorCode.InternalError, (error as Error).message, unreachable(error));
  }
  const text = await response.text();
  if (!response.ok) throw resourceError(response.status, await readBody(new Response(text, { status: response.status })));
  return { contents: [{ uri, mimeType, text }] };
}

/** A new MCP server whose tools and resources answer through `dispatch`. */
export function createMcpServer(dispatch: Dispatch): Server {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- see the module comment
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: {} },
    instructions:
      'Geographic questions over the places in this database (ask), the places themselves (search_places, get_place, ' +
      'place://{id}) and Earth-observation tool recommendations (search_eo_tools, plan_workflow, tool://{id}). ' +
      'Errors are RFC 9457 problem+json documents naming the offending field.',
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: LISTED_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(dispatch, request.params.name, (request.params.arguments ?? {}) as Args, extra.signal),
  );
  server.setRequestHandler(ListResourcesRequestSchema, (request) => listResources(dispatch, request.params?.cursor));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => readResource(dispatch, request.params.uri, extra.signal));
  return server;
}

// ---------------------------------------------------------------------------------------------------------
// Short texts beside the structured results (an agent reads these first; the structure has everything).

type AskOut = z.infer<typeof askResponse>;

function askSummary(body: AskOut): string {
  const lines = [body.answer];
  const clarification = body.clarification as { options?: { name: string; hint?: string; category?: string }[] } | undefined;
  for (const option of clarification?.options ?? []) lines.push(`- option: ${option.name} (${option.hint || option.category || ''})`);
  for (const c of body.candidates) {
    lines.push(`- ${c.name} [place ${c.id}${c.category ? `, ${c.category}` : ''}]: ${Math.round(c.distanceM)} m, hybrid ${c.scores.hybrid.toFixed(3)}${c.pareto ? ', Pareto front' : ''}`);
  }
  const tools = body.tools as { id: string; why?: string }[];
  if (tools.length) lines.push(`EO tools: ${tools.map((t) => t.id).join(', ')}`);
  return lines.join('\n');
}

interface ToolHitOut {
  id: string;
  catalog: string;
  score: number;
  why: string;
  missingPrerequisites: string[];
}
interface WorkflowOut {
  steps: { toolId: string; why: string }[];
  valid: boolean;
  problems?: string[];
}

function workflowLines(workflow: WorkflowOut | undefined): string[] {
  if (!workflow) return [];
  return [
    `workflow (${workflow.valid ? 'valid' : 'not valid'}):`,
    ...workflow.steps.map((s, i) => `${i + 1}. ${s.toolId}: ${s.why}`),
    ...(workflow.problems ?? []).map((p) => `problem: ${p}`),
  ];
}

function toolSearchSummary(body: { tools: ToolHitOut[]; workflow?: WorkflowOut; clarification?: { question: string } }): string {
  const lines = body.tools.map(
    (t) => `- ${t.id} (${t.catalog}, score ${t.score.toFixed(3)}): ${t.why}${t.missingPrerequisites.length ? `; missing: ${t.missingPrerequisites.join(', ')}` : ''}`,
  );
  if (body.clarification) lines.unshift(body.clarification.question);
  return [...lines, ...workflowLines(body.workflow)].join('\n') || 'no tools';
}

function workflowSummary(body: { workflow: WorkflowOut; clarification?: { question: string } }): string {
  return [...(body.clarification ? [body.clarification.question] : []), ...workflowLines(body.workflow)].join('\n');
}

interface FeatureOut {
  id: number;
  properties: { name?: string | null; category?: string | null; source?: string };
}

const placeLine = (f: FeatureOut) => `${f.properties.name ?? '(unnamed)'} [place ${f.id}${f.properties.category ? `, ${f.properties.category}` : ''}${f.properties.source ? `, ${f.properties.source}` : ''}]`;

function placeSummary(body: FeatureOut): string {
  return placeLine(body);
}

function placesSummary(body: { features: FeatureOut[]; links: { rel: string; href: string }[] }): string {
  const next = body.links.find((l) => l.rel === 'next');
  const offset = next ? new URL(next.href).searchParams.get('offset') : null;
  return [
    `${body.features.length} places${offset ? `; more with offset ${offset}` : ''}`,
    ...body.features.map((f) => `- ${placeLine(f)}`),
  ].join('\n');
}

function runSummary(body: { id: number; status: string; taskType: string; reasons?: string[] }): string {
  return `run ${body.id} ${body.status} (task type ${body.taskType})${body.reasons?.length ? `: ${body.reasons.join('; ')}` : ''}`;
}
