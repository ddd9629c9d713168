/**
 * `npm run mcp [-- --url URL]`: the MCP server over stdio, for desktop and IDE assistants that start it as a
 * command. stdout carries the protocol alone; every log line goes to stderr.
 *
 * Its tools answer through a service's REST routes (src/mcp/server.ts), found in this order:
 * 1. `--url`: a running service, anywhere;
 * 2. embedded mode: the service that holds PGLITE_DATA_DIR (its lock names its address), as for
 *    `npm run ingest`, since one data directory has one process;
 * 3. otherwise a service started in this process on a loopback port of its own (advertised in the lock, so
 *    other commands and a second `npm run mcp` use it), with the configuration of `npm start`.
 * A data directory held by a command that is not a service (an ingest, a restore) is refused, naming it.
 *
 * The API key sent with the calls is API_KEY from the environment (MCP over stdio takes its credentials from
 * the environment): a service with a different API_KEY, or none in this environment, refuses record_run.
 */
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigError, loadConfig } from '../config.ts';
import { DataDirLockedError } from '../db/data-dir.ts';
import { createLogger } from '../log.ts';
import { createMcpServer, type RouteRequest } from '../mcp/server.ts';
import { startService, type Service } from '../service.ts';
import { targetService } from './service-client.ts';

// Anything printed on stdout would corrupt the protocol: console output goes to stderr.
for (const method of ['log', 'info', 'debug'] as const) console[method] = console.error;

const fail = (message: string): never => {
  process.stderr.write(`npm run mcp: ${message}\n`);
  process.exit(1);
};

function readOptions(): { url?: string | undefined } {
  try {
    return parseArgs({ options: { url: { type: 'string' } } }).values;
  } catch (error) {
    return fail(`${(error as Error).message}; usage: npm run mcp [-- --url http://127.0.0.1:3000]`);
  }
}
const options = readOptions();

let service: Service | undefined;

async function startOwnService(): Promise<string> {
  let config;
  try {
    // Only this process and commands that find it through the lock talk to it: loopback, any free port, and
    // no grace period for connections arriving at shutdown.
    config = loadConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0', SHUTDOWN_GRACE_MS: '0' });
  } catch (error) {
    return fail(error instanceof ConfigError ? error.message : (error as Error).message);
  }
  try {
    service = await startService(config, { log: createLogger(config.LOG_LEVEL, 2) });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      const { holder } = error;
      return fail(
        `the embedded data directory ${error.dataDir} is in use by process ${holder.pid} (${holder.command}, since ${holder.startedAt}): ` +
          'one process per data directory. Wait for it to finish or stop it; with a service running (`npm start`), ' +
          '`npm run mcp` talks to it, or give its address with `npm run mcp -- --url URL`',
      );
    }
    return fail(`failed to start: ${(error as Error).message}`);
  }
  return `http://127.0.0.1:${service.port}`;
}

// A first start may load the seed for minutes: the client is answered meanwhile (initialize, tools/list),
// and tool calls wait for the service.
const base: Promise<string> = (() => {
  const url = targetService(options.url);
  return url ? Promise.resolve(url) : startOwnService();
})();

function dispatch(request: RouteRequest): Promise<Response> {
  return base.then(async (url) => {
    const key = process.env.API_KEY?.trim();
    const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await fetch(`${url}${request.path}`, {
        method: request.method,
        headers,
        ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      });
    } catch (error) {
      const cause = (error as { cause?: Error }).cause;
      throw new Error(`cannot reach the service at ${url}: ${cause?.message ?? (error as Error).message}`);
    }
  });
}

let stopping: Promise<void> | undefined;
const stop = () =>
  (stopping ??= (async () => {
    try {
      await service?.shutdown();
    } finally {
      process.exit(0);
    }
  })());

const transport = new StdioServerTransport();
transport.onclose = () => void stop();
process.stdin.on('end', () => void stop());
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
await createMcpServer(dispatch).connect(transport);
