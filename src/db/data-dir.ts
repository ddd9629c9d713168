/**
 * The embedded data directory: one process at a time, and never opened when it is not what this install
 * can read.
 *
 * PGlite takes no lock of its own, and two processes on one directory destroy it (the second writer's
 * checkpoint overwrites the first's pages; the next start fails with `Aborted()`). So every opener takes
 * an exclusive lock first, with PostgreSQL's `postmaster.pid` semantics: the file names the holder's PID
 * and process start time, and a lock whose process is gone (or whose PID was reused by another process)
 * is stale and taken over.
 *
 * The lock file sits beside the directory (`<dir>.lock`), not inside it: a restore swaps the whole
 * directory while holding the lock, and copying a directory never copies its lock.
 */
import { createRequire } from 'node:module';
import { closeSync, existsSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

export interface LockHolder {
  pid: number;
  /** Kernel start time of the process (Linux: field 22 of /proc/PID/stat); tells a reused PID apart. */
  processStart: string | null;
  host: string;
  startedAt: string;
  command: string;
  /** The HTTP address of the service holding the directory, once it listens. */
  url: string | null;
}

export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(lockedMessage(dataDir, holder));
  }
}

/** A data directory that is not a complete database of this install: refused before anything writes to it. */
export class DataDirUnusableError extends Error {
  override readonly name = 'DataDirUnusableError';
}

function lockedMessage(dataDir: string, holder: LockHolder): string {
  const who = `process ${holder.pid}${holder.host !== hostname() ? ` on ${holder.host}` : ''} (${holder.command}, since ${holder.startedAt})`;
  const service = holder.url ?? 'http://127.0.0.1:3000';
  return (
    `the embedded data directory ${dataDir} is in use by ${who}: one process per data directory. ` +
    `Stop that process first, or send the work to the running service: ` +
    `\`npm run ingest -- --url ${service} FILE\` (or POST ${service}/v1/places:import), \`npm run backup -- --url ${service} FILE\``
  );
}

export function lockPathOf(dataDir: string): string {
  const absolute = resolve(dataDir);
  return join(dirname(absolute), `${basename(absolute)}.lock`);
}

/** Start time of a live process, or null where the platform does not tell (then the PID alone decides). */
function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseHolder(text: string): LockHolder | null {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0) return null;
    return {
      pid: value.pid,
      processStart: typeof value.processStart === 'string' ? value.processStart : null,
      host: typeof value.host === 'string' ? value.host : hostname(),
      startedAt: typeof value.startedAt === 'string' ? value.startedAt : 'an unknown time',
      command: typeof value.command === 'string' ? value.command : 'unknown command',
      url: typeof value.url === 'string' ? value.url : null,
    };
  } catch {
    return null;
  }
}

/** The holder while it is alive; null for no lock, an unreadable one, or one whose process is gone. */
function liveHolder(holder: LockHolder | null): LockHolder | null {
  if (!holder) return null;
  // Another machine's lock (a shared disk) cannot be checked from here: it counts as held.
  if (holder.host !== hostname()) return holder;
  if (!isAlive(holder.pid)) return null;
  const start = processStartTime(holder.pid);
  if (holder.processStart && start && start !== holder.processStart) return null;
  return holder;
}

function readLockFile(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Who holds the directory now, if anyone (used by the commands to find the running service). */
export function currentHolder(dataDir: string): LockHolder | null {
  const text = readLockFile(lockPathOf(dataDir));
  return text === null ? null : liveHolder(parseHolder(text));
}

/** Directories this process holds: a second open in the same process is refused like one from another. */
const heldHere = new Map<string, DataDirLock>();
let exitHookInstalled = false;

export interface DataDirLock {
  readonly dataDir: string;
  readonly path: string;
  /** Records the service's address in the lock, so commands run beside it can send their work there. */
  advertise(url: string): void;
  release(): void;
}

function commandLine(): string {
  const script = process.argv[1] ? basename(process.argv[1]) : 'node';
  return [script, ...process.argv.slice(2)].join(' ').slice(0, 200);
}

/**
 * Takes the directory's lock or throws DataDirLockedError naming the holder. A stale lock (its process
 * gone) is moved aside and taken over; the move is atomic, and the lock read back afterwards, so two
 * openers racing for a stale lock cannot both win.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const absolute = resolve(dataDir);
  const path = lockPathOf(absolute);
  const existing = heldHere.get(absolute);
  if (existing) throw new DataDirLockedError(absolute, ownHolder(null));
  const holder = ownHolder(null);
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 5; attempt++) {
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(holder));
    try {
      // link() fails if the lock exists, and the lock is never seen half written.
      linkSync(temporary, path);
      rmSync(temporary, { force: true });
    } catch (error) {
      rmSync(temporary, { force: true });
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const text = readLockFile(path);
      if (text === null) continue;
      const live = liveHolder(parseHolder(text));
      if (live) throw new DataDirLockedError(absolute, live);
      takeOverStale(path, text);
      continue;
    }
    if (readLockFile(path) !== JSON.stringify(holder)) continue;
    const lock = makeLock(absolute, path, holder);
    heldHere.set(absolute, lock);
    installExitHook();
    return lock;
  }
  throw new Error(`could not take the lock ${path} of the embedded data directory (it keeps changing): is another process starting on it?`);
}

function ownHolder(url: string | null): LockHolder {
  return {
    pid: process.pid,
    processStart: processStartTime(process.pid),
    host: hostname(),
    startedAt: new Date().toISOString(),
    command: commandLine(),
    url,
  };
}

/** Moves a stale lock aside; if what was moved is not the stale lock read before (another opener's fresh one), puts it back. */
function takeOverStale(path: string, staleText: string): void {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = readLockFile(aside);
  if (moved !== staleText) {
    try {
      linkSync(aside, path);
    } catch {
      // the lock was taken again meanwhile: the next attempt reads it
    }
  }
  rmSync(aside, { force: true });
}

function makeLock(dataDir: string, path: string, holder: LockHolder): DataDirLock {
  let released = false;
  return {
    dataDir,
    path,
    advertise(url) {
      if (released) return;
      const updated = { ...holder, url };
      const temporary = `${path}.${process.pid}.tmp`;
      const fd = openSync(temporary, 'w');
      try {
        writeSync(fd, JSON.stringify(updated));
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, path);
    },
    release() {
      if (released) return;
      released = true;
      heldHere.delete(dataDir);
      const text = readLockFile(path);
      const current = text === null ? null : parseHolder(text);
      if (current?.pid === process.pid) rmSync(path, { force: true });
    },
  };
}

/** A process that exits without closing its database (process.exit, an uncaught error) still frees its locks. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const lock of [...heldHere.values()]) lock.release();
  });
}

// ---------------------------------------------------------------------------------------------------------
// What the directory holds

/** Written beside the database files after a successful open: which builds wrote the directory. */
export const STAMP_FILE = 'spatial-rag.versions.json';

export interface EngineVersions {
  pglite: string;
  postgis: string;
  pgvector: string;
}

const require = createRequire(import.meta.url);

export function installedEngineVersions(): EngineVersions {
  // The packages export no package.json: walk up from their entry point to it.
  const version = (name: string) => {
    let dir = dirname(require.resolve(name));
    while (dirname(dir) !== dir) {
      const file = join(dir, 'package.json');
      if (existsSync(file)) {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === name && pkg.version) return pkg.version;
      }
      dir = dirname(dir);
    }
    return 'unknown';
  };
  return {
    pglite: version('@electric-sql/pglite'),
    postgis: version('@electric-sql/pglite-postgis'),
    pgvector: version('@electric-sql/pglite-pgvector'),
  };
}

/** The files without which PostgreSQL cannot start; their absence means a truncated or foreign directory. */
const REQUIRED_FILES = ['PG_VERSION', 'global/pg_control', 'base', 'pg_wal'];
/** pg_control is one 8 kB block; a shorter one was cut off. */
const PG_CONTROL_BYTES = 8192;
/** Files this project itself leaves in a directory that PGlite has not initialised yet. */
const OWN_FILES = new Set([STAMP_FILE]);

/**
 * Read-only checks before PGlite opens an existing directory: a directory that is not a complete database,
 * or one written by other engine builds, is refused with the reason and never written to. An empty
 * directory passes (PGlite initialises it).
 */
export function checkDataDir(dataDir: string, installed: EngineVersions = installedEngineVersions()): void {
  if (!existsSync(dataDir)) return;
  const entries = readdirSync(dataDir).filter((name) => !OWN_FILES.has(name) && !name.startsWith('.write-check-'));
  if (entries.length === 0) return;
  const missing = REQUIRED_FILES.filter((file) => !existsSync(join(dataDir, file)));
  if (missing.length === REQUIRED_FILES.length) {
    throw new DataDirUnusableError(
      `${dataDir} holds files but no database (no ${REQUIRED_FILES.join(', ')}): point PGLITE_DATA_DIR at an empty or a database directory`,
    );
  }
  if (missing.length > 0) {
    throw new DataDirUnusableError(
      `the embedded data directory ${dataDir} is incomplete (missing ${missing.join(', ')}): it was cut off or damaged; ` +
        `restore a backup with \`npm run restore -- FILE --force\``,
    );
  }
  const control = statSync(join(dataDir, 'global/pg_control'));
  if (control.size < PG_CONTROL_BYTES) {
    throw new DataDirUnusableError(
      `the embedded data directory ${dataDir} is damaged (global/pg_control is ${control.size} bytes, not ${PG_CONTROL_BYTES}); ` +
        `restore a backup with \`npm run restore -- FILE --force\``,
    );
  }
  const mismatch = versionMismatch(readStamp(dataDir), installed);
  if (mismatch) {
    throw new DataDirUnusableError(
      `the embedded data directory ${dataDir} ${mismatch}. ` +
        `It is left untouched: run the versions that wrote it (package.json), or load the data again into an empty directory`,
    );
  }
}

/** "was written by X; this install has Y" when the engine builds differ, else null (also for an unstamped directory). */
export function versionMismatch(written: EngineVersions | null, installed: EngineVersions): string | null {
  if (!written) return null;
  const differing = (Object.keys(installed) as (keyof EngineVersions)[]).filter((k) => written[k] !== installed[k]);
  if (differing.length === 0) return null;
  const list = (v: EngineVersions) => differing.map((k) => `${k} ${v[k]}`).join(', ');
  return `was written by ${list(written)}; this install has ${list(installed)}`;
}

function readStamp(dataDir: string): EngineVersions | null {
  try {
    const value = JSON.parse(readFileSync(join(dataDir, STAMP_FILE), 'utf8')) as Partial<EngineVersions>;
    if (typeof value.pglite !== 'string' || typeof value.postgis !== 'string' || typeof value.pgvector !== 'string') return null;
    return { pglite: value.pglite, postgis: value.postgis, pgvector: value.pgvector };
  } catch {
    return null;
  }
}

/** Records the engine builds after a successful open (an unstamped directory gets this install's). */
export function stampDataDir(dataDir: string, installed: EngineVersions = installedEngineVersions()): void {
  if (readStamp(dataDir)) return;
  writeFileSync(join(dataDir, STAMP_FILE), `${JSON.stringify(installed, null, 2)}\n`);
}
