/**
 * Baselines of the tool evaluation: the same catalog, one signal each (BM25 over the stored tool texts;
 * plain pgvector cosine; the IDF-weighted word-vector mean).
 */
import type { Db } from '../src/db/database.ts';
import type { Embedder } from '../src/embedding/embedder.ts';
import { toVectorLiteral } from '../src/embedding/space.ts';
import { catalogSnapshot } from '../src/tools/catalog-cache.ts';
import { queryTerms, topLexical } from '../src/tools/lexical.ts';
import { meaningScores, requestVector } from '../src/tools/meaning.ts';
import { recallByVector } from '../src/tools/repository.ts';
import { textFacts } from '../src/tools/request/facts.ts';

/** BM25 over the raw tool texts (name, id words, description, keywords). */
export async function searchBm25Baseline(db: Db, query: string, k: number): Promise<{ tools: { id: string; missingPrerequisites: string[] }[] }> {
  const snapshot = await catalogSnapshot(db);
  const top = topLexical(snapshot.baselineLexical(), queryTerms(query), k);
  return { tools: top.map(([id]) => ({ id, missingPrerequisites: [] })) };
}

/** Plain dense similarity: the pgvector cosine ranking of the query against the stored vectors. */
export async function searchDenseBaseline(db: Db, embedder: Embedder, query: string, k: number): Promise<{ tools: { id: string; missingPrerequisites: string[] }[] }> {
  const [vector] = await embedder.embed([query]);
  const hits = await recallByVector(db, toVectorLiteral(vector!), { limit: Math.max(k, 1) });
  return { tools: hits.sort((a, b) => b.cosine - a.cosine).slice(0, k).map((h) => ({ id: h.id, missingPrerequisites: [] })) };
}

/**
 * Word-vector meaning alone: the IDF-weighted GloVe mean of the query (with the CC-CEDICT senses of its
 * Chinese words, which have no vectors) against each tool's (src/tools/meaning.ts).
 */
export async function searchMeaningBaseline(db: Db, query: string, k: number): Promise<{ tools: { id: string; missingPrerequisites: string[] }[] }> {
  const index = (await catalogSnapshot(db)).meaning();
  const scores = meaningScores(index, requestVector(index, [query, ...textFacts(query).glosses]));
  const top = [...scores].sort((a, b) => b[1] - a[1]).slice(0, k);
  return { tools: top.map(([id]) => ({ id, missingPrerequisites: [] })) };
}

