/**
 * Commands that send their work to a running service instead of opening the database themselves: the
 * only safe way while a service holds an embedded data directory (one process per directory).
 */
import { loadConfig } from '../config.ts';
import { currentHolder } from '../db/data-dir.ts';
import type { PlaceFeature } from '../ingest/feature.ts';
import { PLACE_STREAM_TYPE, placeLine } from '../ingest/place-stream.ts';

/**
 * The service to send the work to: `--url` when given; else, in embedded mode, the service that holds the
 * data directory (its lock names its address); else none (the command opens the database itself, and is
 * refused with the holder's PID if some other process holds it).
 */
export function targetService(explicitUrl: string | undefined): string | undefined {
  if (explicitUrl) return explicitUrl.replace(/\/+$/, '');
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch {
    return undefined; // the command itself reports the configuration error
  }
  if (config.DATABASE_URL) return undefined;
  const holder = currentHolder(config.PGLITE_DATA_DIR);
  if (!holder?.url) return undefined;
  process.stderr.write(`the service at ${holder.url} (process ${holder.pid}) holds ${config.PGLITE_DATA_DIR}: sending the work to it\n`);
  return holder.url;
}

function authHeaders(): Record<string, string> {
  const key = process.env.API_KEY?.trim();
  return key ? { authorization: `Bearer ${key}` } : {};
}

/** One request to the service; an unreachable service or a refusal becomes one clear error. */
async function call(url: string, init: RequestInit, refused: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: Error }).cause;
    throw new Error(`cannot reach the service at ${new URL(url).origin}: ${cause?.message ?? (error as Error).message}`);
  }
  if (!response.ok) throw await failure(response, refused);
  return response;
}

/** A problem+json answer as one line: its detail, and the fields it names. */
async function failure(response: Response, what: string): Promise<Error> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { detail?: string; title?: string };
    return new Error(`${what}: ${response.status} ${body.detail ?? body.title ?? text}`);
  } catch {
    return new Error(`${what}: ${response.status} ${text.slice(0, 300)}`);
  }
}

export interface RemoteImportReport {
  read: number;
  written: number;
  repaired: string[];
  ms: number;
}

/**
 * Streams places to `POST /v1/places:import` as they are read (one transaction on the service: a failure
 * imports nothing). `onSent` sees the count sent so far.
 */
export async function sendPlaces(
  url: string,
  places: AsyncIterable<PlaceFeature>,
  options: { source: string; replace: boolean },
  onSent: (count: number) => void,
): Promise<RemoteImportReport> {
  const encoder = new TextEncoder();
  const iterator = places[Symbol.asyncIterator]();
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      // A few hundred places a chunk: fewer, larger writes than one a line.
      let chunk = '';
      for (let i = 0; i < 256; i++) {
        const next = await iterator.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += placeLine(next.value);
        sent++;
      }
      controller.enqueue(encoder.encode(chunk));
      onSent(sent);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  const query = new URLSearchParams({ source: options.source, replace: String(options.replace) });
  const init = { method: 'POST', headers: { 'content-type': PLACE_STREAM_TYPE, ...authHeaders() }, body, duplex: 'half' };
  const response = await call(`${url}/v1/places:import?${query}`, init as RequestInit, 'the service refused the import');
  return (await response.json()) as RemoteImportReport;
}

export interface RemoteToolImportReport {
  read: number;
  written: number;
  skipped: { id: string; ownedBy: string }[];
  ms: number;
}

/** Sends tool records to `POST /v1/tools:import` (one transaction on the service). */
export async function sendTools(url: string, tools: readonly unknown[]): Promise<RemoteToolImportReport> {
  const init = { method: 'POST', headers: { 'content-type': 'application/json', ...authHeaders() }, body: JSON.stringify({ tools }) };
  const response = await call(`${url}/v1/tools:import`, init, 'the service refused the tools');
  return (await response.json()) as RemoteToolImportReport;
}

/** The service's snapshot of its embedded database (GET /v1/backup). */
export async function fetchBackup(url: string): Promise<Uint8Array> {
  const response = await call(`${url}/v1/backup`, { headers: authHeaders() }, 'the service gave no backup');
  return new Uint8Array(await response.arrayBuffer());
}

/** Re-embeds everything on the service (POST /v1/reembed) with the service's model. */
export async function reembedOnService(url: string): Promise<{ model: string; places: number; tools: number }> {
  const response = await call(`${url}/v1/reembed`, { method: 'POST', headers: authHeaders() }, 'the service did not re-embed');
  return (await response.json()) as { model: string; places: number; tools: number };
}
