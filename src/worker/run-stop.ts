/**
 * Notices that an operator stopped a run (a cancel, or a pause, which cancels its connector's
 * runs) while the run waits: a 429's Retry-After, a backoff, its connector's rate-limit hold.
 * Such waits used to run to their end (up to 10 minutes a page) and then call the upstream once
 * more before the page write found the run cancelled. While the run waits, its row is read every
 * second; once this execution no longer owns the run, the run's signal aborts, which ends the wait.
 * Between waits nothing is polled: page writes are fenced on the run's status anyway.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../store/db.js';
import { ownsRun } from '../store/runs-repo.js';
import { RunNotRunning } from './page-writer.js';

/** How often a waiting run reads its status: a stop takes effect within about this long. */
export const STOP_POLL_MS = 1_000;

/** One execution's stop watch; `signal` replaces the worker's shutdown signal for the run. */
export class RunStop {
  private readonly stop = new AbortController();
  /** Aborts when the worker shuts down or when the run was stopped. */
  readonly signal: AbortSignal;
  private watchUntil = 0;
  private timer: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly run: { readonly id: string; readonly attempts: number },
    shutdown?: AbortSignal,
    private readonly pollMs = STOP_POLL_MS,
  ) {
    this.signal = shutdown === undefined ? this.stop.signal : AbortSignal.any([shutdown, this.stop.signal]);
  }

  /** True once the run was found stopped (a shutdown alone is not a stop: that run resumes elsewhere). */
  get stopped(): boolean {
    return this.stop.signal.aborted;
  }

  /** The run is about to wait `ms`: watch its status until then. */
  waiting(ms: number): void {
    this.watchUntil = Math.max(this.watchUntil, Date.now() + ms);
    if (this.timer !== null || this.signal.aborted) return;
    this.timer = setInterval(() => void this.poll(), this.pollMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    if (Date.now() >= this.watchUntil || this.signal.aborted) return this.close();
    if (this.polling) return;
    this.polling = true;
    try {
      if (!(await ownsRun(this.db, this.run.id, this.run.attempts))) this.stop.abort(new RunNotRunning(this.run.id));
    } catch {
      // A failed read is no stop: the next poll, or the fenced page write, decides.
    } finally {
      this.polling = false;
    }
  }

  /** Stops watching (the execution ended). */
  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
