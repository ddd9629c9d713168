import { sql } from 'kysely';
import type { Db } from '../src/db/database.ts';
import type { Embedder } from '../src/embedding/embedder.ts';
import { toVectorLiteral } from '../src/embedding/space.ts';
import { dropDuplicates } from '../src/ask/ask.ts';
import { planOffline } from '../src/planning/offline-planner.ts';
import { chooseTradeOff, rankCandidates, topAnswers, type RankOptions } from '../src/ranking/rank.ts';
import { resolveReferences } from '../src/spatial/resolve.ts';
import { placeDetails, retrieveCandidates, type Candidate } from '../src/spatial/retrieve.ts';
import type { AnswerCandidate } from './spatial.ts';

/** Ablations of the pipeline: each switches one part of the ranking off. */
export const ABLATIONS: Record<string, RankOptions> = {
  'spatial-rag': {},
  'without sparse spatial': { sparse: false },
  'without dense spatial': { denseSpatial: false },
  'without semantic': { semantic: false },
  'without Pareto/trade-off': { paretoTradeOff: false },
};

export const BASELINES = ['SD (sort by distance)', 'TE (text embedding only)', 'ST (spatial-text weighted sum)', 'naive RAG (vector search, no spatial SQL)'] as const;

const scaled = (values: number[]) => {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return values.map((v) => (max > min ? (v - min) / (max - min) : 1));
};

function baselineOrder(name: string, pool: Candidate[]): Candidate[] {
  const similarity = pool.map((c) => c.semanticSimilarity ?? 0);
  if (name.startsWith('SD')) return [...pool].sort((a, b) => a.distances[0]! - b.distances[0]!);
  if (name.startsWith('TE')) return pool.map((c, i) => ({ c, s: similarity[i]! })).sort((a, b) => b.s - a.s).map((x) => x.c);
  const proximity = scaled(pool.map((c) => -c.distances[0]!));
  const text = scaled(similarity);
  return pool.map((c, i) => ({ c, s: 0.5 * proximity[i]! + 0.5 * text[i]! })).sort((a, b) => b.s - a.s).map((x) => x.c);
}

async function naiveRag(db: Db, embedder: Embedder, question: string, k: number): Promise<AnswerCandidate[]> {
  const [vector] = await embedder.embed([question]);
  const { rows } = await sql<{ name: string; geometry: string }>`
    SELECT name, ST_AsGeoJSON(geom, 6) AS geometry FROM places
    WHERE name IS NOT NULL AND embedding_model = ${embedder.model}
    ORDER BY embedding <=> ${toVectorLiteral(vector!)}::vector LIMIT ${k}`.execute(db);
  return rows.map((r) => ({ name: r.name, geometry: JSON.parse(r.geometry) }));
}

/** Every method's top-k for one question, all from the same plan, references and candidate pool. */
export async function answersByMethod(db: Db, embedder: Embedder, question: string, k: number) {
  const plan = planOffline(question);
  const out: Record<string, AnswerCandidate[]> = {};
  const resolution = await resolveReferences(db, plan);
  const [semanticVector, spatialVector] = await embedder.embed([
    plan.semantic.text || plan.targets.text || question,
    plan.spatialText || question,
  ]);
  const pool = resolution.ok
    ? (await retrieveCandidates(db, { plan, references: resolution.references, semanticVector: semanticVector!, spatialVector: spatialVector!, embeddingModel: embedder.model, allPools: true })).candidates
    : [];
  const chosen: Record<string, Candidate[]> = {};
  for (const [name, options] of Object.entries(ABLATIONS)) {
    chosen[name] = topAnswers(dropDuplicates(rankCandidates(plan, structuredClone(pool), chooseTradeOff(plan), options)), k, options);
  }
  for (const name of BASELINES.slice(0, 3)) chosen[name] = baselineOrder(name, pool).slice(0, k);
  const details = await placeDetails(db, [...new Set(Object.values(chosen).flat().map((c) => c.id))]);
  for (const [name, answers] of Object.entries(chosen)) {
    out[name] = answers.map((c) => ({ ...c, geometry: details.get(c.id)!.geometry }));
  }
  out[BASELINES[3]] = await naiveRag(db, embedder, question, k);
  return out;
}
