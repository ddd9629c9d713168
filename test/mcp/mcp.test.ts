// The MCP server through the official SDK's own client: Streamable HTTP against /mcp of the started service,
// and stdio against `npm run mcp` (embedded: it finds the service through the data directory's lock; server
// mode: it starts its own service on the same database). Every tool answers what its REST route answers.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentHolder } from '../../src/db/data-dir.ts';
import { openDatabase } from '../../src/db/database.ts';
import { createOfflineEmbedderWithLexicons } from '../../src/embedding/configured.ts';
import { COLLECTIONS_URI } from '../../src/mcp/server.ts';
import { hasBuiltinTools, loadBuiltinTools } from '../../src/tools/registry.ts';
import { hasNycData, NO_NYC_DATA } from '../helpers/data.ts';
import { countRows, createTestDatabaseLocation, isServer, testMode } from '../helpers/database.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { dataFingerprint } from '../security/helpers.ts';

const KEY = 'mcp-test-key';

interface Connected {
  client: Client;
  /** Errors the client saw outside any call (e.g. a line on stdout that is not a protocol message). */
  errors: Error[];
  /** The server's stderr (stdio). */
  stderr: () => string;
}

async function connect(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Connected> {
  const client = new Client({ name: 'spatial-rag-test', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  let stderr = '';
  if (transport instanceof StdioClientTransport) transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  // Listing the tools makes the client check every structured result against the tool's output schema.
  await client.listTools();
  return { client, errors, stderr: () => stderr };
}

function connectHttp(url: string, headers: Record<string, string> = {}): Promise<Connected> {
  return connect(new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers } }));
}

function stdioTransport(env: Record<string, string>, args: string[] = []): StdioClientTransport {
  return new StdioClientTransport({
    command: 'npm',
    args: ['run', '--silent', 'mcp', ...(args.length ? ['--', ...args] : [])],
    cwd: process.cwd(),
    env: { LOG_LEVEL: 'info', SEED: 'none', RATE_LIMIT_PER_MINUTE: '0', ...env },
    stderr: 'pipe',
  });
}

interface Problem {
  status: number;
  detail: string;
  errors?: { field: string }[];
}

type CallResult = Awaited<ReturnType<Client['callTool']>> & { structuredContent?: Record<string, unknown> };

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallResult> {
  return (await client.callTool({ name, arguments: args })) as CallResult;
}

function problemOf(result: CallResult): Problem {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content as { text: string }[])[0]!.text) as Problem;
}

/** The JSON of a text resource. */
async function readJson<T>(client: Client, uri: string): Promise<T> {
  const content = (await client.readResource({ uri })).contents[0]!;
  if (!('text' in content)) throw new Error(`${uri} is not a text resource`);
  return JSON.parse(content.text) as T;
}

function textOf(result: CallResult): string {
  return (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
}

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as T;
}

/** Questions and requests of this test (not of any evaluation set). */
const QUESTIONS = ['Which pharmacies are within 300 m of Bryant Park?', '布莱恩特公园300米以内的药店'];
const TOOL_REQUEST = 'find flooded fields after a storm from Sentinel-1 radar';
const RUN = {
  request: 'flood extent from two radar scenes',
  steps: [{ toolId: 'not_a_registered_tool', outcome: 'success' }],
  outcome: 'success',
};

const hostileCorpus = JSON.parse(readFileSync(new URL('../security/hostile-questions.json', import.meta.url), 'utf8')) as {
  cases: { id: string; expect: 'ok' | '4xx' | 'ok-or-4xx'; question?: string; body?: Record<string, unknown>; raw?: string; repeat?: [string, number]; field?: string }[];
};

describe.skipIf(!hasNycData)(`MCP with the SDK's client on the Midtown data (${testMode} mode)`, () => {
  let service: TestService;
  const clients: Record<'http' | 'stdio', Connected> = {} as never;

  beforeAll(async () => {
    service = await startTestService({ API_KEY: KEY, RATE_LIMIT_PER_MINUTE: '0' }, { fixture: 'nyc' });
    if (!(await hasBuiltinTools(service.database.db))) await loadBuiltinTools(service.database.db, createOfflineEmbedderWithLexicons());
    clients.http = await connectHttp(service.url, { authorization: `Bearer ${KEY}` });
    // Embedded: the service holds the directory, so `npm run mcp` sends its calls there. Server mode: it starts
    // a service of its own on the same database, with the same key.
    clients.stdio = await connect(stdioTransport({ ...service.location.env, API_KEY: KEY }));
  }, 300_000);

  afterAll(async () => {
    await clients.http?.client.close();
    await clients.stdio?.client.close();
    await service?.stop();
  });

  const transports = ['http', 'stdio'] as const;

  it.each(transports)('%s: lists the tools with their schemas, and the resources', async (transport) => {
    const { client } = clients[transport];
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['ask', 'get_place', 'plan_workflow', 'record_run', 'search_eo_tools', 'search_places']);
    for (const tool of tools) expect(tool.outputSchema?.type).toBe('object');
    const ask = tools.find((t) => t.name === 'ask')!;
    expect(Object.keys(ask.inputSchema.properties ?? {}).sort()).toEqual(['k', 'near', 'planner', 'question', 'rerank']);
    expect(ask.inputSchema.required).toEqual(['question']);
    expect(Object.keys(tools.find((t) => t.name === 'search_places')!.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['bbox', 'category', 'q', 'limit', 'offset']),
    );
    expect(tools.find((t) => t.name === 'record_run')!.annotations?.readOnlyHint).toBe(false);

    // Every page of the resource list: the collections, then the whole tool catalog.
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor);
    const catalog = (await (await fetch(`${service.url}/v1/tools?limit=1`)).json()) as { total: number };
    expect(uris[0]).toBe(COLLECTIONS_URI);
    expect(uris.filter((u) => u.startsWith('tool://'))).toHaveLength(catalog.total);
    expect(new Set(uris).size).toBe(uris.length);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(['place://{id}', 'tool://{id}']);

    const collections = await readJson<{ collections: { id: string }[] }>(client, COLLECTIONS_URI);
    expect(collections.collections.map((c) => c.id)).toContain('places');
    const toolUri = uris.find((u) => u.startsWith('tool://'))!;
    const tool = await readJson<{ id: string; capabilityText: string }>(client, toolUri);
    expect(`tool://${encodeURIComponent(tool.id)}`).toBe(toolUri);
    expect(tool.capabilityText.length).toBeGreaterThan(0);
  });

  it.each(transports)('%s: ask returns the candidates of POST /v1/ask, and their places', async (transport) => {
    const { client } = clients[transport];
    for (const question of QUESTIONS) {
      const rest = await postJson<{ answer: string; candidates: { id: number; scores: { hybrid: number } }[] }>(`${service.url}/v1/ask`, { question, planner: 'offline' });
      expect(rest.candidates.length).toBeGreaterThan(0);
      const result = await call(client, 'ask', { question, planner: 'offline' });
      expect(result.isError ?? false).toBe(false);
      const structured = result.structuredContent as typeof rest;
      expect(structured.candidates.map((c) => c.id)).toEqual(rest.candidates.map((c) => c.id));
      expect(structured.candidates.map((c) => c.scores.hybrid)).toEqual(rest.candidates.map((c) => c.scores.hybrid));
      expect(structured.answer).toBe(rest.answer);
      // The short text: the answer, then one line per candidate naming its place id.
      expect(textOf(result)).toContain(rest.answer);
      for (const c of rest.candidates) expect(textOf(result)).toContain(`[place ${c.id}`);

      const top = rest.candidates[0]!.id;
      const place = await call(client, 'get_place', { id: top });
      expect((place.structuredContent as { id: number }).id).toBe(top);
      const resource = await client.readResource({ uri: `place://${top}` });
      expect(resource.contents[0]!.mimeType).toBe('application/geo+json');
      expect((await readJson<{ id: number }>(client, `place://${top}`)).id).toBe(top);
    }
  });

  it.each(transports)('%s: search_eo_tools and plan_workflow return what their routes return', async (transport) => {
    const { client } = clients[transport];
    const rest = await postJson<{ tools: { id: string }[] }>(`${service.url}/v1/tools/search`, { query: TOOL_REQUEST, k: 5 });
    expect(rest.tools.length).toBeGreaterThan(0);
    const result = await call(client, 'search_eo_tools', { query: TOOL_REQUEST, k: 5 });
    expect((result.structuredContent as typeof rest).tools.map((t) => t.id)).toEqual(rest.tools.map((t) => t.id));
    expect(textOf(result)).toContain(rest.tools[0]!.id);

    const plan = await postJson<{ workflow: { steps: { toolId: string }[] } }>(`${service.url}/v1/workflows/plan`, { query: TOOL_REQUEST });
    const planned = await call(client, 'plan_workflow', { query: TOOL_REQUEST });
    expect((planned.structuredContent as typeof plan).workflow.steps).toEqual(plan.workflow.steps);
  });

  it.each(transports)('%s: search_places pages through the places like the items route', async (transport) => {
    const { client } = clients[transport];
    const bbox = '-73.99,40.75,-73.98,40.76';
    const query = new URLSearchParams({ bbox, category: 'restaurant', limit: '3', offset: '3' });
    const rest = (await (await fetch(`${service.url}/collections/places/items?${query}`)).json()) as { features: { id: number }[] };
    expect(rest.features).toHaveLength(3);
    const page = await call(client, 'search_places', { bbox, category: 'restaurant', limit: 3, offset: 3 });
    expect((page.structuredContent as typeof rest).features.map((f) => f.id)).toEqual(rest.features.map((f) => f.id));
    expect(textOf(page)).toContain('more with offset 6');
    // The bbox as four numbers is the same request.
    const asArray = await call(client, 'search_places', { bbox: [-73.99, 40.75, -73.98, 40.76], category: 'restaurant', limit: 3, offset: 3 });
    const withoutTime = (c: unknown) => ({ ...(c as object), timeStamp: undefined });
    expect(withoutTime(asArray.structuredContent)).toEqual(withoutTime(page.structuredContent));
  });

  it.each(transports)('%s: bad input is a tool error carrying the problem that names the field', async (transport) => {
    const { client } = clients[transport];
    const cases: [string, Record<string, unknown>, string][] = [
      ['ask', { question: 'cafés near Times Square', k: 0 }, 'k'],
      ['ask', { question: 'cafés near Times Square', radius: 300 }, 'radius'],
      ['ask', { question: 'cafés', near: { lon: 200, lat: 40 } }, 'near.lon'],
      ['ask', {}, 'question'],
      ['search_eo_tools', { query: '' }, 'query'],
      ['get_place', { id: 'twelve' }, 'id'],
      ['search_places', { bbox: '-73.99,40.75' }, 'bbox'],
      ['search_places', { category: { $ne: null } }, 'category'],
      ['record_run', { request: 'x', steps: [], outcome: 'maybe' }, 'outcome'],
      ['ask', { question: 'bars\u0000 near Times Square' }, 'question'],
    ];
    for (const [tool, args, field] of cases) {
      const problem = problemOf(await call(client, tool, args));
      expect(problem.status, `${tool} ${JSON.stringify(args)}`).toBe(400);
      expect(problem.errors?.map((e) => e.field), `${tool} ${JSON.stringify(args)}`).toContain(field);
      expect(problem.detail).toContain(field);
    }
    await expect(client.readResource({ uri: 'place://twelve' })).rejects.toThrow(McpError);
    const missing = await client.readResource({ uri: 'place://2000000000' }).catch((error: McpError) => error);
    expect((missing as McpError).code).toBe(-32002);
  });

  it('record_run is refused without the API key, as POST /v1/runs is, and written with it', async () => {
    const runs = () => countRows(service.database.db, 'runs');
    const before = await runs();

    const anonymous = await connectHttp(service.url);
    try {
      const refused = problemOf(await call(anonymous.client, 'record_run', RUN));
      expect(refused.status).toBe(401);
      // Reads need no key.
      expect((await call(anonymous.client, 'search_eo_tools', { query: TOOL_REQUEST })).isError ?? false).toBe(false);
    } finally {
      await anonymous.client.close();
    }
    // Over stdio the key is API_KEY of `npm run mcp`'s environment: none here.
    const keyless = await connect(stdioTransport({}, ['--url', service.url]));
    try {
      expect(problemOf(await call(keyless.client, 'record_run', RUN)).status).toBe(401);
    } finally {
      await keyless.client.close();
    }
    expect(await runs()).toBe(before);

    for (const transport of transports) {
      const written = await call(clients[transport].client, 'record_run', RUN);
      expect(written.isError ?? false, textOf(written)).toBe(false);
      expect(['accepted', 'rejected']).toContain((written.structuredContent as { status: string }).status);
    }
    expect(await runs()).toBe(before + 2);
  }, 120_000);

  it('hostile questions through MCP change no data', async () => {
    const before = await dataFingerprint(service.database.db);
    const { client } = await connectHttp(service.url, { authorization: `Bearer ${KEY}` });
    // Raw bodies are JSON-RPC's business (the SDK's); every other case is sent as the tool's arguments.
    for (const c of hostileCorpus.cases.filter((h) => h.raw === undefined)) {
      const question = c.repeat ? c.repeat[0].repeat(c.repeat[1]) : c.question;
      const args = { ...(question !== undefined ? { question } : {}), planner: 'offline', ...c.body };
      let result: CallResult;
      try {
        result = await call(client, 'ask', args);
      } catch (error) {
        // A message over the body limit is refused by the HTTP edge before MCP reads it.
        expect((error as Error).message, c.id).toMatch(/413/);
        continue;
      }
      if (c.expect === 'ok') expect(result.isError ?? false, `${c.id}: ${textOf(result).slice(0, 300)}`).toBe(false);
      if (c.expect === '4xx') expect(result.isError, c.id).toBe(true);
      if (result.isError) {
        const problem = problemOf(result);
        expect(problem.status, c.id).toBeGreaterThanOrEqual(400);
        expect(problem.status, c.id).toBeLessThan(500);
        if (c.field) expect(problem.errors?.map((e) => e.field), c.id).toContain(c.field);
      }
    }
    await client.close();
    expect(await dataFingerprint(service.database.db)).toEqual(before);
  }, 600_000);

  it.each(transports)('%s: the client saw nothing but protocol messages', (transport) => {
    expect(clients[transport].errors.map((e) => e.message)).toEqual([]);
    if (transport === 'stdio') expect(clients.stdio.stderr()).not.toMatch(/"level":50/);
  });

  it.skipIf(isServer)('stdio on a free data directory starts its own service, found by others through the lock', async () => {
    const location = await createTestDatabaseLocation('nyc');
    const own = await connect(stdioTransport({ ...location.env, API_KEY: KEY }));
    try {
      const question = QUESTIONS[0]!;
      const result = await call(own.client, 'ask', { question, planner: 'offline' });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      const holder = currentHolder(location.env.PGLITE_DATA_DIR!);
      expect(holder?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // The same data as the test's service, hence the same answer, also from the REST route of its own service.
      const rest = await postJson<{ candidates: { id: number }[] }>(`${service.url}/v1/ask`, { question, planner: 'offline' });
      const ownRest = await postJson<{ candidates: { id: number }[] }>(`${holder!.url}/v1/ask`, { question, planner: 'offline' });
      const ids = (result.structuredContent as typeof rest).candidates.map((c) => c.id);
      expect(ids).toEqual(rest.candidates.map((c) => c.id));
      expect(ids).toEqual(ownRest.candidates.map((c) => c.id));
      expect(own.errors).toEqual([]);
    } finally {
      await own.client.close();
    }
    // Closing the client stops the process and frees the directory.
    await expect.poll(() => currentHolder(location.env.PGLITE_DATA_DIR!), { timeout: 20_000 }).toBeNull();
    await location.drop();
  }, 240_000);

  it.skipIf(isServer)('stdio on a directory held by a command that is not a service exits, naming the holder', async () => {
    const location = await createTestDatabaseLocation('empty');
    const handle = await openDatabase({ pgliteDataDir: location.env.PGLITE_DATA_DIR });
    try {
      const child = spawn('npm', ['run', '--silent', 'mcp'], { env: { ...process.env, ...location.env }, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toContain(`in use by process ${process.pid}`);
      expect(stderr).toContain('--url');
      expect(stdout).toBe('');
    } finally {
      await handle.close();
      await location.drop();
    }
  }, 120_000);
});

// The same limits as the REST routes: a deadline and a rate limit on ask, Origin checks on /mcp.
describe(`MCP limits (${testMode} mode)`, () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ RATE_LIMIT_PER_MINUTE: '2', REQUEST_TIMEOUT_MS: '1' });
  });
  afterAll(async () => service?.stop());

  it('ask through MCP meets the route deadline (503) and the per-client rate limit (429)', async () => {
    const { client } = await connectHttp(service.url);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push(problemOf(await call(client, 'ask', { question: 'cafés near Times Square' })).status);
      expect(statuses).toEqual([503, 503, 429]);
    } finally {
      await client.close();
    }
  });

  it('refuses a page of another origin, and GET', async () => {
    await expect(connectHttp(service.url, { origin: 'http://rebound.example' })).rejects.toThrow(/403/);
    const page = await connectHttp(service.url, { origin: 'http://localhost:5173' });
    await page.client.close();
    const get = await fetch(`${service.url}/mcp`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});

if (!hasNycData) console.warn(NO_NYC_DATA);
