/**
 * Rate limits per upstream account. Every run and partition of one connector calls the third
 * party with the same credentials, so they share its quota: a 429 one of them gets is an answer
 * to all. Its wait is stored as the connector's hold (in Postgres, migration 0011, so every
 * worker sees it), and every call of the connector first waits out the hold. Other connectors
 * are not held. Before, only the page that got the 429 waited; the connector's other runs and
 * partitions went on calling an upstream that had asked them to stop, and ran into 429s of their
 * own (a third party may escalate to a ban).
 *
 * A hold longer than a page's in-run wait budget parks the run in the queue for the rest of it,
 * as the page's own long Retry-After does; a stop (cancel, pause) or a shutdown cuts the wait.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { DB } from '../store/db.js';
import { connectorHoldMs, holdConnector } from '../store/rate-limits-repo.js';
import { sleep, type CallGate, type RetryPolicy } from './fetch-page.js';
import type { RunStop } from './run-stop.js';

/** The hold as an error that parks the job for what is left of it (sync-processor's deferral). */
function held(ms: number): AppError {
  const sec = Math.max(1, Math.ceil(ms / 1000));
  return new AppError('rate_limited', `upstream rate limit: the connector is held for ${sec} s more (a Retry-After one of its runs received)`, { retryable: true, retryAfterSec: sec });
}

/** One execution's view of its connector's hold. */
export class ConnectorHold implements CallGate {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly connectorId: string,
    private readonly stop: RunStop,
    private readonly policy: RetryPolicy,
    private readonly log: Logger,
  ) {}

  async beforeCall(): Promise<void> {
    // Again after each wait: another run may have extended the hold meanwhile.
    for (let ms = await connectorHoldMs(this.db, this.connectorId); ms > 0; ms = await connectorHoldMs(this.db, this.connectorId)) {
      if (ms > this.policy.maxRateLimitWaitMs) throw held(ms);
      this.log.info({ waitMs: ms }, 'connector held by an upstream rate limit: waiting before the next call');
      this.stop.waiting(ms);
      const started = performance.now();
      await sleep(ms, this.stop.signal);
      // Shut down: the next worker must not call before the hold ends either. Stopped: moot.
      if (this.stop.signal.aborted) throw held(ms - (performance.now() - started));
    }
  }

  async rateLimited(ms: number): Promise<void> {
    await holdConnector(this.db, this.connectorId, ms);
  }
}
