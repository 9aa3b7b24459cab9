/** `npm run bench [-- --quick] [--search N] [--reps N] [--only a,b] [--backends postgres]`: runs the benchmarks, prints the table, saves JSON. */
import { parseArgs } from 'node:util';
import { markdownTable, saveResults } from './lib/report.js';
import type { Figure } from './lib/stats.js';
import { ingestBench } from './ingest.js';
import { schedulesBench } from './schedules.js';
import { benchOpenSearch } from './lib/opensearch.js';
import { openSearchIngestBench } from './opensearch-ingest.js';
import { searchBench } from './search.js';
import { machineSpeedFigures, pageTouchMicros, referenceWorkAfterIdleMicros, referenceWorkMicros } from './lib/machine-speed.js';

const { values } = parseArgs({ options: { quick: { type: 'boolean' }, ingest: { type: 'string' }, memory: { type: 'string' }, search: { type: 'string' }, schedules: { type: 'string' }, reps: { type: 'string' }, only: { type: 'string' }, backends: { type: 'string' } } });
const quick = values.quick === true;
const params = {
  ingest: Number(values.ingest ?? (quick ? 5_000 : 200_000)),
  memory: Number(values.memory ?? (quick ? 0 : 1_000_000)),
  search: Number(values.search ?? (quick ? 20_000 : 1_000_000)),
  schedules: Number(values.schedules ?? (quick ? 500 : 10_000)),
  // A p95 of 100 samples is their fifth-slowest: one scheduling blip moved it by 2× between runs.
  reps: Number(values.reps ?? (quick ? 20 : 500)),
};
const only = values.only?.split(',');
const want = (name: string): boolean => only === undefined || only.includes(name);
const log = (s: string): void => void process.stderr.write(`${s}\n`);

const figures: Figure[] = [];
const started = performance.now();
const speed = async (when: string): Promise<void> => {
  const micros = referenceWorkMicros();
  const afterIdle = await referenceWorkAfterIdleMicros();
  const touch = pageTouchMicros();
  log(`machine: reference work ${micros.toFixed(2)} µs/rec ${when}; ${afterIdle.toFixed(2)} in bursts after idling (${(afterIdle / micros).toFixed(2)}×); fresh memory ${touch.micros.toFixed(2)} µs per 4 KB page (${touch.faultsPerPage.toFixed(2)} faults per page)`);
  figures.push(...machineSpeedFigures(when, micros, afterIdle, touch));
};
await speed('at the start');
if (want('ingest')) figures.push(...(await ingestBench(params.ingest, log)));
// The memory target is about a 1,000,000-record sync: a separate, bigger ingest run measures it.
if (want('memory') && params.memory > 0) figures.push(...(await ingestBench(params.memory, log, { resync: false, copy: false })));
// OpenSearch beside Postgres on the same data and queries (skipped, loudly, where it cannot run).
const withOpenSearch = (values.backends ?? 'postgres,opensearch').split(',').includes('opensearch');
if (!withOpenSearch) log('OpenSearch figures left out (--backends)');
// The node runs only while OpenSearch is measured: a deployment that searches with Postgres runs
// no JVM, and beside one the 1,000-record connector's HTTP p95 missed 5 ms twice (bench/README.md,
// session 27). The search bench starts its own once the Postgres cases are done.
if (withOpenSearch && want('ingest')) {
  const os = await benchOpenSearch(log);
  try {
    if (os !== null) figures.push(...(await openSearchIngestBench(os, params.ingest, log)));
  } finally {
    await os?.close();
  }
}
if (want('search')) {
  await speed('before the search part');
  figures.push(...(await searchBench(params.search, params.reps, log, withOpenSearch ? () => benchOpenSearch(log) : null)));
}
if (want('schedules')) figures.push(...(await schedulesBench(params.schedules, log)));
await speed('at the end');
const file = saveResults(figures, { ...params, quick });
process.stdout.write(`\n${markdownTable(figures)}\n\nresults: ${file} (${Math.round((performance.now() - started) / 1000)} s)\n`);
