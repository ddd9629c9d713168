import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIEmbedder, EmbeddingServiceError } from '../../../src/embedding/openai-embedder.ts';
import { blankTextVector } from '../../../src/embedding/vector.ts';

type Mode = 'ok' | 'error500' | 'hang' | 'short' | 'nan';

interface EmbeddingRequest {
  model: string;
  input: string[] | string;
  encoding_format?: string;
  dimensions?: number;
}

/** A stand-in for an OpenAI-compatible server: a 4-dimensional, deliberately unnormalised vector per text. */
class StubServer {
  mode: Mode = 'ok';
  requests: EmbeddingRequest[] = [];
  authorization: string[] = [];
  private server: Server = createServer((req, res) => this.handle(req, res));

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections(); // hanging requests would keep close() waiting
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += chunk;
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
      res.writeHead(404).end();
      return;
    }
    const request = JSON.parse(body) as EmbeddingRequest;
    this.requests.push(request);
    this.authorization.push(req.headers.authorization ?? '');
    if (this.mode === 'hang') return; // never answer
    if (this.mode === 'error500') {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'model crashed', type: 'server_error' } }));
      return;
    }
    const inputs = Array.isArray(request.input) ? request.input : [request.input];
    const answered = this.mode === 'short' ? inputs.slice(1) : inputs;
    const data = answered.map((text, index) => ({
      object: 'embedding',
      index,
      embedding: this.mode === 'nan' ? [Number.NaN, 1, 1, 1] : [text.length, 1, 0, 2],
    }));
    res.writeHead(200, { 'content-type': 'application/json' });
    // JSON has no NaN; a broken server sending null is what a client would see.
    res.end(JSON.stringify({ object: 'list', data, model: request.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
  }
}

const stub = new StubServer();
let baseURL = '';

beforeAll(async () => {
  baseURL = await stub.start();
});
afterAll(() => stub.stop());
beforeEach(() => {
  stub.mode = 'ok';
  stub.requests = [];
  stub.authorization = [];
});

function norm(vector: number[]): number {
  return Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
}

describe('createOpenAIEmbedder', () => {
  it('embeds through an OpenAI-compatible endpoint and normalises the vectors', async () => {
    const embedder = createOpenAIEmbedder({ baseURL, model: 'stub-embed', timeoutMs: 2_000 });
    expect(embedder.model).toBe('stub-embed');
    expect(embedder.dimension).toBe(0);
    const vectors = await embedder.embed(['café', 'a steak house']);
    expect(embedder.dimension).toBe(4);
    expect(vectors).toHaveLength(2);
    for (const vector of vectors) expect(norm(vector)).toBeCloseTo(1, 9);
    // [4,1,0,2] normalised: the first component carries the text length.
    expect(vectors[0]![0]).toBeCloseTo(4 / Math.sqrt(21), 9);
    expect(stub.requests).toEqual([{ model: 'stub-embed', input: ['café', 'a steak house'], encoding_format: 'float' }]);
  });

  it('sends the configured key, and a placeholder (not the environment) when there is none', async () => {
    await createOpenAIEmbedder({ baseURL, model: 'm', apiKey: 'secret', timeoutMs: 2_000 }).embed(['a']);
    await createOpenAIEmbedder({ baseURL, model: 'm', timeoutMs: 2_000 }).embed(['a']);
    expect(stub.authorization).toEqual(['Bearer secret', 'Bearer not-needed']);
  });

  it('does not send blank texts, and gives them the blank-text vector', async () => {
    const embedder = createOpenAIEmbedder({ baseURL, model: 'm', timeoutMs: 2_000 });
    const vectors = await embedder.embed(['', 'pharmacy', '   ']);
    expect(stub.requests.map((r) => r.input)).toEqual([['pharmacy']]);
    expect(vectors[0]).toEqual(blankTextVector(4));
    expect(vectors[2]).toEqual(blankTextVector(4));
    expect(norm(vectors[1]!)).toBeCloseTo(1, 9);
  });

  it('learns the dimension with a probe when a first call holds only blank texts', async () => {
    const embedder = createOpenAIEmbedder({ baseURL, model: 'm', timeoutMs: 2_000 });
    const vectors = await embedder.embed(['']);
    expect(vectors).toEqual([blankTextVector(4)]);
    expect(embedder.dimension).toBe(4);
  });

  it('splits large inputs into batches, keeping the order', async () => {
    const embedder = createOpenAIEmbedder({ baseURL, model: 'm', timeoutMs: 2_000, batchSize: 2 });
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee'];
    const vectors = await embedder.embed(texts);
    expect(stub.requests.map((r) => r.input)).toEqual([['a', 'bb'], ['ccc', 'dddd'], ['eeeee']]);
    const firstComponents = vectors.map((v, i) => v[0]! / (texts[i]!.length / Math.sqrt(texts[i]!.length ** 2 + 5)));
    for (const ratio of firstComponents) expect(ratio).toBeCloseTo(1, 9);
  });

  it('requests a dimension only when asked to', async () => {
    await createOpenAIEmbedder({ baseURL, model: 'm', timeoutMs: 2_000, dimension: 4, requestDimension: true }).embed(['a']);
    await createOpenAIEmbedder({ baseURL, model: 'm', timeoutMs: 2_000, dimension: 4 }).embed(['a']);
    expect(stub.requests.map((r) => r.dimensions)).toEqual([4, undefined]);
  });

  it('rejects vectors of an unexpected dimension', async () => {
    const embedder = createOpenAIEmbedder({ baseURL, model: 'm', timeoutMs: 2_000, dimension: 384 });
    await expect(embedder.embed(['a'])).rejects.toThrow(/dimension 4, expected 384/);
  });

  it('rejects an answer with missing vectors', async () => {
    stub.mode = 'short';
    const embedder = createOpenAIEmbedder({ baseURL, model: 'm', timeoutMs: 2_000 });
    await expect(embedder.embed(['a', 'b'])).rejects.toThrow(EmbeddingServiceError);
  });

  it('rejects vectors that are not finite numbers', async () => {
    stub.mode = 'nan';
    const embedder = createOpenAIEmbedder({ baseURL, model: 'm', timeoutMs: 2_000 });
    await expect(embedder.embed(['a'])).rejects.toThrow(/finite numbers/);
  });

  it('turns a server error into a clear error, after the configured retries', async () => {
    stub.mode = 'error500';
    const embedder = createOpenAIEmbedder({ baseURL, model: 'stub-embed', timeoutMs: 5_000, maxRetries: 0 });
    const error = await embedder.embed(['a']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingServiceError);
    expect((error as Error).message).toMatch(/stub-embed/);
    expect((error as Error).message).toMatch(/500/);
    expect(stub.requests).toHaveLength(1);
  });

  it('gives up on a hanging server when the timeout expires', async () => {
    stub.mode = 'hang';
    const embedder = createOpenAIEmbedder({ baseURL, model: 'stub-embed', timeoutMs: 300, maxRetries: 1 });
    const started = Date.now();
    const error = await embedder.embed(['a']).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(EmbeddingServiceError);
    expect((error as Error).message).toMatch(/timed out after 300 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('sends nothing for an empty list', async () => {
    const embedder = createOpenAIEmbedder({ baseURL, model: 'm', timeoutMs: 2_000 });
    expect(await embedder.embed([])).toEqual([]);
    expect(stub.requests).toHaveLength(0);
  });
});
