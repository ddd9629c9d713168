/**
 * Snapshots of the embedded database: PGlite's `dumpDataDir` tarball (gzipped), read here without
 * unpacking it, so a restore can check what it holds before anything is written.
 */
import { gunzipSync } from 'node:zlib';
import { STAMP_FILE, type EngineVersions } from './data-dir.ts';

const BLOCK = 512;

function text(bytes: Uint8Array, start: number, length: number): string {
  const field = bytes.subarray(start, start + length);
  const end = field.indexOf(0);
  return new TextDecoder().decode(end >= 0 ? field.subarray(0, end) : field);
}

/** The files of a tar archive (name → content), or an error naming what is wrong with it. */
export function readSnapshot(gzipped: Uint8Array): Map<string, Uint8Array> {
  let tar: Uint8Array;
  try {
    tar = gunzipSync(gzipped);
  } catch {
    throw new Error('not a snapshot: the file is not gzip-compressed (npm run backup writes a .tar.gz)');
  }
  const files = new Map<string, Uint8Array>();
  for (let offset = 0; offset + BLOCK <= tar.length; ) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break;
    const name = text(header, 0, 100);
    const prefix = text(header, 345, 155);
    const size = Number.parseInt(text(header, 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) throw new Error(`not a snapshot: a damaged tar header at byte ${offset}`);
    const type = String.fromCharCode(header[156] ?? 0);
    const start = offset + BLOCK;
    if (start + size > tar.length) throw new Error('not a snapshot: the archive is cut off');
    if (type === '0' || type === '\0') files.set(prefix ? `${prefix}/${name}` : name, tar.subarray(start, start + size));
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}

function find(files: Map<string, Uint8Array>, path: string): Uint8Array | undefined {
  for (const [name, content] of files) if (name === path || name.endsWith(`/${path}`)) return content;
  return undefined;
}

export interface SnapshotSummary {
  /** The engine builds that wrote it, when the snapshot records them. */
  versions: EngineVersions | null;
  files: number;
}

/** Checks a snapshot is a whole PGlite data directory. */
export function describeSnapshot(gzipped: Uint8Array): SnapshotSummary {
  const files = readSnapshot(gzipped);
  for (const required of ['PG_VERSION', 'global/pg_control']) {
    if (!find(files, required)) throw new Error(`not a snapshot of an embedded database: it has no ${required}`);
  }
  const stamp = find(files, STAMP_FILE);
  let versions: EngineVersions | null = null;
  if (stamp) {
    try {
      versions = JSON.parse(new TextDecoder().decode(stamp)) as EngineVersions;
    } catch {
      versions = null;
    }
  }
  return { versions, files: files.size };
}
