import { ConfigError, loadConfig } from './config.ts';
import { exitOnSignals, startService } from './service.ts';

try {
  const service = await startService(loadConfig());
  exitOnSignals(service);
} catch (error) {
  // One clear line for operators; the stack helps nobody for a bad variable or an unreachable database.
  const message = error instanceof ConfigError ? error.message : `failed to start: ${(error as Error).message}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
