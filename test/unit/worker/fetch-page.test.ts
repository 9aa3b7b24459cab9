import { describe, expect, it } from 'vitest';
import type { ConnectorRuntime, RuntimeCall } from '../../../src/connectors/runtime-client.js';
import { AppError } from '../../../src/errors.js';
import { DEFAULT_RETRY, fetchPage } from '../../../src/worker/fetch-page.js';

const call: RuntimeCall = { connectorType: 'payments', credentials: {}, entity: 'customers', action: 'list', params: {} };

/** A runtime that answers every call with `error`, counting the calls. */
function failing(error: () => AppError): ConnectorRuntime & { calls: number } {
  const rt = {
    calls: 0,
    execute: async () => {
      rt.calls += 1;
      throw error();
    },
  };
  return rt as unknown as ConnectorRuntime & { calls: number };
}

describe('fetchPage rate limits', () => {
  it('a 429 with Retry-After: 0 still waits between tries and gives up when the wait budget is spent', async () => {
    const rt = failing(() => new AppError('rate_limited', 'slow down', { retryable: true, retryAfterSec: 0, upstreamStatus: 429 }));
    const policy = { ...DEFAULT_RETRY, baseDelayMs: 20, maxRateLimitWaitMs: 200 };
    const t0 = Date.now();
    await expect(fetchPage(rt, call, { policy })).rejects.toMatchObject({ code: 'rate_limited' });
    // 200 ms of budget at 20 ms a try: about ten tries, not an unbounded loop.
    expect(rt.calls).toBeGreaterThanOrEqual(5);
    expect(rt.calls).toBeLessThanOrEqual(12);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(150);
  });

  it('a 429 that asks for longer than the budget fails at once, for the job to retry later', async () => {
    const rt = failing(() => new AppError('rate_limited', 'slow down', { retryable: true, retryAfterSec: 3600, upstreamStatus: 429 }));
    await expect(fetchPage(rt, call, { policy: { ...DEFAULT_RETRY, maxRateLimitWaitMs: 60_000 } })).rejects.toMatchObject({ code: 'rate_limited' });
    expect(rt.calls).toBe(1);
  });
});
