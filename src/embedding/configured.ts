import type { Config } from '../config.ts';
import { poiConcepts } from '../lexicon/poi-concepts.ts';
import { eoConcepts } from '../tools/knowledge/index.ts';
import type { Embedder } from './embedder.ts';
import { createEmbedder } from './index.ts';
import { createOfflineEmbedder } from './offline-embedder.ts';

/** The domain's synonym groups, English and Chinese: kinds of places and EO concepts. */
export function domainConcepts() {
  return [...poiConcepts, ...eoConcepts()];
}

/** The offline embedder as the service configures it (used where no configuration is read, e.g. test fixtures). */
export function createOfflineEmbedderWithLexicons(): Embedder {
  return createOfflineEmbedder({ concepts: domainConcepts() });
}

/** The embedder the configuration asks for; the offline one knows the POI and EO synonym groups. */
export function createConfiguredEmbedder(config: Config): Embedder {
  return createEmbedder({
    embeddingsBaseUrl: config.EMBEDDINGS_BASE_URL,
    embeddingsModel: config.EMBEDDINGS_MODEL,
    embeddingsApiKey: config.EMBEDDINGS_API_KEY,
    embeddingsTimeoutMs: config.EMBEDDINGS_TIMEOUT_MS,
    concepts: domainConcepts(),
  });
}
