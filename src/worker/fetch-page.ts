/**
 * One page from the runtime, with the run-level fault policy: 429 waits its Retry-After and
 * does not count as a failure; 5xx, resets and timeouts back off exponentially with full jitter;
 * anything else (400/401/403) is thrown at once for the run to fail with the upstream's message.
 */
import type { ConnectorRuntime, RuntimeCall, RuntimePage } from '../connectors/runtime-client.js';
import { AppError, isAppError } from '../errors.js';

/** Retry budget of one page. */
export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** Total time a page may spend waiting on 429s before the run gives up for now. */
  readonly maxRateLimitWaitMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 6, baseDelayMs: 250, maxDelayMs: 15_000, maxRateLimitWaitMs: 10 * 60_000 };

/** Waits `ms`, or less when `signal` aborts; leaves no listener on the (process-wide) signal. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const onAbort = (): void => {
      clearTimeout(t);
      resolve();
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Full-jitter exponential backoff for attempt n (1-based). */
export function backoffMs(policy: RetryPolicy, attempt: number, random = Math.random): number {
  return Math.floor(random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1)));
}

/** Calls the runtime until a page arrives or the error is not worth retrying. */
export async function fetchPage(
  runtime: ConnectorRuntime,
  call: RuntimeCall,
  opts: { policy?: RetryPolicy; signal?: AbortSignal; onRetry?: (e: AppError, waitMs: number) => void } = {},
): Promise<RuntimePage> {
  const policy = opts.policy ?? DEFAULT_RETRY;
  let failures = 0;
  let rateLimitedMs = 0;
  for (;;) {
    try {
      // The shutdown signal only cuts waits short: a page in flight is finished and checkpointed.
      return await runtime.execute(call);
    } catch (e) {
      if (!isAppError(e) || !e.retryable || opts.signal?.aborted === true) throw e;
      let wait: number;
      if (e.code === 'rate_limited') {
        // `Retry-After: 0` (or a date already past) still waits a little and counts against the
        // budget: taken literally it would retry back to back, forever.
        wait = Math.max(policy.baseDelayMs, (e.retryAfterSec ?? 1) * 1000);
        rateLimitedMs += wait;
        if (rateLimitedMs > policy.maxRateLimitWaitMs) throw e;
      } else {
        failures += 1;
        if (failures >= policy.maxAttempts) throw e;
        wait = backoffMs(policy, failures);
      }
      opts.onRetry?.(e, wait);
      await sleep(wait, opts.signal);
    }
  }
}
