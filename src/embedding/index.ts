import type { Concept } from '../lexicon/types.ts';
import { cachedEmbedder, type Embedder } from './embedder.ts';
import { createOfflineEmbedder } from './offline-embedder.ts';
import { createOpenAIEmbedder } from './openai-embedder.ts';

export { cachedEmbedder, DEFAULT_CACHE_ENTRIES, type Embedder } from './embedder.ts';
export { createOfflineEmbedder, DEFAULT_OFFLINE_DIMENSION, type OfflineEmbedderOptions } from './offline-embedder.ts';
export { createOpenAIEmbedder, EmbeddingServiceError, type OpenAIEmbedderOptions } from './openai-embedder.ts';
export { blankTextVector, cosineSimilarity } from './vector.ts';

export interface EmbedderConfig {
  embeddingsBaseUrl?: string;
  embeddingsModel?: string;
  embeddingsApiKey?: string;
  /** Per-request bound for the remote embedder; default 10 s. */
  embeddingsTimeoutMs?: number;
  /** Synonym groups for the offline embedder (a remote model knows its synonyms). */
  concepts?: Concept[];
  /** LRU size for the remote embedder; default 10 000. */
  cacheEntries?: number;
}

/**
 * The remote embedder when both its URL and model are configured, else the offline one. Only the remote
 * one is cached: the offline embedder computes a vector in microseconds, about what a cache hit costs,
 * and a cache would just hold memory during bulk imports.
 */
export function createEmbedder(config: EmbedderConfig): Embedder {
  if (config.embeddingsBaseUrl && config.embeddingsModel) {
    const remote = createOpenAIEmbedder({
      baseURL: config.embeddingsBaseUrl,
      model: config.embeddingsModel,
      apiKey: config.embeddingsApiKey,
      timeoutMs: config.embeddingsTimeoutMs ?? 10_000,
    });
    return cachedEmbedder(remote, config.cacheEntries);
  }
  return createOfflineEmbedder({ concepts: config.concepts });
}
