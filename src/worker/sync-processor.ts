/** The BullMQ processor of sync jobs: runs the run, and decides between retry and failure. */
import { UnrecoverableError, type Job } from 'bullmq';
import { isAppError } from '../errors.js';
import { getRun } from '../store/runs-repo.js';
import { syncJobSchema, type SyncJob } from './jobs.js';
import { executeRun, failRun, type SyncDeps } from './sync-runner.js';

/** Builds the processor; `signal` aborts between pages on shutdown (the run resumes elsewhere). */
export function syncProcessor(deps: SyncDeps, signal?: AbortSignal) {
  return async (job: Job<SyncJob>): Promise<string> => {
    const { runId } = syncJobSchema.parse(job.data);
    const log = deps.logger.child({ jobId: job.id, runId });
    try {
      return await executeRun(deps, runId, signal);
    } catch (e) {
      const retryable = isAppError(e) && e.retryable;
      const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      log.warn({ err: { code: isAppError(e) ? e.code : 'internal', message: (e as Error).message }, retryable, attempt: job.attemptsMade + 1 }, 'sync run attempt failed');
      if (retryable && !last && signal?.aborted !== true) throw e;
      if (retryable && signal?.aborted === true) throw e;
      const run = await getRun(deps.db, runId);
      if (run !== null) await failRun(deps, { id: run.id, connectorId: run.connector_id, entity: run.entity }, e);
      throw new UnrecoverableError((e as Error).message);
    }
  };
}
