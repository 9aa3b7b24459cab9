/** The BullMQ processor of sync jobs: runs the run, and decides between retry and failure. */
import { DelayedError, UnrecoverableError, WaitingError, type Job } from 'bullmq';

/** How long a throttled run waits before trying to start again. */
export const THROTTLE_DELAY_MS = 2_000;
import { errorLog, isAppError } from '../errors.js';
import { transientDbError } from '../store/db-errors.js';
import { getRun, msSinceProgress } from '../store/runs-repo.js';
import { rateLimitDeferral, syncJobSchema, type SyncJob } from './jobs.js';
import { failRun } from './run-failure.js';
import { executeRun, type SyncDeps } from './sync-runner.js';

/** Builds the processor; `signal` aborts between pages on shutdown (the run resumes elsewhere). */
export function syncProcessor(deps: SyncDeps, signal?: AbortSignal) {
  return async (job: Job<SyncJob>, token?: string): Promise<string> => {
    const { runId } = syncJobSchema.parse(job.data);
    const log = deps.logger.child({ jobId: job.id, runId });
    const claimed: { attempt?: number } = {};
    try {
      const outcome = await executeRun(deps, runId, signal, claimed);
      if (outcome === 'throttled') {
        // The connector is at its run limit: wait without spending an attempt.
        await job.moveToDelayed(Date.now() + THROTTLE_DELAY_MS, token);
        throw new DelayedError();
      }
      return outcome;
    } catch (thrown) {
      if (thrown instanceof DelayedError || thrown instanceof WaitingError) throw thrown;
      // A database restart or deadlock mid-run is retried from the checkpoint like an upstream 5xx.
      const e = transientDbError(thrown) ?? thrown;
      // Also on shutdown: the next worker must not call an upstream that asked us to wait.
      const defer = isAppError(e) && e.code === 'rate_limited' ? rateLimitDeferral(e, (await msSinceProgress(deps.db, runId).catch(() => null)) ?? 0) : null;
      if (defer !== null) {
        log.warn({ err: errorLog(e), waitMs: defer }, 'upstream rate limit outlasts the in-run wait: run deferred to its Retry-After, no attempt spent');
        await job.moveToDelayed(Date.now() + defer, token);
        throw new DelayedError();
      }
      const retryable = isAppError(e) && e.retryable;
      const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      log.warn({ err: { code: 'internal', ...errorLog(e) }, retryable, attempt: job.attemptsMade + 1 }, 'sync run attempt failed');
      if (retryable && signal?.aborted === true) {
        // Shutting down: hand the job straight back to the queue without spending an attempt or
        // waiting out a backoff; the run resumes from its checkpoint on the next worker.
        await job.moveToWait(token);
        throw new WaitingError();
      }
      if (retryable && !last) throw e;
      const run = await getRun(deps.db, runId);
      if (run !== null) await failRun(deps, { id: run.id, connectorId: run.connector_id, entity: run.entity, ...(claimed.attempt === undefined ? {} : { attempt: claimed.attempt }) }, e);
      throw new UnrecoverableError((e as Error).message);
    }
  };
}
