import { describe, expect, it } from 'vitest';
import { createEmbedder } from '../../../src/embedding/index.ts';

describe('createEmbedder', () => {
  it('uses the offline embedder when no service is configured', async () => {
    const embedder = createEmbedder({});
    expect(embedder.model).toBe('offline-ngram-v1-384');
    const [vector] = await embedder.embed(['coffee']);
    expect(vector).toHaveLength(384);
  });

  it('passes the concepts to the offline embedder', () => {
    const embedder = createEmbedder({ concepts: [{ id: 'cafe', en: ['cafe', 'coffee shop'], zh: ['咖啡店'] }] });
    expect(embedder.model).toMatch(/^offline-ngram-v1-384-c[0-9a-f]{8}$/);
  });

  it('needs both the URL and the model to use a service', () => {
    expect(createEmbedder({ embeddingsBaseUrl: 'http://127.0.0.1:9/v1' }).model).toBe('offline-ngram-v1-384');
    expect(createEmbedder({ embeddingsModel: 'nomic-embed-text' }).model).toBe('offline-ngram-v1-384');
  });

  it('uses the OpenAI-compatible service when URL and model are set', () => {
    const embedder = createEmbedder({ embeddingsBaseUrl: 'http://127.0.0.1:9/v1', embeddingsModel: 'nomic-embed-text' });
    expect(embedder.model).toBe('nomic-embed-text');
    expect(embedder.dimension).toBe(0); // learned from the first answer
  });
});
