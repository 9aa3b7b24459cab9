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

/** Longest wait between two 429s that only the growing floor (not the upstream) asks for. */
export const MAX_RATE_LIMIT_FLOOR_MS = 60_000;

/**
 * The wait before retrying the n-th 429 in a row (1-based): the upstream's Retry-After, but no
 * less than a floor that doubles with each 429 in a row. An upstream that keeps answering 429 with
 * `Retry-After: 0`, a second, or no header at all is not honoured by retrying at that pace
 * forever: the floor grows from `baseDelayMs` to a minute.
 */
export function rateLimitWaitMs(policy: RetryPolicy, hits: number, retryAfterSec: number | undefined): number {
  const floor = Math.min(MAX_RATE_LIMIT_FLOOR_MS, policy.baseDelayMs * 2 ** (hits - 1));
  return Math.max(floor, (retryAfterSec ?? 0) * 1000);
}

/** The wait before retrying the n-th other retryable failure: backoff, or the upstream's Retry-After (a 503's) when longer. */
function failureWaitMs(policy: RetryPolicy, failures: number, retryAfterSec: number | undefined): number {
  return Math.min(policy.maxRateLimitWaitMs, Math.max(backoffMs(policy, failures), (retryAfterSec ?? 0) * 1000));
}

/**
 * A rate limit the job is to wait out in the queue: the same error, asking for `remainingMs` (what
 * a shutdown left of the wait, or the floor's wait past the page's budget), so the job is parked
 * that long instead of the next worker calling the upstream at once.
 */
function parkedRateLimit(e: AppError, remainingMs: number): AppError {
  return new AppError('rate_limited', e.message, { retryable: true, retryAfterSec: Math.max(0, Math.ceil(remainingMs / 1000)), cause: e, upstreamStatus: e.upstreamStatus });
}

/** The connector-wide side of rate limits (connector-hold.ts): every run of a connector shares its upstream's quota. */
export interface CallGate {
  /** Resolves once the connector may be called; throws (a rate limit to park the run) when the hold is long. */
  beforeCall(): Promise<void>;
  /** A 429 asked to wait `ms`: holds every call of the connector that long. */
  rateLimited(ms: number): Promise<void>;
}

/** Calls the runtime until a page arrives or the error is not worth retrying. */
export async function fetchPage(
  runtime: ConnectorRuntime,
  call: RuntimeCall,
  opts: {
    policy?: RetryPolicy;
    signal?: AbortSignal;
    onRetry?: (e: AppError, waitMs: number) => void;
    gate?: CallGate;
    /** Checks an answer; a retryable AppError it throws (a page contradicting itself) is retried like a 5xx. */
    accept?: (page: RuntimePage) => void;
  } = {},
): Promise<RuntimePage> {
  const policy = opts.policy ?? DEFAULT_RETRY;
  let failures = 0;
  let rateLimits = 0;
  let rateLimitedMs = 0;
  const aborted = (): boolean => opts.signal?.aborted === true;
  for (;;) {
    await opts.gate?.beforeCall();
    try {
      // The shutdown signal only cuts waits short: a page in flight is finished and checkpointed.
      const page = await runtime.execute(call);
      opts.accept?.(page);
      return page;
    } catch (e) {
      if (!isAppError(e) || !e.retryable || aborted()) throw e;
      let wait: number;
      if (e.code === 'rate_limited') {
        rateLimits += 1;
        wait = rateLimitWaitMs(policy, rateLimits, e.retryAfterSec);
        rateLimitedMs += wait;
        await opts.gate?.rateLimited(wait);
        // Parked in the queue instead, for the wait (never under the upstream's Retry-After).
        if (rateLimitedMs > policy.maxRateLimitWaitMs) throw parkedRateLimit(e, wait);
      } else {
        failures += 1;
        if (failures >= policy.maxAttempts) throw e;
        wait = failureWaitMs(policy, failures, e.retryAfterSec);
      }
      opts.onRetry?.(e, wait);
      const started = performance.now();
      await sleep(wait, opts.signal);
      if (aborted()) throw e.code === 'rate_limited' ? parkedRateLimit(e, wait - (performance.now() - started)) : e;
    }
  }
}
