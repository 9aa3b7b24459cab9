/**
 * A child process (forked by ../least-derivation.ts) that measures the pure write-path work and
 * the two least derivations (../write-path-cpu.ts) with nothing else in its heap: in the bench
 * process, which holds the sandbox's prerendered pages, the byte-level least derivation, which
 * allocates as it goes, read about twice what it reads alone, and the pure write-path work more
 * than the worker's whole figure (bench/README.md, session 41). A worker's heap holds no such thing.
 */
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { leastByteDerivationCpu, leastDerivationCpu, writePathCpu } from '../write-path-cpu.js';

/** What the parent asks: the dataset's size (as the sync's) and how many of its customers to measure. */
export interface LeastDerivationJob {
  readonly size: number;
  readonly n: number;
}

/** CPU µs per record of the pure write-path work (in all and per step) and of each least derivation. */
export interface LeastDerivation {
  readonly pure: { readonly total: number; readonly steps: Record<string, number> };
  readonly parsed: number;
  readonly bytes: number;
}

/** The measurements, or why they failed. */
export type LeastDerivationAnswer = LeastDerivation | { readonly error: string };

process.once('message', (job: LeastDerivationJob) => {
  try {
    const sandbox = new Sandbox({ defaultSize: job.size });
    sandbox.configure({ connectorType: 'payments', entity: 'customers', size: job.size });
    const answer: LeastDerivationAnswer = { pure: writePathCpu(sandbox, job.n), parsed: leastDerivationCpu(sandbox, job.n), bytes: leastByteDerivationCpu(sandbox, job.n) };
    process.send?.(answer);
  } catch (e) {
    process.send?.({ error: e instanceof Error ? e.message : String(e) });
  }
});
