/**
 * Query-time embedding that degrades instead of failing (an embeddings endpoint that is down).
 *
 * Answering a question or searching tools needs the query's vector only to compare it with stored vectors.
 * When the configured embeddings service fails or hangs, those comparisons are impossible (the stored
 * vectors belong to its model: an offline query vector must never be compared with them), but the rest of
 * the answer is not: the caller then scores its bounded candidate set with the offline embedder, text
 * against text, and says so in the response.
 *
 * A circuit breaker keeps one dead endpoint from costing every request the full timeout: after a failure,
 * requests skip the service for {@link RETRY_AFTER_MS}; the first request after that tries it again.
 * Writes (imports, tool registration) do not come through here: they must fail rather than store vectors
 * of another model.
 */
import { createOfflineEmbedderWithLexicons } from './configured.ts';
import type { Embedder } from './embedder.ts';
import { EmbeddingServiceError } from './openai-embedder.ts';
import { cosineSimilarity } from './vector.ts';

/** How long the service is skipped after it failed. */
export const RETRY_AFTER_MS = 15_000;

/** Said in a response that was computed without the configured embeddings service. */
export interface Degradation {
  component: 'embeddings';
  /** What went wrong, without internal addresses (those go to the log). */
  cause: string;
  /** What the response used instead. */
  fallback: string;
}

export type QueryEmbedding = { ok: true; vectors: number[][] } | { ok: false; cause: string; error?: unknown };

export interface QueryEmbedder {
  /** The configured model (the space of the stored vectors). */
  readonly model: string;
  embed(texts: string[]): Promise<QueryEmbedding>;
}

/** A client-safe sentence for an embeddings failure: the kind of failure, never the endpoint. */
export function describeEmbeddingFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const timedOut = /timed out after (\d+) ms/.exec(message);
  if (timedOut) return `the embeddings service did not answer within ${timedOut[1]} ms`;
  const status = httpStatusOf(error);
  if (status) return `the embeddings service answered HTTP ${status}`;
  if (/vector|dimension|returned/.test(message)) return 'the embeddings service returned unusable vectors';
  return 'the embeddings service could not be reached';
}

function httpStatusOf(error: unknown): number | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const status = (e as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400) return status;
  }
  return undefined;
}

/**
 * The breaker and its state belong to one embedder object: the ask and tool routes share it (a dead endpoint
 * found by one is skipped by the other), without threading a new dependency through every caller.
 */
const wrappers = new WeakMap<Embedder, QueryEmbedder>();

export function queryEmbedderFor(embedder: Embedder, now: () => number = Date.now): QueryEmbedder {
  let wrapper = wrappers.get(embedder);
  if (!wrapper) {
    wrapper = createQueryEmbedder(embedder, now);
    wrappers.set(embedder, wrapper);
  }
  return wrapper;
}

function createQueryEmbedder(embedder: Embedder, now: () => number): QueryEmbedder {
  let openUntil = 0;
  let lastCause = '';
  return {
    get model() {
      return embedder.model;
    },
    async embed(texts) {
      if (now() < openUntil) {
        return { ok: false, cause: `${lastCause} (not retried for ${Math.ceil((openUntil - now()) / 1000)} s)` };
      }
      try {
        const vectors = await embedder.embed(texts);
        openUntil = 0;
        return { ok: true, vectors };
      } catch (error) {
        // Only a failing service degrades; a bug elsewhere must still surface as an error.
        if (!(error instanceof EmbeddingServiceError)) throw error;
        lastCause = describeEmbeddingFailure(error);
        openUntil = now() + RETRY_AFTER_MS;
        return { ok: false, cause: lastCause, error };
      }
    },
  };
}

let offline: Embedder | undefined;

/**
 * Text-to-text similarity without the service: the offline embedder (with the place and EO synonym groups) over
 * the query and each candidate text, computed now, compared only with each other. Candidate sets are
 * bounded (a few hundred short descriptions), and the offline embedder takes microseconds per text.
 */
export async function offlineSimilarities(queries: string[], texts: string[]): Promise<number[][]> {
  offline ??= createOfflineEmbedderWithLexicons();
  const vectors = await offline.embed([...queries, ...texts]);
  const queryVectors = vectors.slice(0, queries.length);
  const textVectors = vectors.slice(queries.length);
  return queryVectors.map((q) => textVectors.map((t) => cosineSimilarity(q, t)));
}
