/**
 * Progress of one import on stderr. On a TTY one line redrawn in place: features read, rate, the share of
 * the file read and an ETA of the reading (from the bytes the reader reports, see ReaderOptions.onBytes),
 * then what the loader does after the reading. Otherwise quiet log lines (every 5 s and on phase changes).
 */
export interface ProgressReporter {
  /** Features read so far; `phase` names what the loader is doing (`reading` while the input streams in). */
  features(count: number, elapsedMs: number, phase?: string): void;
  /** Bytes of the input file read so far, of `total`. */
  bytes(read: number, total: number): void;
  /** Ends the line. */
  end(): void;
}

const PHASE_WORDS: Record<string, string> = {
  describing: 'adding streets to the places waiting for them',
  indexing: 'building the vector index',
  catalogs: 'importing the EO tool catalogs',
};

/** ETA from the share done so far, or null when too little is done to tell. */
export function etaSeconds(elapsedMs: number, done: number, total: number): number | null {
  if (!(total > 0) || done <= 0 || elapsedMs < 500) return null;
  const share = Math.min(done / total, 1);
  return Math.max(0, Math.round(((elapsedMs / 1000) * (1 - share)) / share));
}

export function progressLine(
  label: string,
  state: { count: number; elapsedMs: number; phase: string; read: number; total: number; totalFeatures?: number },
): string {
  const n = (v: number) => Math.round(v).toLocaleString('en-US');
  const rate = state.count / Math.max(state.elapsedMs / 1000, 0.001);
  if (state.phase !== 'reading') {
    const what = PHASE_WORDS[state.phase] ?? state.phase;
    return state.count > 0 ? `${label}: ${n(state.count)} features read; ${what}…` : `${label}: ${what}…`;
  }
  // The share of the input: by features when their total is known, else by bytes.
  const [done, total] = state.totalFeatures ? [state.count, state.totalFeatures] : [state.read, state.total];
  const share = total > 0 ? ` (${Math.min(100, Math.round((done / total) * 100))}%)` : '';
  const eta = etaSeconds(state.elapsedMs, done, total);
  return `${label}: ${n(state.count)}${share} features, ${n(rate)}/s${eta === null ? '' : `, eta ${eta}s`}`;
}

export function progressReporter(label: string, totalFeatures?: number): ProgressReporter {
  const tty = process.stderr.isTTY === true;
  const started = performance.now();
  const state = { count: 0, elapsedMs: 0, phase: 'reading', read: 0, total: 0, totalFeatures };
  let lastDraw = -Infinity;
  let lastLog = 0;
  let drawn = false;
  const draw = (force: boolean) => {
    const now = performance.now();
    if (tty) {
      if (!force && now - lastDraw < 100) return;
      lastDraw = now;
      drawn = true;
      process.stderr.write(`\r${progressLine(label, state)}\x1b[K`);
    } else if (force || state.elapsedMs - lastLog >= 5_000) {
      lastLog = state.elapsedMs;
      process.stderr.write(`${progressLine(label, state)}\n`);
    }
  };
  return {
    features(count, elapsedMs, phase = 'reading') {
      const changed = phase !== state.phase;
      Object.assign(state, { count, elapsedMs, phase });
      draw(changed);
    },
    bytes(read, total) {
      Object.assign(state, { read, total, elapsedMs: performance.now() - started });
      draw(false);
    },
    end() {
      if (tty && drawn) process.stderr.write('\n');
    },
  };
}

/**
 * The progress of the service's first start: on a terminal only (a service under a supervisor or in a
 * container logs its phases as JSON lines instead, and a redrawn line would garble those logs).
 */
export function terminalProgress(label: string): ProgressReporter | undefined {
  return process.stderr.isTTY === true ? progressReporter(label) : undefined;
}

/** Ends a progress line on a TTY (for callers that do not keep the reporter). */
export function endProgress(): void {
  if (process.stderr.isTTY) process.stderr.write('\n');
}
