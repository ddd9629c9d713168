import { parseArgs } from 'node:util';
import { reembedPlaces } from '../embedding/reembed.ts';
import { reembedTools } from '../tools/registry.ts';
import { runCommand } from './context.ts';
import { reembedOnService, targetService } from './service-client.ts';

// --url (or the service holding the embedded data directory): the service re-embeds with its own model.
const { values } = parseArgs({ options: { url: { type: 'string' } } });
const serviceUrl = targetService(values.url);
if (serviceUrl) {
  try {
    const report = await reembedOnService(serviceUrl);
    console.log(`places re-embedded with ${report.model}: ${report.places}`);
    console.log(`tools re-embedded: ${report.tools}`);
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    process.exitCode = 1;
  }
} else {
  await runCommand(async ({ database, embedder }) => {
    const count = await reembedPlaces(database.db, embedder, (done) => process.stderr.write(`\rre-embedded ${done}`));
    process.stderr.write('\n');
    console.log(`places re-embedded with ${embedder.model}: ${count}`);
    console.log(`tools re-embedded: ${await reembedTools(database.db, embedder)}`);
  });
}
