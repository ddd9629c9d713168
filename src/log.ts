import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs, one line per event: on stdout, or on stderr (`fd` 2) where stdout carries a protocol
 * (`npm run mcp`).
 */
export function createLogger(level: string, fd: 1 | 2 = 1): Logger {
  const options = { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
  return fd === 1 ? pino(options) : pino(options, pino.destination({ dest: 2, sync: true }));
}
