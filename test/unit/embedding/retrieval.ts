import type { Embedder } from '../../../src/embedding/embedder.ts';
import { cosineSimilarity } from '../../../src/embedding/vector.ts';
import type { LabelledQuery } from './fixtures.ts';

export interface RetrievalScore {
  /** Mean reciprocal rank of the first relevant document. */
  mrr: number;
  /** Share of queries whose best hit is relevant. */
  top1: number;
  /** Queries whose best hit was not relevant, for the failure message. */
  misses: string[];
}

/** Ranks every document by cosine for every query, as the pgvector search would. */
export async function scoreRetrieval(
  embedder: Embedder,
  documents: Record<string, string>,
  queries: LabelledQuery[],
): Promise<RetrievalScore> {
  const ids = Object.keys(documents);
  const documentVectors = await embedder.embed(ids.map((id) => documents[id]!));
  const queryVectors = await embedder.embed(queries.map((q) => q.query));
  let reciprocalRanks = 0;
  let hits = 0;
  const misses: string[] = [];
  queries.forEach((query, q) => {
    const ranked = ids
      .map((id, d) => ({ id, score: cosineSimilarity(queryVectors[q]!, documentVectors[d]!) }))
      .sort((a, b) => b.score - a.score);
    const rank = ranked.findIndex((r) => query.relevant.includes(r.id)) + 1;
    reciprocalRanks += 1 / rank;
    if (rank === 1) hits++;
    else misses.push(`"${query.query}": relevant at rank ${rank}, top ${ranked[0]!.id}`);
  });
  return { mrr: reciprocalRanks / queries.length, top1: hits / queries.length, misses };
}
