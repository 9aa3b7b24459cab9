/**
 * The job catalog: queue name → zod payload schema and retry policy. Payloads carry ids only;
 * the run row in Postgres holds the state, so a retried job resumes from the run's checkpoint.
 */
import { z } from 'zod';

export const SYNC_QUEUE = 'syncdex-sync';

/** A sync job runs one sync_runs row. */
export const syncJobSchema = z.object({ runId: z.string().regex(/^\d+$/) });
export type SyncJob = z.infer<typeof syncJobSchema>;

/** Job attempts and backoff: a run that keeps failing retryably is retried from its checkpoint. */
export const SYNC_RETRY = { attempts: 5, backoff: { type: 'exponential', delay: 2_000 } } as const;

/** BullMQ job id of a run: one job per run, so enqueuing twice is a no-op. */
export const syncJobId = (runId: string): string => `run-${runId}`;
