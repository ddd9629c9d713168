import { createReadStream, statSync, type ReadStream } from 'node:fs';

/**
 * A read stream of a file that reports, per chunk read (64 KB), how many of the file's bytes have been
 * read: what a progress bar needs for a share done and an ETA, for the cost of one callback per chunk.
 */
export function readStreamReporting(
  path: string,
  onBytes: ((read: number, total: number) => void) | undefined,
  encoding?: BufferEncoding,
): ReadStream {
  const stream = createReadStream(path, encoding ? { encoding } : {});
  if (onBytes) {
    const total = statSync(path).size;
    stream.on('data', () => onBytes(stream.bytesRead, total));
  }
  return stream;
}
