/** Failures of the database (or of the embeddings service): 503 with Retry-After, not 500. */
import type { Context } from 'hono';
import { ApiError, problem } from '../problem.ts';

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** SQLSTATEs of an unavailable or overloaded server (class 08: connection exceptions). */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '53400', '55P03', '40001', '40P01']);
const CONNECTION_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /client has encountered a connection error/i,
  /connection ended unexpectedly/i,
  /the embedded database (worker exited|is closed)/i,
  /cannot use a pool after calling end/i,
];

/** Out of space to write: PostgreSQL's disk_full (PGlite reports it too, the service keeps running), or the OS's. */
const DISK_FULL_SQLSTATE = '53100';
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);

const CITUS_NODE_DOWN = /^connection to the remote node \S+ failed/;

/** Why an error means "the database is unavailable or too slow right now", or undefined when it does not. */
export function unavailableReason(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (error.name === 'EmbeddingServiceError') return 'the embeddings service is unavailable (details in the server log)';
  if (code === '57014') return 'the query took too long and was cancelled';
  // The failed statement's transaction is rolled back, so the write is not half made (imports are all or nothing).
  if (code === DISK_FULL_SQLSTATE || (typeof code === 'string' && DISK_FULL_CODES.has(code))) {
    return 'the database has no disk space left: nothing was written; reads still work';
  }
  if (code === '53200') return 'the database is out of memory';
  // Citus: the coordinator answers, a worker holding shards this request needs does not (its host is not repeated).
  if (CITUS_NODE_DOWN.test(error.message)) return 'a node of the distributed database is unavailable (it holds data this request needs)';
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08/.test(code))) {
    return 'the database is unavailable';
  }
  if (CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message))) return 'the database is unavailable';
  const cause = (error as { cause?: unknown }).cause;
  return cause && cause !== error ? unavailableReason(cause) : undefined;
}

/** A 503 problem+json with Retry-After for a database (or embeddings service) that is down or too slow; undefined for other errors. */
export function dependencyFailure(c: Context, error: unknown): Response | undefined {
  const reason = unavailableReason(error);
  if (!reason) return undefined;
  return problem(c, new ApiError(503, 'Service Unavailable', `${reason}; retry shortly`, undefined, 'unavailable'), { 'Retry-After': '2' });
}
