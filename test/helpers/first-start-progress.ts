// Child of test/unit/ingest/terminal-progress.test.ts: drives the first start's progress as the service
// does (src/service.ts), on whatever stderr it was given.
import { terminalProgress } from '../../src/cli/progress.ts';

const progress = terminalProgress('first start: loading the seed');
progress?.features(12_000, 2_000, 'reading');
progress?.features(30_000, 6_000, 'indexing');
progress?.end();
process.stdout.write('done\n');
