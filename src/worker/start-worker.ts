/** A sync worker: consumes the sync queue until closed; close() finishes the current page first. */
import type { Worker } from 'bullmq';
import type { Deps } from '../app/deps.js';
import { SYNC_QUEUE, type SyncJob } from './jobs.js';
import type { RetryPolicy } from './fetch-page.js';
import { restoreSchedules } from './restore-schedules.js';
import { scheduleProcessor } from './schedule-processor.js';
import { SCHEDULE_QUEUE, type ScheduleJob } from './schedules.js';
import { syncProcessor } from './sync-processor.js';

/** A running worker: sync jobs plus the schedule ticks. */
export interface RunningWorker {
  readonly worker: Worker<SyncJob>;
  readonly scheduler: Worker<ScheduleJob>;
  close(): Promise<void>;
}

/** `lockMs`: how long a dead worker's job stays locked before another worker resumes it. */
export function startWorker(deps: Deps, opts: { concurrency?: number; lockMs?: number; retryPolicy?: RetryPolicy } = {}): RunningWorker {
  const shutdown = new AbortController();
  const lockMs = opts.lockMs ?? deps.config.workerLockMs;
  const syncDeps = { ...deps, maxRunsPerConnector: deps.config.maxRunsPerConnector, partitionConcurrency: deps.config.partitionConcurrency, timeSlices: deps.config.timeSlices, staleRunSec: Math.max(30, (2 * lockMs) / 1000), ...(opts.retryPolicy === undefined ? {} : { retryPolicy: opts.retryPolicy }) };
  const worker = deps.queues.worker<SyncJob>(SYNC_QUEUE, syncProcessor(syncDeps, shutdown.signal), {
    concurrency: opts.concurrency ?? deps.config.workerConcurrency,
    // A job whose worker died is picked up again once its lock lapses.
    lockDuration: lockMs,
    stalledInterval: Math.max(1000, Math.floor(lockMs / 2)),
    maxStalledCount: 100,
  });
  // Once closing, a queue connection dropped by the database stopping too (the embedded stack,
  // a host shutting down) is expected: an unfinished job is redelivered from its checkpoint.
  let closing = false;
  const report = (what: string) => (e: Error) =>
    closing ? deps.logger.info({ err: { message: e.message } }, `${what} connection lost while closing`) : deps.logger.error({ err: { message: e.message } }, `${what} error`);
  worker.on('error', report('worker'));
  const scheduler = deps.queues.worker<ScheduleJob>(SCHEDULE_QUEUE, scheduleProcessor(deps), { concurrency: 2 });
  scheduler.on('error', report('schedule worker'));
  // In the background: a worker consumes jobs at once, whatever the number of connectors.
  const restoring = restoreSchedules(deps).then(
    (n) => n > 0 && deps.logger.warn({ restored: n }, 'schedulers missing from the queue were recreated for active connectors'),
    (e: unknown) => deps.logger.error({ err: { message: (e as Error).message } }, 'could not check the connectors\' schedulers; the next worker start tries again'),
  );
  return {
    worker,
    scheduler,
    close: async () => {
      closing = true;
      shutdown.abort();
      await Promise.all([worker.close(), scheduler.close(), restoring]);
    },
  };
}
