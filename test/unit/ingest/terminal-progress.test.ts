// The first start shows its progress on a terminal and stays quiet otherwise: the same child run once with
// its stderr on a pseudo-terminal (`script`) and once on a pipe.
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const CHILD = ['--import', 'tsx', 'test/helpers/first-start-progress.ts'];
const hasScript = spawnSync('script', ['--version']).status === 0;
if (!hasScript) console.warn('[first-start progress] terminal case skipped: `script` (util-linux) not found');

describe('first-start progress', () => {
  it.skipIf(!hasScript)('is drawn on one line, redrawn in place, when stderr is a terminal', () => {
    // `script` gives the child a pseudo-terminal and copies what it writes there to our stdout.
    const out = execFileSync('script', ['-qec', `${process.execPath} ${CHILD.join(' ')}`, '/dev/null'], { encoding: 'utf8' });
    expect(out).toContain('\rfirst start: loading the seed: 12,000 features');
    expect(out).toContain('\rfirst start: loading the seed: 30,000 features read; building the vector index…');
    expect(out).toContain('done');
  }, 60_000);

  it('writes nothing when stderr is not a terminal', () => {
    const child = spawnSync(process.execPath, CHILD, { encoding: 'utf8' });
    expect(child.status).toBe(0);
    expect(child.stdout).toBe('done\n');
    expect(child.stderr).toBe('');
  }, 60_000);
});
