import { parseArgs } from 'node:util';
import { SEED_SOURCE, seedCities, seedDefaultPlaces } from '../ingest/seed.ts';
import { loadDomainCatalog } from '../tools/catalog/domain.ts';
import { loadBuiltinTools } from '../tools/registry.ts';
import { runCommand } from './context.ts';
import { sendPlaces, sendTools, targetService } from './service-client.ts';

const { values } = parseArgs({ options: { url: { type: 'string' } } });

/** Through the running service that holds the data directory (or --url): the same data, streamed there. */
async function seedThroughService(url: string): Promise<void> {
  try {
    const report = await sendPlaces(url, toAsync(seedCities()), { source: SEED_SOURCE, replace: false }, () => undefined);
    console.log(`default seed: ${report.written} places (${report.ms} ms)`);
    const tools = await sendTools(url, loadDomainCatalog());
    console.log(`built-in EO tool catalog: ${tools.written} tools`);
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}

const serviceUrl = targetService(values.url);
if (serviceUrl) await seedThroughService(serviceUrl);
else
  await runCommand(async ({ database, embedder }) => {
    const report = await seedDefaultPlaces(database.db, embedder, database.mode === 'embedded');
    console.log(`default seed: ${report.written} places (${report.ms} ms)`);
    const tools = await loadBuiltinTools(database.db, embedder);
    console.log(`built-in EO tool catalog: ${tools.written} tools`);
  });
