import { OpenAIEmbeddings } from '@langchain/openai';
import type { Embedder } from './embedder.ts';
import { blankTextVector, isBlankText, l2NormaliseInPlace } from './vector.ts';

export interface OpenAIEmbedderOptions {
  /** Base URL of an OpenAI-compatible API, including the version path (`http://127.0.0.1:8080/v1`). */
  baseURL: string;
  model: string;
  /** Local servers usually need none. */
  apiKey?: string;
  /** Upper bound for one batch request, retries included. */
  timeoutMs: number;
  /** Expected vector length; learned from the first answer when omitted. */
  dimension?: number;
  /** Also send `dimensions` in the request (only text-embedding-3 style models support shortening). */
  requestDimension?: boolean;
  /** Retries after a failed request (5xx, connection error); default 1. */
  maxRetries?: number;
  /** Texts per request; default 128. */
  batchSize?: number;
}

/** An embedding service failed, timed out or answered something unusable. */
export class EmbeddingServiceError extends Error {
  override name = 'EmbeddingServiceError';
}

/** Servers that do not send the placeholder key check nothing; a real key is never read from the environment. */
const PLACEHOLDER_API_KEY = 'not-needed';
/** Probe text used only to learn the dimension when a call holds nothing but blank texts. */
const DIMENSION_PROBE = 'dimension probe';

function describe(options: OpenAIEmbedderOptions): string {
  return `embedding model ${options.model} at ${options.baseURL}`;
}

/**
 * langchain's clients cannot be cancelled from outside, so a deadline is raced against the call; the
 * abandoned request is still aborted by the client's own timeout shortly after.
 */
function withDeadline<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EmbeddingServiceError(`${what} timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  work.catch(() => undefined); // the loser of the race must not become an unhandled rejection
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/**
 * Embeddings from an OpenAI-compatible service (OpenAI, vLLM, llama.cpp, Ollama, TEI…) through
 * langchain's OpenAIEmbeddings. Vectors are re-normalised because not every server normalises, and every
 * answer is checked (count, dimension, finite numbers) since a bad vector silently poisons the index.
 * Blank texts are not sent (OpenAI rejects empty input) and get {@link blankTextVector}.
 * `dimension` is 0 until known when not given.
 */
export function createOpenAIEmbedder(options: OpenAIEmbedderOptions): Embedder {
  const what = describe(options);
  const batchSize = options.batchSize ?? 128;
  const client = new OpenAIEmbeddings({
    model: options.model,
    apiKey: options.apiKey ?? PLACEHOLDER_API_KEY,
    configuration: { baseURL: options.baseURL },
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries ?? 1,
    // float, not the SDK's default base64: many compatible servers only implement float.
    encodingFormat: 'float',
    // One request per embedDocuments call: batching is done here, so the deadline covers one request.
    batchSize: Number.MAX_SAFE_INTEGER,
    ...(options.requestDimension && options.dimension ? { dimensions: options.dimension } : {}),
  });
  let dimension = options.dimension ?? 0;

  function checkVector(vector: unknown): number[] {
    if (!Array.isArray(vector) || !vector.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new EmbeddingServiceError(`${what} returned a vector that is not a list of finite numbers`);
    }
    if (dimension === 0) dimension = vector.length;
    if (vector.length !== dimension) {
      throw new EmbeddingServiceError(`${what} returned a vector of dimension ${vector.length}, expected ${dimension}`);
    }
    const copy = vector.slice();
    l2NormaliseInPlace(copy);
    return copy;
  }

  async function embedBatch(texts: string[]): Promise<number[][]> {
    let vectors: number[][];
    try {
      vectors = await withDeadline(client.embedDocuments(texts), options.timeoutMs, `${what}`);
    } catch (error) {
      if (error instanceof EmbeddingServiceError) throw error;
      throw new EmbeddingServiceError(`${what} failed: ${(error as Error).message}`, { cause: error });
    }
    if (!Array.isArray(vectors) || vectors.length !== texts.length) {
      throw new EmbeddingServiceError(`${what} returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${texts.length} texts`);
    }
    return vectors.map(checkVector);
  }

  return {
    model: options.model,
    get dimension() {
      return dimension;
    },
    async embed(texts: string[]): Promise<number[][]> {
      const toSend = texts.filter((text) => !isBlankText(text));
      const sent: number[][] = [];
      for (const batch of chunk(toSend, batchSize)) sent.push(...(await embedBatch(batch)));
      if (dimension === 0 && toSend.length < texts.length) await embedBatch([DIMENSION_PROBE]);
      let next = 0;
      return texts.map((text) => (isBlankText(text) ? blankTextVector(dimension) : sent[next++]!));
    },
  };
}
