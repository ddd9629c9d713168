import { parseArgs } from 'node:util';
import { ask } from '../ask/ask.ts';
import { llmFromConfig } from '../llm/model.ts';
import { createLlmPlanner } from '../planning/llm-planner.ts';
import { createLlmReranker } from '../ranking/llm-rerank.ts';
import { runCommand } from './context.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { k: { type: 'string', default: '5' }, planner: { type: 'string', default: 'auto' }, rerank: { type: 'string', default: 'auto' }, json: { type: 'boolean', default: false } },
});
const question = positionals.join(' ').trim();
if (!question) {
  console.error('usage: npm run ask -- "question" [--k 5] [--planner auto|offline|llm] [--rerank auto|rules|llm] [--json]');
  process.exit(2);
}

await runCommand(async ({ database, embedder, config }) => {
  const model = llmFromConfig(config);
  const result = await ask(
    { db: database.db, embedder, ...(model ? { llm: createLlmPlanner(model), reranker: createLlmReranker(model) } : {}) },
    {
      question,
      k: Number(values.k),
      planner: values.planner as 'auto' | 'offline' | 'llm',
      rerank: values.rerank as 'auto' | 'rules' | 'llm',
    },
  );
  if (values.json) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  console.log(result.answer);
  if (result.clarification) {
    for (const o of result.clarification.options) console.log(`  - ${o.name} (${o.hint || o.category})`);
    return;
  }
  console.table(
    result.candidates.map((c) => ({
      name: c.name,
      category: c.category,
      metres: c.distanceM,
      sparse: c.scores.sparse,
      semantic: c.scores.semantic,
      hybrid: c.scores.hybrid,
      pareto: c.pareto,
    })),
  );
  console.log(`planner: ${result.planner}${result.plannerFallback ? ` (fallback: ${result.plannerFallback})` : ''}; ${result.timingsMs.total} ms`);
});
