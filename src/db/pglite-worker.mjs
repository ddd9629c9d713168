// PGlite runs here, in a worker thread, because a PGlite query runs on the thread that owns it:
// on the main thread one long query would freeze the HTTP server (health checks included).
// Plain JavaScript so that it loads without a TypeScript loader in any runner.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { postgis } from '@electric-sql/pglite-postgis';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const INT8 = 20;
const NUMERIC = 1700;

let db;

async function open(load) {
  db = await PGlite.create({
    dataDir: workerData.dataDir,
    // A restore: the directory is filled from a dumpDataDir() tarball before PostgreSQL starts.
    ...(load ? { loadDataDir: new Blob([load]) } : {}),
    extensions: { postgis, vector, pg_trgm },
    // The same JavaScript types as the server mode gets from node-postgres with our parsers.
    parsers: { [INT8]: (v) => Number(v), [NUMERIC]: (v) => Number(v) },
  });
}

function serializeError(error) {
  return {
    message: error?.message ?? String(error),
    code: error?.code,
    detail: error?.detail,
    position: error?.position,
  };
}

async function run(step) {
  // `blob`: the data a `COPY ... FROM '/dev/blob'` statement reads.
  const options = step.blob ? { blob: new Blob([step.blob]) } : undefined;
  const result = await db.query(step.sql, step.params ?? [], options);
  return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
}

async function handle(msg) {
  try {
    if (msg.kind === 'open') {
      await open(msg.blob);
      parentPort.postMessage({ id: msg.id, ok: true });
    } else if (msg.kind === 'query') {
      parentPort.postMessage({ id: msg.id, ok: true, ...(await run(msg)) });
    } else if (msg.kind === 'script') {
      // Statements run back to back, without a round trip to the main thread between them (which may be
      // busy for a while): the reply is the result of the last one, or the first error.
      let result = { rows: [], affectedRows: 0 };
      for (const step of msg.steps) result = await run(step);
      parentPort.postMessage({ id: msg.id, ok: true, ...result });
    } else if (msg.kind === 'exec') {
      await db.exec(msg.sql);
      parentPort.postMessage({ id: msg.id, ok: true });
    } else if (msg.kind === 'dump') {
      // Everything committed is in the data files, so the snapshot needs no WAL replay to be complete.
      await db.exec('CHECKPOINT');
      const blob = await db.dumpDataDir(msg.compression ?? 'none');
      parentPort.postMessage({ id: msg.id, ok: true, data: new Uint8Array(await blob.arrayBuffer()) });
    } else if (msg.kind === 'close') {
      if (db) await db.close();
      parentPort.postMessage({ id: msg.id, ok: true });
    }
  } catch (error) {
    parentPort.postMessage({ id: msg.id, ok: false, error: serializeError(error) });
  }
}

// One message at a time, in the order sent: the statements of a script must never interleave with those
// of another message (PGlite would otherwise queue each statement separately).
let queue = Promise.resolve();
parentPort.on('message', (msg) => {
  queue = queue.then(() => handle(msg));
});
