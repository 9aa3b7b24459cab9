/**
 * A child process (forked by ../least-derivation.ts) that measures the two least derivations
 * (../write-path-cpu.ts) with nothing else in its heap: in the bench process, which holds the
 * sandbox's prerendered pages, the byte-level one, which allocates as it goes, read about twice
 * what it reads alone (bench/README.md, session 41). A worker's heap holds no such thing.
 */
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { leastByteDerivationCpu, leastDerivationCpu } from '../write-path-cpu.js';

/** What the parent asks: the dataset's size (as the sync's) and how many of its customers to measure. */
export interface LeastDerivationJob {
  readonly size: number;
  readonly n: number;
}

/** CPU µs per record of each least derivation, or why it failed. */
export type LeastDerivationAnswer = { readonly parsed: number; readonly bytes: number } | { readonly error: string };

process.once('message', (job: LeastDerivationJob) => {
  try {
    const sandbox = new Sandbox({ defaultSize: job.size });
    sandbox.configure({ connectorType: 'payments', entity: 'customers', size: job.size });
    const answer: LeastDerivationAnswer = { parsed: leastDerivationCpu(sandbox, job.n), bytes: leastByteDerivationCpu(sandbox, job.n) };
    process.send?.(answer);
  } catch (e) {
    process.send?.({ error: e instanceof Error ? e.message : String(e) });
  }
});
