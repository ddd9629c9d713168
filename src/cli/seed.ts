import { seedDefaultPlaces } from '../ingest/seed.ts';
import { runCommand } from './context.ts';

await runCommand(async ({ database, embedder }) => {
  const report = await seedDefaultPlaces(database.db, embedder, database.mode === 'embedded');
  console.log(`default seed: ${report.written} places (${report.ms} ms)`);
});
