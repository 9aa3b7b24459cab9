/**
 * The job catalog: queue name → zod payload schema and retry policy. Payloads carry ids only;
 * the run row in Postgres holds the state, so a retried job resumes from the run's checkpoint.
 */
import { z } from 'zod';
import { AppError } from '../errors.js';

export const SYNC_QUEUE = 'syncdex-sync';

/**
 * A sync job runs one sync_runs row. `rateLimitedMs` was written by versions that summed
 * deferrals in the payload; it is accepted and ignored (the run row now says how long the run
 * has gone without progress).
 */
export const syncJobSchema = z.object({ runId: z.string().regex(/^\d+$/), rateLimitedMs: z.number().int().nonnegative().optional() });
export type SyncJob = z.infer<typeof syncJobSchema>;

/**
 * Job attempts and backoff: a run that keeps failing retryably is retried from its checkpoint.
 * Half the delay is random, so the runs one upstream outage failed together do not all come back
 * in the same second.
 */
export const SYNC_RETRY = { attempts: 5, backoff: { type: 'exponential', delay: 2_000, jitter: 0.5 } } as const;

/** BullMQ job id of a run: one job per run, so enqueuing twice is a no-op. */
export const syncJobId = (runId: string): string => `run-${runId}`;

/** Longest time a run may go without writing a page while deferred for upstream rate limits before it fails. */
export const RATE_LIMIT_BUDGET_MS = 24 * 3_600_000;

/**
 * How long to defer a job whose run hit a rate limit it could not wait out in process (a
 * `Retry-After` beyond the page's wait budget, hourly quotas send 3600, or a shutdown cutting the
 * wait short): the job sleeps in the queue until then without spending an attempt, as DESIGN §5
 * asks ("without failing the run"). Null when `e` is not a rate limit, or when the run, which has
 * gone `stalledMs` without writing a page, would pass `budgetMs` without one; then the usual retry
 * policy applies and the run eventually fails with the upstream's message. A long sync that keeps
 * writing pages between quota windows is never failed for them.
 */
export function rateLimitDeferral(e: unknown, stalledMs: number, budgetMs = RATE_LIMIT_BUDGET_MS): number | null {
  if (!(e instanceof AppError) || e.code !== 'rate_limited') return null;
  const wait = Math.max(1_000, (e.retryAfterSec ?? 60) * 1_000);
  return stalledMs + wait > budgetMs ? null : wait;
}
