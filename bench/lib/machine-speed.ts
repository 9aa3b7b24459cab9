/**
 * The machine's speed right now, as the CPU a fixed piece of work takes: the same customers
 * serialized, parsed and hashed, best of 5 passes. On this kind of machine the hypervisor's steal
 * counter stayed at 0 while the same work took 50–90 % more CPU than an hour before (bench/README.md,
 * session 28): a neighbour slowed the core without taking it. Read before and after a part, it
 * says whether two runs' figures were taken on the same machine.
 */
import { hash } from 'node:crypto';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { bestCpuPerItem } from './cpu-share.js';
import { round, type Figure } from './stats.js';

const RECORDS = 2_000;
const PASSES = 5;

let records: Record<string, unknown>[] | null = null;

/** CPU microseconds per record of the reference work (best of 5 passes over 2,000 customers). */
export function referenceWorkMicros(): number {
  if (records === null) {
    const ds = new Sandbox({ defaultSize: RECORDS }).dataset('payments', 'customers');
    records = Array.from({ length: RECORDS }, (_, i) => ds.recordAt(i));
  }
  return bestCpuPerItem(records, PASSES, (r) => {
    const json = JSON.stringify(r);
    return (JSON.parse(json) as { id: string }).id.length + hash('md5', json).length;
  });
}

/** The reference work's figure for one moment of a run (`when`: before or after a part). */
export function machineSpeedFigure(when: string, micros: number): Figure {
  return { group: 'machine', name: `reference work, ${when} (JSON text, parse and md5 of 2,000 customers)`, unit: 'µs/rec', value: round(micros, 2), baseline: null, ratio: null, target: 'reported', pass: null, note: 'CPU per record, best of 5: higher means a slower machine at that moment (steal does not always show it)' };
}
