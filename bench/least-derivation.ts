/** The pure write-path work's and the two least derivations' CPU per record (lib/least-derivation-process.ts), in a process of its own run with the worker's V8 flags. */
import { forkChild } from './lib/fork-child.js';
import type { LeastDerivation, LeastDerivationAnswer, LeastDerivationJob } from './lib/least-derivation-process.js';

/** CPU µs per record of the pure write-path work, and of the least derivation from parsed records and from their bytes. */
export function leastDerivations(job: LeastDerivationJob): Promise<LeastDerivation> {
  const child = forkChild('least-derivation-process', 'worker');
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the least-derivation process exited (${code}) before answering`)));
    child.once('message', (answer: LeastDerivationAnswer) => {
      child.kill();
      if ('error' in answer) reject(new Error(`least derivation: ${answer.error}`));
      else resolve(answer);
    });
    child.send(job);
  });
}
