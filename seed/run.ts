/**
 * `npm run seed [-- --set world|demo|all] [--url URL]`: loads a seed set (default: the `SEED` setting, and
 * `all` for `auto`) into the configured database, or streams it to the running service that holds the data
 * directory (or --url), and imports the EO tool catalogs the same way.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { runCommand } from '../src/cli/context.ts';
import { progressReporter } from '../src/cli/progress.ts';
import { sendPlaces, sendTools, targetService } from '../src/cli/service-client.ts';
import { readPlaces, SOURCE_PRESETS } from '../src/ingest/formats.ts';
import { loadSeedPlaces, loadSeedTools } from '../src/ingest/seed.ts';
import { loadDomainCatalog } from '../src/tools/catalog/domain.ts';
import { readCatalog } from '../src/tools/registry.ts';
import { seedSet, type SeedChoice, type SeedSet } from './index.ts';

const CHOICES = ['auto', 'all', 'world', 'demo'] as const;

const { values } = parseArgs({ options: { url: { type: 'string' }, set: { type: 'string' } } });
const choice = (values.set ?? loadConfig().SEED) as SeedChoice;
if (!(CHOICES as readonly string[]).includes(choice)) {
  console.error(`error: --set must be one of ${CHOICES.join(', ')} (got "${choice}")`);
  process.exit(2);
}
const set = seedSet(choice)!;

/** Through the running service: each source streamed to its import route, then the tool records. */
async function seedThroughService(url: string, set: SeedSet): Promise<void> {
  const groups: { source: string; features: () => AsyncIterable<import('../src/ingest/feature.ts').PlaceFeature> }[] = [];
  if (set.demo) {
    const demo = set.demo;
    groups.push({ source: SOURCE_PRESETS.nycNeighborhoods.source, features: () => readPlaces(demo.neighborhoods, { ...SOURCE_PRESETS.nycNeighborhoods, describe: false }) });
    groups.push({ source: SOURCE_PRESETS.osm.source, features: () => readPlaces(demo.midtownPbf, { ...SOURCE_PRESETS.osm, skipInvalid: true, describe: false }) });
  }
  for (const group of set.places) groups.push({ source: group.source, features: () => toAsync(group.features()) });
  for (const group of groups) {
    const report = await sendPlaces(url, group.features(), { source: group.source, replace: false }, () => undefined);
    console.log(`${group.source}: ${report.written} places (${report.ms} ms)`);
  }
  const tools = [...loadDomainCatalog(), ...set.toolCatalogs.flatMap((path) => readCatalog(path).tools)];
  const sent = await sendTools(url, tools);
  console.log(`EO tool catalogs: ${sent.written} tools`);
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}

const serviceUrl = targetService(values.url);
if (serviceUrl) {
  try {
    await seedThroughService(serviceUrl, set);
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    process.exitCode = 1;
  }
} else {
  await runCommand(async ({ database, embedder }) => {
    const started = performance.now();
    const progress = progressReporter(`seed (${choice})`);
    await loadSeedPlaces(database.db, embedder, set, {
      bulk: database.mode === 'embedded',
      onProgress: (p) => progress.features(p.features, p.elapsedMs, p.phase),
    });
    progress.end();
    console.log(`seed ${choice}: places loaded (${Math.round(performance.now() - started)} ms)`);
    console.log(`EO tool catalogs: ${await loadSeedTools(database.db, embedder, set.toolCatalogs)} tools`);
  });
}
