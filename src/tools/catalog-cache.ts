/**
 * An in-memory snapshot of the registry per database handle: the records, the lexical index, which tool
 * produces which product, and per-tool knowledge-graph links. It is rebuilt when `tools_revision` moves
 * (any write by anyone), which costs one tiny query per search; per-tool work is memoised by
 * `updated_at`, so a registration re-analyses one tool, not the catalog.
 */
import type { Db } from '../db/database.ts';
import { conceptIdsOfTool, lexicalFields, producesOf } from './capability.ts';
import { buildLexicalIndex, docTerms, type DocTerms, type LexicalIndex } from './lexical.ts';
import { buildMeaningIndex, toolWords, type MeaningIndex, type WordWeights } from './meaning.ts';
import { loadAllToolRows, toolRevision, type ToolRow } from './repository.ts';
import type { ToolRecord } from './schema.ts';

interface ToolAnalysis {
  updatedAt: string;
  terms: DocTerms;
  baselineTerms?: DocTerms;
  words?: WordWeights;
  concepts: string[];
  produces: string[];
}

export interface CatalogSnapshot {
  revision: number;
  tools: Map<string, ToolRow>;
  lexical: LexicalIndex;
  /** product -> ids of tools whose outputs satisfy it */
  producers: Map<string, string[]>;
  /** tool id -> knowledge-graph concept ids describing it */
  concepts: Map<string, string[]>;
  lookup(id: string): ToolRecord | undefined;
  /** BM25 over the raw tool texts (name, description, keywords): the evaluation's lexical baseline. */
  baselineLexical(): LexicalIndex;
  /** IDF-weighted word-vector means of the tool texts (meaning.ts), built once per snapshot. */
  meaning(): MeaningIndex;
}

interface CacheEntry {
  revision: number;
  snapshot: Promise<CatalogSnapshot>;
  analyses: Map<string, ToolAnalysis>;
}

const caches = new WeakMap<Db, CacheEntry>();

function analyse(row: ToolRow, previous: ToolAnalysis | undefined): ToolAnalysis {
  if (previous && previous.updatedAt === row.updatedAt) return previous;
  return {
    updatedAt: row.updatedAt,
    terms: docTerms({ id: row.id, fields: lexicalFields(row) }),
    concepts: conceptIdsOfTool(row),
    produces: row.produces.length > 0 ? row.produces : producesOf(row),
  };
}

async function build(db: Db, revision: number, analyses: Map<string, ToolAnalysis>): Promise<CatalogSnapshot> {
  const rows = await loadAllToolRows(db);
  const tools = new Map(rows.map((r) => [r.id, r]));
  const producers = new Map<string, string[]>();
  const concepts = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const row of rows) {
    const a = analyse(row, analyses.get(row.id));
    analyses.set(row.id, a);
    seen.add(row.id);
    concepts.set(row.id, a.concepts);
    for (const p of a.produces) {
      const list = producers.get(p);
      if (list) list.push(row.id);
      else producers.set(p, [row.id]);
    }
  }
  for (const id of [...analyses.keys()]) if (!seen.has(id)) analyses.delete(id);
  const lexical = buildLexicalIndex(rows.map((r) => [r.id, analyses.get(r.id)!.terms] as [string, DocTerms]));
  let baseline: LexicalIndex | undefined;
  let meaning: MeaningIndex | undefined;
  return {
    revision,
    tools,
    lexical,
    producers,
    concepts,
    lookup: (id) => tools.get(id),
    baselineLexical: () =>
      (baseline ??= buildLexicalIndex(
        rows.map((r) => {
          const a = analyses.get(r.id)!;
          a.baselineTerms ??= docTerms({
            id: r.id,
            fields: [
              { text: `${r.name} ${r.id.replace(/[_:]/g, ' ')}`, weight: 1 },
              { text: r.description, weight: 1 },
              { text: r.keywords.join(' , '), weight: 1 },
            ],
          });
          return [r.id, a.baselineTerms] as [string, DocTerms];
        }),
      )),
    meaning: () => (meaning ??= buildMeaningIndex(rows.map((r) => [r.id, (analyses.get(r.id)!.words ??= toolWords(r))]))),
  };
}

/** The current snapshot of the registry behind `db`, rebuilt only if the registry changed. */
export async function catalogSnapshot(db: Db): Promise<CatalogSnapshot> {
  const revision = await toolRevision(db);
  const entry = caches.get(db);
  if (entry && entry.revision === revision) return entry.snapshot;
  const analyses = entry?.analyses ?? new Map<string, ToolAnalysis>();
  const snapshot = build(db, revision, analyses);
  caches.set(db, { revision, snapshot, analyses });
  // A failed build must not stay cached.
  snapshot.catch(() => {
    if (caches.get(db)?.snapshot === snapshot) caches.delete(db);
  });
  return snapshot;
}
