import { seedDefaultPlaces } from '../ingest/seed.ts';
import { loadBuiltinTools } from '../tools/registry.ts';
import { runCommand } from './context.ts';

await runCommand(async ({ database, embedder }) => {
  const report = await seedDefaultPlaces(database.db, embedder, database.mode === 'embedded');
  console.log(`default seed: ${report.written} places (${report.ms} ms)`);
  const tools = await loadBuiltinTools(database.db, embedder);
  console.log(`built-in EO tool catalog: ${tools.written} tools`);
});
