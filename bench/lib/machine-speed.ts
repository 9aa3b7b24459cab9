/**
 * The machine's speed right now, as the CPU a fixed piece of work takes: the same customers
 * serialized, parsed and hashed, best of 5 passes. On this kind of machine the hypervisor's steal
 * counter stayed at 0 while the same work took 50–90 % more CPU than an hour before (bench/README.md,
 * session 28): a neighbour slowed the core without taking it. Read before and after a part, it
 * says whether two runs' figures were taken on the same machine.
 *
 * Beside it, the same work in page-sized bursts, each after the process slept 5 ms, as the worker
 * wakes for each page and each answer of Postgres: on some machines of this kind a process that
 * has just woken runs its next milliseconds of work 30-60 % slower (bench/README.md, session 42).
 *
 * And what memory the process has not touched yet costs it: the CPU per 4 KB page of a fresh
 * allocation written once. On machines of this kind a minor page fault took 12-19 µs of CPU
 * (bench/README.md, session 45), where bare metal takes well under one.
 */
import { hash } from 'node:crypto';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { bestCpuPerItem } from './cpu-share.js';
import { round, type Figure } from './stats.js';

const RECORDS = 2_000;
const PASSES = 5;

/** Records per burst of the after-idle figure (a page's worth) and the sleep before each. */
const BURST = 100;
const IDLE_MS = 5;

let records: Record<string, unknown>[] | null = null;

function referenceRecords(): Record<string, unknown>[] {
  if (records === null) {
    const ds = new Sandbox({ defaultSize: RECORDS }).dataset('payments', 'customers');
    records = Array.from({ length: RECORDS }, (_, i) => ds.recordAt(i));
  }
  return records;
}

function referenceWork(r: Record<string, unknown>): number {
  const json = JSON.stringify(r);
  return (JSON.parse(json) as { id: string }).id.length + hash('md5', json).length;
}

/** CPU microseconds per record of the reference work (best of 5 passes over 2,000 customers). */
export function referenceWorkMicros(): number {
  return bestCpuPerItem(referenceRecords(), PASSES, referenceWork);
}

/** The same, in bursts of 100 records each started after a 5 ms sleep (best of 5 passes): the machine's speed for a process that keeps waking. */
export async function referenceWorkAfterIdleMicros(): Promise<number> {
  const all = referenceRecords();
  let best = Infinity;
  let sink = 0;
  for (let pass = 0; pass < PASSES; pass++) {
    let used = 0;
    for (let at = 0; at < all.length; at += BURST) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      const before = process.cpuUsage();
      for (let i = at; i < Math.min(at + BURST, all.length); i++) sink += referenceWork(all[i] as Record<string, unknown>);
      const burst = process.cpuUsage(before);
      used += burst.user + burst.system;
    }
    best = Math.min(best, used / all.length);
  }
  if (sink === 0) throw new Error('the reference work derived nothing');
  return best;
}

/** Fresh memory per pass of {@link pageTouchMicros}: above glibc's largest mmap threshold (32 MB), so every pass maps new pages. */
const FRESH_BYTES = 64 * 1024 * 1024;
const PAGE = 4096;

/** CPU microseconds per 4 KB page of fresh memory written once (best of 3), and the minor faults per page it took. */
export function pageTouchMicros(): { micros: number; faultsPerPage: number } {
  let best = { micros: Infinity, faultsPerPage: 0 };
  for (let pass = 0; pass < 3; pass++) {
    const faults = process.resourceUsage().minorPageFault;
    const before = process.cpuUsage();
    const fresh = Buffer.allocUnsafeSlow(FRESH_BYTES);
    for (let at = 0; at < FRESH_BYTES; at += PAGE) fresh[at] = 1;
    const used = process.cpuUsage(before);
    const pages = FRESH_BYTES / PAGE;
    const micros = (used.user + used.system) / pages;
    if (micros < best.micros) best = { micros, faultsPerPage: (process.resourceUsage().minorPageFault - faults) / pages };
  }
  return best;
}

/** The reference work's figures for one moment of a run (`when`: before or after a part): back to back, and in bursts after idling. */
export function machineSpeedFigures(when: string, micros: number, afterIdle: number, touch: ReturnType<typeof pageTouchMicros>): Figure[] {
  return [
    { group: 'machine', name: `reference work, ${when} (JSON text, parse and md5 of 2,000 customers)`, unit: 'µs/rec', value: round(micros, 2), baseline: null, ratio: null, target: 'reported', pass: null, note: 'CPU per record, best of 5: higher means a slower machine at that moment (steal does not always show it)' },
    { group: 'machine', name: `reference work after idling, ${when} (the same in bursts of ${BURST}, each after a ${IDLE_MS} ms sleep)`, unit: 'µs/rec', value: round(afterIdle, 2), baseline: round(micros, 2), ratio: round(afterIdle / micros, 2), target: 'reported', pass: null, note: 'CPU per record, best of 5: above 1× the back-to-back figure, what a process that waits on I/O pays each time it wakes' },
    { group: 'machine', name: `fresh memory, ${when} (64 MB never touched before, one byte written per 4 KB page)`, unit: 'µs/page', value: round(touch.micros, 2), baseline: null, ratio: null, target: 'reported', pass: null, note: `CPU per page, best of 3; ${round(touch.faultsPerPage, 2)} minor faults per page: what each page fault costs a process here (the ingest figures count the worker's)` },
  ];
}
