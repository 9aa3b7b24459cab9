/** A sync worker: consumes the sync queue until closed; close() finishes the current page first. */
import type { Worker } from 'bullmq';
import type { Deps } from '../app/deps.js';
import { SYNC_QUEUE, type SyncJob } from './jobs.js';
import { syncProcessor } from './sync-processor.js';

/** A running worker. */
export interface RunningWorker {
  readonly worker: Worker<SyncJob>;
  close(): Promise<void>;
}

export function startWorker(deps: Deps, opts: { concurrency?: number } = {}): RunningWorker {
  const shutdown = new AbortController();
  const worker = deps.queues.worker<SyncJob>(SYNC_QUEUE, syncProcessor(deps, shutdown.signal), {
    concurrency: opts.concurrency ?? deps.config.workerConcurrency,
    // A job whose worker died is picked up again once its lock lapses.
    lockDuration: 60_000,
    stalledInterval: 30_000,
    maxStalledCount: 100,
  });
  worker.on('error', (e) => deps.logger.error({ err: { message: e.message } }, 'worker error'));
  return {
    worker,
    close: async () => {
      shutdown.abort();
      await worker.close();
    },
  };
}
