import { parseArgs } from 'node:util';
import type { IngestError } from '../ingest/feature.ts';
import { readPlaces } from '../ingest/formats.ts';
import { loadPlaces, type LoadReport } from '../ingest/load.ts';
import { runCommand } from './context.ts';
import { progressReporter } from './progress.ts';
import { sendPlaces, targetService } from './service-client.ts';

const usage = `usage: npm run ingest -- <file>... [--source NAME] [--replace] [--skip-invalid]
                         [--id-property PROP] [--category CATEGORY] [--url http://127.0.0.1:3000]
  Formats: OpenStreetMap .osm.pbf, GeoJSON (FeatureCollection or GeoJSONSeq), CSV (lon/lat or wkt column).
  Each file is one transaction: a failed file leaves the database as it was.
  --url: stream the places to that running service instead of opening the database. Without it, a
         service holding the embedded data directory is found through the directory's lock and used.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    source: { type: 'string' },
    replace: { type: 'boolean', default: false },
    'skip-invalid': { type: 'boolean', default: false },
    'id-property': { type: 'string' },
    category: { type: 'string' },
    url: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help || positionals.length === 0) {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}

function readFile(file: string, skipped: IngestError[], warnings: IngestError[], progress: ReturnType<typeof progressReporter>) {
  return readPlaces(file, {
    source: values.source,
    skipInvalid: values['skip-invalid'],
    idProperty: values['id-property'],
    defaultCategory: values.category,
    // The loader builds descriptions from tags itself, with the street and neighbourhood.
    describe: false,
    onWarning: (w) => (values['skip-invalid'] ? skipped : warnings).push(w),
    // Bytes read: the share of the file done and the ETA on the progress line.
    onBytes: (read, total) => progress.bytes(read, total),
  });
}

function printReport(file: string, report: LoadReport, skipped: IngestError[], warnings: IngestError[]): void {
  const rate = Math.round(report.read / Math.max(report.ms / 1000, 0.001));
  console.log(
    `${file}: ${report.written} places written (${report.read} read, ${rate}/s, ${report.ms} ms)` +
      (report.repaired.length ? `; ${report.repaired.length} invalid polygons repaired with ST_MakeValid` : '') +
      (skipped.length ? `; ${skipped.length} invalid records skipped` : ''),
  );
  for (const w of [...skipped, ...warnings].slice(0, 20)) console.log(`  ${w.message}`);
  if (skipped.length + warnings.length > 20) console.log(`  … ${skipped.length + warnings.length - 20} more`);
  if (report.repaired.length) console.log(`  repaired: ${report.repaired.slice(0, 20).join(', ')}`);
}

/** Through the running service: each file streamed as it is read, one transaction on the service. */
async function ingestThroughService(url: string): Promise<void> {
  try {
    for (const file of positionals) {
      const skipped: IngestError[] = [];
      const warnings: IngestError[] = [];
      const progress = progressReporter(file);
      const started = performance.now();
      let report: LoadReport;
      try {
        report = await sendPlaces(url, readFile(file, skipped, warnings, progress), {
          source: values.source ?? 'import',
          replace: values.replace && !!values.source,
        }, (count) => progress.features(count, performance.now() - started));
      } finally {
        progress.end();
      }
      printReport(file, report, skipped, warnings);
    }
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}

const serviceUrl = targetService(values.url);
if (serviceUrl) await ingestThroughService(serviceUrl);
else await runCommand(async ({ database, embedder }) => {
  for (const file of positionals) {
    const skipped: IngestError[] = [];
    const warnings: IngestError[] = [];
    const progress = progressReporter(file);
    const features = readFile(file, skipped, warnings, progress);
    const sourceOfFile = values.source;
    let report: LoadReport;
    try {
      report = await loadPlaces(database.db, embedder, features, {
        replaceSources: values.replace && sourceOfFile ? [sourceOfFile] : [],
        // Embedded: one connection anyway, so always the bulk mode; server: the loader decides (first loads).
        deferVectorIndex: database.mode === 'embedded' ? true : undefined,
        onProgress: (p) => progress.features(p.features, p.elapsedMs, p.phase),
      });
    } finally {
      progress.end();
    }
    printReport(file, report, skipped, warnings);
  }
});
