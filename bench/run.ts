/** `npm run bench [-- --quick] [--search N] [--reps N]`: runs the benchmarks, prints the table, saves JSON. */
import { parseArgs } from 'node:util';
import { markdownTable, saveResults } from './lib/report.js';
import type { Figure } from './lib/stats.js';
import { searchBench } from './search.js';

const { values } = parseArgs({ options: { quick: { type: 'boolean' }, search: { type: 'string' }, reps: { type: 'string' }, only: { type: 'string' } } });
const quick = values.quick === true;
const params = {
  search: Number(values.search ?? (quick ? 20_000 : 1_000_000)),
  reps: Number(values.reps ?? (quick ? 20 : 100)),
};
const only = values.only?.split(',');
const want = (name: string): boolean => only === undefined || only.includes(name);
const log = (s: string): void => void process.stderr.write(`${s}\n`);

const figures: Figure[] = [];
const started = performance.now();
if (want('search')) figures.push(...(await searchBench(params.search, params.reps, log)));
const file = saveResults(figures, { ...params, quick });
process.stdout.write(`\n${markdownTable(figures)}\n\nresults: ${file} (${Math.round((performance.now() - started) / 1000)} s)\n`);
