/** Progress on a TTY (count, rate, ETA when the total is known, redrawn in place); quiet log lines otherwise. */
export function progressReporter(label: string, total?: number) {
  const tty = process.stderr.isTTY;
  let lastLog = 0;
  return (count: number, elapsedMs: number) => {
    const rate = count / Math.max(elapsedMs / 1000, 0.001);
    const eta = total && rate > 0 ? ` eta ${Math.max(0, Math.round((total - count) / rate))}s` : '';
    const share = total ? ` (${Math.min(100, Math.round((count / total) * 100))}%)` : '';
    const line = `${label}: ${count.toLocaleString('en-US')}${share} features, ${Math.round(rate).toLocaleString('en-US')}/s${eta}`;
    if (tty) process.stderr.write(`\r${line}\x1b[K`);
    else if (elapsedMs - lastLog >= 5_000) {
      lastLog = elapsedMs;
      process.stderr.write(`${line}\n`);
    }
  };
}

export function endProgress(): void {
  if (process.stderr.isTTY) process.stderr.write('\n');
}
