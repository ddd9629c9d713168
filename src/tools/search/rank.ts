/** One ranking: the hybrid recall (dense, lexical, knowledge graph) and the weighted score of every candidate. */
import type { Db } from '../../db/database.ts';
import type { Embedder } from '../../embedding/embedder.ts';
import { offlineSimilarities, queryEmbedderFor } from '../../embedding/query-embedding.ts';
import { idiomWords } from '../../lexicon/wordnet.ts';
import { toVectorLiteral } from '../../embedding/space.ts';
import type { CatalogSnapshot } from '../catalog-cache.ts';
import { isGenericProduct, normalizeAvailable } from '../knowledge/index.ts';
import { lexicalTerms, mergeTerms, queryTerms, relatedTerms, scoreAll, termContributions, type WeightedTerm } from '../lexical.ts';
import { contextState } from '../prerequisites.ts';
import { containerTerms, settingOnlyTerms, statedObjectTerms } from '../request/index.ts';
import { recallByVector, type DenseHit } from '../repository.ts';
import type { ToolRecord } from '../schema.ts';
import { WORD_SENSE, contentWords, expandUnknownWords, informationOf } from '../word-sense.ts';
import { bandFit, bandRarity, complementarity, incompatibility, label, missingAsToolIds, nameCoverage, outputFit } from './fit.ts';
import { sensorModalities } from './need.ts';
import type { Need, RankOptions, Scored, ScoringWeights } from './types.ts';

/**
 * Defaults. Similarity dominates (alpha 0.75): the tool must do what is asked. Complementarity (beta 0.25,
 * range -1..1) is strong enough to reorder near-equivalent tools by what the data allows and to lift a
 * missing preprocessing step into the list, but not to put a preprocessing step above the task itself.
 * Inside similarity, lexical evidence (BM25) weighs most: it is the one signal that holds on a catalog the
 * knowledge graph has never seen, where the graph's task types and outputs are guesses read from the same
 * text and the offline embedder's n-grams blur rare words. The graph's structured signals (task type,
 * output product) together weigh a little less than the words and still decide between tools the
 * words cannot tell apart. Fitted on the tuning half of eval/sets/foreign-catalog.requests.jsonl
 * (with the multi-step merge below, lexical 1 -> 1.5 and dense 1 -> 0.7 raised its MRR@5 from 0.66 to
 * 0.68; lexical 2 with dense 0.5 ties on that half but loses workflow sequences on the development set;
 * reciprocal-rank fusion of the three rankings and a floor keeping BM25's first matches near the top
 * measured no better, so they are not used).
 */
export const DEFAULT_WEIGHTS: ScoringWeights = {
  alpha: 0.75,
  beta: 0.25,
  dense: 0.7,
  lexical: 1.5,
  taskType: 0.6,
  output: 0.7,
  bands: 0.3,
  name: 0.4,
};

/**
 * How far the graph's readings (task types, output products, concept expansions) are trusted: in full when
 * they explain every informative word of the request (Need.coverage 1), down to this share when they
 * explain none of it. A request the graph reads only in part ("are the hedgerows parched?") would otherwise
 * be ranked by a guess made from the few words it knows, over the words BM25 matches in the tool texts.
 * Measured on the tuning halves (eval/sets/README.md): 0.6 to 0.8 give the same figures; 0.7 sits between.
 */
export const GRAPH_TRUST_FLOOR = 0.7;

/** The weight of the graph's readings for a need whose words they cover to `coverage` (0..1). */
export function graphTrust(coverage: number): number {
  return GRAPH_TRUST_FLOOR + (1 - GRAPH_TRUST_FLOOR) * Math.min(1, Math.max(0, coverage));
}

export const DENSE_RECALL = 100;
const LEXICAL_RECALL = 60;
const KG_RECALL = 40;

/**
 * Weight of the English words of a Chinese request's uncovered words (the sense chosen in gloss.ts) in
 * BM25: the user's own words, but translated, so less than the typed words. Measured on the tuning halves
 * (eval/sets/README.md): all senses at once, or weight 1, lose Chinese paraphrase requests.
 */
const GLOSS_WEIGHT = 0.6;

/**
 * Weight of a typed word that stands only in a phrase of place ("across the pass road", "in our orchard",
 * 在村子里):
 * it says where the work is done, not what is done, yet a tool text may share it. Measured on the tuning
 * halves (eval/sets/README.md): 0.5 gains on the third set and the foreign catalog and loses nowhere; 0.25
 * loses foreign requests.
 */
const SETTING_WEIGHT = 0.5;

/**
 * Weight of a typed word naming a thing asked about in its state ("how is the wheat doing"): what is asked
 * is its condition, which the graph reads; the word alone would rank tools named after the thing first.
 */
const STATED_OBJECT_WEIGHT = 0;

/**
 * Weight of a typed word that stands in an idiomatic verb of several words ("running short", "make out"):
 * the phrase means something its words do not, yet a tool name may share one of them ("run"). Measured on
 * the tuning halves: 0 and 0.25 rank alike; at 0 such a word cannot bring a tool in on its own.
 */
const IDIOM_WEIGHT = 0;

/**
 * Weight of a typed word that only names the data as imagery ("the raster", "scenes"): every raster tool
 * works on imagery. Measured on the tuning halves: 0.7 moved five requests up and one down; 0.5 also cost a
 * request that asked for sharper images.
 */
const CONTAINER_WEIGHT = 0.7;

/** Weight of a catalog word standing in for a request word the catalog lacks (times their closeness). */
const EXPANSION_FACTOR = 0.5;

/** Said when the dense signal comes from the offline embedder instead of the configured service. */
export const OFFLINE_TOOL_FALLBACK =
  "candidates from the lexical index and the knowledge graph; the dense signal compares the request with each candidate's capability text using the offline embedder, computed for this search";

function kgCandidates(need: Need, snapshot: CatalogSnapshot): string[] {
  const out: string[] = [];
  for (const p of need.products.filter((x) => x.weight >= 0.5).slice(0, 3)) {
    if (isGenericProduct(p.id)) continue;
    out.push(...(snapshot.producers.get(p.id) ?? []).slice(0, KG_RECALL));
  }
  return [...new Set(out)];
}

/** Ranks the whole candidate set of one need (a request or a sub-task). */
export async function rankForNeed(db: Db, embedder: Embedder, snapshot: CatalogSnapshot, need: Need, options: RankOptions): Promise<Scored[]> {
  const w = options.weights;
  const setting = settingOnlyTerms(need.text);
  const stated = statedObjectTerms(need.text);
  const idioms = idiomWords(need.text);
  const containers = containerTerms(need.text);
  // A typed word says less when it only names the setting, the data, or a thing asked about in its state.
  const factor = (term: string) => (stated.has(term) ? STATED_OBJECT_WEIGHT : setting.has(term) ? SETTING_WEIGHT : idioms.has(term) ? IDIOM_WEIGHT : containers.has(term) ? CONTAINER_WEIGHT : 1);
  const typedTerms = queryTerms(need.text).map((t) => ({ ...t, weight: t.weight * factor(t.term) }));
  // Words the catalog lacks may still share a word family with its terms (the stemmer is conservative),
  // or a meaning with some of them (word vectors).
  const related = relatedTerms(snapshot.lexical, typedTerms);
  const unknown = contentWords(need.text).filter((w) => !related.some((r) => r.term.startsWith(w.slice(0, 4))));
  const vectorTerms = WORD_SENSE.expansion && w.lexical > 0 ? expandUnknownWords(snapshot, unknown, informationOf, EXPANSION_FACTOR) : [];
  const trust = graphTrust(need.coverage);
  const terms: WeightedTerm[] = mergeTerms(typedTerms, related, vectorTerms, queryTerms(need.expansions.join(' , '), 0.4 * trust), queryTerms(need.facets.join(' , '), 0.3), queryTerms(need.glosses.flatMap((g) => g.words).join(' , '), GLOSS_WEIGHT));
  const lexicalScores = scoreAll(snapshot.lexical, terms);
  const lexicalTop = lexicalScores.top(LEXICAL_RECALL).map(([id]) => id);
  const state = contextState(options.context);
  const kg = kgCandidates(need, snapshot);
  // The steps the likely leaders lack must be scored too, even if their text is far from the request.
  const helpers = [...lexicalTop.slice(0, 5), ...kg.slice(0, 5)].flatMap((id) => {
    const tool = snapshot.lookup(id);
    return tool ? missingAsToolIds(tool, state, snapshot, new Map()) : [];
  });
  const extra = [...new Set([...lexicalTop, ...kg, ...helpers])];
  const queryText = [need.text, ...need.expansions].join(' . ');
  const embedded = await queryEmbedderFor(embedder).embed([queryText]);
  let dense: DenseHit[];
  if (embedded.ok) {
    dense = await recallByVector(db, toVectorLiteral(embedded.vectors[0]!), { limit: DENSE_RECALL, catalogs: options.catalogs, extraIds: extra });
  } else {
    // No query vector: the stored tool vectors (of the configured model) cannot be searched, so the recall
    // comes from the lexical index (as deep as the dense recall would have been) and the knowledge graph,
    // and the dense signal compares texts with texts offline, for these candidates only.
    options.degraded ??= { component: 'embeddings', cause: embedded.cause, fallback: OFFLINE_TOOL_FALLBACK };
    const ids = [...new Set([...lexicalScores.top(DENSE_RECALL).map(([id]) => id), ...extra])].filter((id) => snapshot.tools.has(id));
    const [similarities] = await offlineSimilarities([queryText], ids.map((id) => snapshot.tools.get(id)!.capabilityText));
    dense = ids.map((id, i) => ({ id, cosine: similarities![i]! }));
  }
  const catalogs = options.catalogs?.length ? new Set(options.catalogs) : undefined;

  const maxDense = Math.max(1e-6, ...dense.map((d) => d.cosine));
  const maxLexical = Math.max(1e-6, ...dense.map((d) => lexicalScores.get(d.id)));
  const wTask = w.taskType * trust;
  const wOut = w.output * trust;
  const sum = w.dense + w.lexical + wTask + wOut + w.bands + w.name;
  const typed = new Set([...lexicalTerms(need.text).keys()].filter((t) => !t.includes('_') && !idioms.has(t)));
  const taskWeight = new Map(need.taskTypes.map((t) => [t.id, t.weight]));

  const dataModalities = sensorModalities(need.dataSources);
  const pool = dense
    .map((hit) => ({ hit, tool: snapshot.lookup(hit.id) }))
    .filter((x): x is { hit: typeof x.hit; tool: ToolRecord } => !!x.tool && (!catalogs || catalogs.has(x.tool.catalog)) && !incompatibility(x.tool, need, dataModalities));
  const rarity = bandRarity(pool.map((x) => x.tool), need.bands);
  const scored: Scored[] = [];
  for (const { hit, tool } of pool) {
    const s: Scored = {
      tool,
      dense: Math.max(0, hit.cosine) / maxDense,
      lexical: lexicalScores.get(hit.id) / maxLexical,
      taskType: taskWeight.get(tool.function) ?? 0,
      output: outputFit(tool, need.products),
      bands: bandFit(tool, need.bands, rarity),
      name: nameCoverage(tool, typed),
      similarity: 0,
      complementarity: 0,
      score: 0,
      missing: [],
      satisfied: [],
      notes: [],
      complements: [],
    };
    s.similarity = (w.dense * s.dense + w.lexical * s.lexical + wTask * s.taskType + wOut * s.output + w.bands * s.bands + w.name * s.name) / sum;
    scored.push(s);
  }
  scored.sort((a, b) => b.similarity - a.similarity);
  const relevance = new Map(scored.map((s) => [s.tool.id, s.similarity]));

  const explicit = new Set([...normalizeAvailable(options.context.available)].filter((p) => !isGenericProduct(p)));
  for (const s of scored) complementarity(s, state, explicit, options.context, snapshot, relevance, need);
  // A tool that supplies a missing step of one of the best matches complements it.
  const leaders = scored.slice(0, 3);
  const helped = new Map<Scored, Scored>();
  for (const leader of leaders) {
    for (const id of leader.missing) {
      const helper = scored.find((x) => x.tool.id === id);
      if (!helper || helper === leader) continue;
      helper.complementarity += 0.5 * (leader.similarity / Math.max(1e-6, scored[0]!.similarity));
      helper.complements.push(`provides the missing ${label(id)} step for ${leader.tool.id}`);
      if (!helped.has(helper)) helped.set(helper, leader);
    }
  }
  for (const s of scored) {
    s.complementarity = Math.max(-1, Math.min(1, s.complementarity));
    s.score = w.alpha * s.similarity + w.beta * s.complementarity;
  }
  // A missing step of the best match belongs in the list next to it, after its closest alternatives but
  // never above it: the user asked for the task, the step is what makes it runnable. (A helper that
  // matches the request better than its leader keeps its own place.)
  const best = Math.max(...leaders.map((l) => l.score));
  for (const [helper, leader] of helped) {
    if (helper.similarity >= leader.similarity) continue;
    const floor = (leader.score === best ? 0.8 : 0.6) * leader.score;
    helper.score = Math.min(Math.max(helper.score, floor), leader.score - 1e-3);
  }
  scored.sort((a, b) => b.score - a.score || (a.tool.id < b.tool.id ? -1 : 1));
  for (const s of scored.slice(0, ASPECT_POOL)) s.aspects = termContributions(snapshot.lexical, terms, s.tool.id);
  return scored;
}

/** How many of the best candidates keep the words they match, for the diversified top of the list. */
export const ASPECT_POOL = 40;

export function weightsOf(partial?: Partial<ScoringWeights>): ScoringWeights {
  return { ...DEFAULT_WEIGHTS, ...(partial ?? {}) };
}
