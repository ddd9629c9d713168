import { z } from 'zod';

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const port = z.coerce.number().int().min(0).max(65535);
const postgresUrl = z.url({ protocol: /^postgres(ql)?$/ });

/**
 * `DATABASE_READ_URLS`: comma-separated postgres:// URLs of streaming replicas. Every entry is checked, and a
 * bad one is named by its position (URLs carry passwords, so the message does not repeat them).
 */
const readUrls = z
  .string()
  .optional()
  .transform((text, ctx) => {
    const entries = (text ?? '').split(',').map((e) => e.trim());
    if (entries.length === 1 && entries[0] === '') return [];
    const seen = new Set<string>();
    entries.forEach((entry, i) => {
      if (entry === '') ctx.addIssue({ code: 'custom', message: `entry ${i + 1} is empty` });
      else if (!postgresUrl.safeParse(entry).success) ctx.addIssue({ code: 'custom', message: `entry ${i + 1} is not a postgres:// URL` });
      else if (seen.has(entry)) ctx.addIssue({ code: 'custom', message: `entry ${i + 1} repeats an earlier one` });
      seen.add(entry);
    });
    return entries;
  });
const milliseconds = z.coerce.number().int().min(1).max(600_000);

const configSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: optionalText.pipe(postgresUrl.optional()),
  /** Server mode: streaming replicas that serve the read-only routes (writes and migrations stay on DATABASE_URL). */
  DATABASE_READ_URLS: readUrls,
  /** How long a replica that failed is skipped before it is tried again (the circuit breaker's open time). */
  DATABASE_READ_RETRY_MS: milliseconds.default(5_000),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * Server mode: `citus` requires the database to be a Citus coordinator (the migrations then distribute the
   * tables, docs/operations.md); `auto` distributes them when the citus extension is installed.
   */
  DATABASE_DISTRIBUTION: z.enum(['auto', 'citus']).default('auto'),
  PGLITE_DATA_DIR: z.string().min(1).default('./.data/pglite'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * What an empty database is filled with on start: `world` (the GeoNames cities), `demo` (the Midtown
   * Manhattan OpenStreetMap extract and the NYC neighbourhoods), `all` (both; `auto` is the same), `none`.
   * The EO tool catalogs are loaded with any of them but `none`.
   */
  SEED: z.enum(['auto', 'all', 'world', 'demo', 'none']).default('auto'),
  SHUTDOWN_TIMEOUT_MS: milliseconds.default(15_000),
  /** On SIGTERM, readiness fails at once but the server keeps accepting this long before it closes. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  LLM_BASE_URL: optionalText.pipe(z.url().optional()),
  LLM_MODEL: optionalText,
  LLM_API_KEY: optionalText,
  LLM_TIMEOUT_MS: milliseconds.default(20_000),
  EMBEDDINGS_BASE_URL: optionalText.pipe(z.url().optional()),
  EMBEDDINGS_MODEL: optionalText,
  EMBEDDINGS_API_KEY: optionalText,
  EMBEDDINGS_TIMEOUT_MS: milliseconds.default(10_000),
  API_KEY: optionalText,
  /** Requests per minute per client on the expensive routes (ask, tool search, workflow plans, imports); 0: no limit. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(600),
  /** Largest JSON body on every route but the import (which has its own 20 MB limit). */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(100 * 1024 * 1024).default(1024 * 1024),
  /** The expensive read routes answer 503 after this long (the work still finishes in the background). */
  REQUEST_TIMEOUT_MS: milliseconds.default(60_000),
  /** At most this many expensive read requests run at once; more get 503 at once. 0: no limit. */
  MAX_CONCURRENT_REQUESTS: z.coerce.number().int().min(0).max(10_000).default(32),
  /** Server mode: `statement_timeout` of the question-answering connections. */
  QUERY_TIMEOUT_MS: milliseconds.default(10_000),
  /** Server mode: the role question answering runs as (SELECT only); `none`: do not switch roles. */
  DATABASE_READER_ROLE: z
    .string()
    .trim()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'a lower-case PostgreSQL role name, or none')
    .default('srag_reader'),
  /** Server mode: a separate login (that can only SELECT) for question answering, instead of switching roles. */
  DATABASE_READER_URL: optionalText.pipe(postgresUrl.optional()),
  /** Largest `bbox` area (square degrees) on the OGC items routes; 64800 = the whole world. */
  MAX_BBOX_AREA_DEG2: z.coerce.number().positive().max(64_800).default(64_800),
});

export type Config = Readonly<z.infer<typeof configSchema>>;

/** A configuration problem, reported as one line naming the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** `postgres://user:secret@host` -> `postgres://user:***@host`, for values repeated in error messages. */
function hidePasswords(value: string): string {
  return value.replace(/(\/\/[^/:@\s,]*:)[^@\s,]*@/g, '$1***@');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = issue.path.join('.');
    const value = hidePasswords(env[variable] ?? '');
    throw new ConfigError(`invalid configuration: ${variable}=${JSON.stringify(value)}: ${issue.message}`);
  }
  const config = parsed.data;
  if (Boolean(config.EMBEDDINGS_BASE_URL) !== Boolean(config.EMBEDDINGS_MODEL)) {
    throw new ConfigError('invalid configuration: EMBEDDINGS_BASE_URL and EMBEDDINGS_MODEL must be set together');
  }
  if (config.DATABASE_READ_URLS.length > 0 && !config.DATABASE_URL) {
    throw new ConfigError(
      'invalid configuration: DATABASE_READ_URLS needs DATABASE_URL (server mode); the embedded database has no replicas: unset DATABASE_READ_URLS or set DATABASE_URL',
    );
  }
  if (config.DATABASE_DISTRIBUTION === 'citus' && !config.DATABASE_URL) {
    throw new ConfigError('invalid configuration: DATABASE_DISTRIBUTION=citus needs DATABASE_URL (the Citus coordinator); the embedded database is not distributed');
  }
  if (Boolean(config.LLM_BASE_URL) !== Boolean(config.LLM_MODEL)) {
    throw new ConfigError('invalid configuration: LLM_BASE_URL and LLM_MODEL must be set together');
  }
  return Object.freeze(config);
}
