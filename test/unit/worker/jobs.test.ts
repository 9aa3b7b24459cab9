import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { RATE_LIMIT_BUDGET_MS, rateLimitDeferral, syncJobSchema } from '../../../src/worker/jobs.js';

const limited = (retryAfterSec?: number) => new AppError('rate_limited', 'upstream rate limit', { retryable: true, ...(retryAfterSec === undefined ? {} : { retryAfterSec }) });

describe('rateLimitDeferral', () => {
  it("defers to the upstream's Retry-After, a minute when it gave none, never under a second", () => {
    expect(rateLimitDeferral(limited(3600), 0)).toBe(3_600_000);
    expect(rateLimitDeferral(limited(), 0)).toBe(60_000);
    expect(rateLimitDeferral(limited(0), 0)).toBe(1_000);
  });
  it('stops deferring once the run would go past its budget without writing a page: the retry policy then fails it', () => {
    expect(rateLimitDeferral(limited(3600), RATE_LIMIT_BUDGET_MS - 3_600_000)).toBe(3_600_000);
    expect(rateLimitDeferral(limited(3600), RATE_LIMIT_BUDGET_MS - 3_599_999)).toBeNull();
  });
  it('leaves every other failure to the retry policy', () => {
    expect(rateLimitDeferral(new AppError('upstream_error', 'HTTP 503', { retryable: true, retryAfterSec: 5 }), 0)).toBeNull();
    expect(rateLimitDeferral(new Error('socket hang up'), 0)).toBeNull();
  });
  it('job payloads carry the run id; the deferral sum older versions wrote still parses', () => {
    expect(syncJobSchema.parse({ runId: '7' })).toEqual({ runId: '7' });
    expect(syncJobSchema.parse({ runId: '7', rateLimitedMs: 4000 })).toEqual({ runId: '7', rateLimitedMs: 4000 });
    expect(() => syncJobSchema.parse({ runId: 'x' })).toThrow();
  });
});
