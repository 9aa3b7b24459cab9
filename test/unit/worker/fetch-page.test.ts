import { describe, expect, it } from 'vitest';
import type { ConnectorRuntime, RuntimeCall } from '../../../src/connectors/runtime-client.js';
import { AppError } from '../../../src/errors.js';
import { DEFAULT_RETRY, fetchPage, MAX_RATE_LIMIT_FLOOR_MS, rateLimitWaitMs } from '../../../src/worker/fetch-page.js';

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
  it('429s in a row without a usable Retry-After wait longer each time, and give up when the wait budget is spent', async () => {
    for (const retryAfterSec of [0, undefined]) {
      const rt = failing(() => new AppError('rate_limited', 'slow down', { retryable: true, upstreamStatus: 429, ...(retryAfterSec === undefined ? {} : { retryAfterSec }) }));
      const policy = { ...DEFAULT_RETRY, baseDelayMs: 20, maxRateLimitWaitMs: 200 };
      const waits: number[] = [];
      // The job is then parked for at least the wait the floor had reached (160 ms, asked as 1 s).
      await expect(fetchPage(rt, call, { policy, onRetry: (_e, ms) => waits.push(ms) })).rejects.toMatchObject({ code: 'rate_limited', retryAfterSec: 1 });
      // 20 + 40 + 80 fit the 200 ms budget; the fourth (160) would not: a bounded, slowing loop.
      expect([retryAfterSec, waits, rt.calls]).toEqual([retryAfterSec, [20, 40, 80], 4]);
    }
  });

  it("never waits less than the upstream's Retry-After; the floor for repeated 429s stops at a minute", () => {
    expect(rateLimitWaitMs(DEFAULT_RETRY, 1, 7)).toBe(7_000);
    expect(rateLimitWaitMs(DEFAULT_RETRY, 1, undefined)).toBe(DEFAULT_RETRY.baseDelayMs);
    expect(rateLimitWaitMs(DEFAULT_RETRY, 3, 0)).toBe(DEFAULT_RETRY.baseDelayMs * 4);
    expect(rateLimitWaitMs(DEFAULT_RETRY, 40, 1)).toBe(MAX_RATE_LIMIT_FLOOR_MS);
    expect(rateLimitWaitMs(DEFAULT_RETRY, 40, 3600)).toBe(3_600_000);
  });

  it('a shutdown during a Retry-After wait ends it at once and hands back the rest of the wait', async () => {
    const rt = failing(() => new AppError('rate_limited', 'slow down', { retryable: true, retryAfterSec: 30, upstreamStatus: 429 }));
    const stop = new AbortController();
    const t0 = Date.now();
    const e = await fetchPage(rt, call, { policy: { ...DEFAULT_RETRY, maxRateLimitWaitMs: 60_000 }, signal: stop.signal, onRetry: () => setTimeout(() => stop.abort(), 50) }).catch((x: unknown) => x);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(rt.calls).toBe(1); // no call after the shutdown
    expect(e).toMatchObject({ code: 'rate_limited', retryable: true, upstreamStatus: 429 });
    expect((e as AppError).retryAfterSec).toBeGreaterThanOrEqual(29);
    expect((e as AppError).retryAfterSec).toBeLessThanOrEqual(30);
  });

  it("a 503's Retry-After lengthens the backoff before the next try", async () => {
    const rt = failing(() => new AppError('upstream_error', 'upstream 503: maintenance', { retryable: true, retryAfterSec: 30, upstreamStatus: 503 }));
    const stop = new AbortController();
    const waits: number[] = [];
    await fetchPage(rt, call, { signal: stop.signal, onRetry: (_e, ms) => { waits.push(ms); stop.abort(); } }).catch(() => undefined);
    expect(waits).toEqual([30_000]);
  });

  it('a 429 that asks for longer than the budget fails at once, for the job to retry later', async () => {
    const rt = failing(() => new AppError('rate_limited', 'slow down', { retryable: true, retryAfterSec: 3600, upstreamStatus: 429 }));
    await expect(fetchPage(rt, call, { policy: { ...DEFAULT_RETRY, maxRateLimitWaitMs: 60_000 } })).rejects.toMatchObject({ code: 'rate_limited' });
    expect(rt.calls).toBe(1);
  });

  it('an answer `accept` refuses as retryable is asked again like a 5xx, and the refusal surfaces when it persists', async () => {
    let calls = 0;
    const rt: ConnectorRuntime = { execute: async () => ({ data: [], meta: { n: ++calls } }) };
    const accept = (page: { meta: Record<string, unknown> }): void => {
      if (Number(page.meta.n) < 3) throw new AppError('upstream_error', 'contradicts itself', { retryable: true });
    };
    const policy = { ...DEFAULT_RETRY, baseDelayMs: 1, maxDelayMs: 2 };
    expect((await fetchPage(rt, call, { policy, accept })).meta.n).toBe(3);
    await expect(fetchPage(rt, call, { policy, accept: () => accept({ meta: { n: 0 } }) })).rejects.toThrow('contradicts itself');
  });
});
