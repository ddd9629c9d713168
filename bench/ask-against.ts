import { basename, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { ask } from '../src/ask/ask.ts';
import { openAskBench, percentile } from './ask.ts';

type Ask = typeof ask;

/**
 * `ASK_AGAINST=DIR npm run bench -- ask-against`: the ask pipeline of this checkout against the one of
 * another checkout DIR (an older commit, with its own node_modules), in one process on one database,
 * question by question with the order alternating, so that whatever else loads the machine falls on both
 * alike. Two runs of the plain `ask` bench minutes apart differ by more than most changes do; the ratio
 * of this one does not.
 */
export async function benchAskAgainst(rounds = Number(process.env.ASK_ROUNDS ?? 8)) {
  const against = process.env.ASK_AGAINST;
  if (!against) throw new Error('ASK_AGAINST must name the other checkout (a directory with src/ask/ask.ts)');
  const other = (await import(pathToFileURL(resolve(against, 'src/ask/ask.ts')).href)).ask as Ask;
  const { database, embedder, questions } = await openAskBench();
  try {
    const totals = { this: [] as number[], other: [] as number[] };
    // Round -1 warms both (caches, JIT) and is not counted.
    for (let round = -1; round < rounds; round++) {
      for (const [i, question] of questions.entries()) {
        const order: Array<['this' | 'other', Ask]> = (i + round) % 2 === 0 ? [['this', ask], ['other', other]] : [['other', other], ['this', ask]];
        for (const [name, run] of order) {
          const result = await run({ db: database.db, embedder }, { question, k: 5, planner: 'offline' });
          if (round >= 0) totals[name].push(result.timingsMs.total!);
        }
      }
    }
    const stats = (v: number[]) => ({ p50: percentile(v, 50), p95: percentile(v, 95) });
    const mine = stats(totals.this);
    const theirs = stats(totals.other);
    const ratio = mine.p50 / theirs.p50;
    const limit = Number(process.env.ASK_MAX_RATIO ?? Number.POSITIVE_INFINITY);
    if (ratio > limit) throw new Error(`ask p50 ${mine.p50} ms is ${ratio.toFixed(2)}x the other checkout's ${theirs.p50} ms (limit ${limit}x)`);
    return {
      mode: database.mode,
      variant: basename(resolve(against)),
      requests: totals.this.length,
      thisMs: mine,
      otherMs: theirs,
      p50Ratio: Math.round(ratio * 100) / 100,
      loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    };
  } finally {
    await database.close();
  }
}
