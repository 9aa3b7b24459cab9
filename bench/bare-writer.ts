/** The bare writer's CPU per record (lib/bare-writer-process.ts), in a process of its own run with the worker's V8 flags. */
import { forkChild } from './lib/fork-child.js';
import type { BareWriterAnswer, BareWriterJob } from './lib/bare-writer-process.js';

/** Runs the bare writer over every page the runtime at `runtimeUrl` serves; CPU µs per record, and the system part. */
export function bareWriterCpu(job: BareWriterJob): Promise<{ perRecord: number; system: number; records: number }> {
  const child = forkChild('bare-writer-process', 'worker');
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bare writer exited (${code}) before answering`)));
    child.once('message', (answer: BareWriterAnswer) => {
      child.kill();
      if ('error' in answer) reject(new Error(`bare writer: ${answer.error}`));
      else resolve({ perRecord: answer.cpuMicros / answer.records, system: answer.systemMicros / answer.records, records: answer.records });
    });
    child.send(job);
  });
}
