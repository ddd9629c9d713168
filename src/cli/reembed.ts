import { reembedPlaces } from '../embedding/reembed.ts';
import { reembedTools } from '../tools/registry.ts';
import { runCommand } from './context.ts';

await runCommand(async ({ database, embedder }) => {
  const count = await reembedPlaces(database.db, embedder, (done) => process.stderr.write(`\rre-embedded ${done}`));
  process.stderr.write('\n');
  console.log(`places re-embedded with ${embedder.model}: ${count}`);
  console.log(`tools re-embedded: ${await reembedTools(database.db, embedder)}`);
});
