import { spawn } from 'node:child_process';

/**
 * Runs a benchmark module as a child process (`node [nodeArgs] --import tsx <file> --child ...args`) and
 * returns the JSON of its last stdout line. A child per measurement: its peak RSS is that measurement's
 * alone, not what earlier ones left in the heap.
 */
export function runBenchChild<T>(file: string, args: string[], options: { env?: Record<string, string>; nodeArgs?: string[]; label: string }): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', file, '--child', ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...options.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0) reject(new Error(`the ${options.label} child exited with ${code}: ${out}`));
      else resolvePromise(JSON.parse(line) as T);
    });
  });
}
