import { describe, expect, it } from 'vitest';
import { sleep } from '../../../src/worker/fetch-page.js';

describe('sleep', () => {
  it('leaves no abort listener on a long-lived signal once it has waited', async () => {
    const ac = new AbortController();
    let listeners = 0;
    const add = ac.signal.addEventListener.bind(ac.signal);
    const remove = ac.signal.removeEventListener.bind(ac.signal);
    ac.signal.addEventListener = ((...a: Parameters<typeof add>) => (listeners++, add(...a))) as typeof add;
    ac.signal.removeEventListener = ((...a: Parameters<typeof remove>) => (listeners--, remove(...a))) as typeof remove;
    for (let i = 0; i < 20; i++) await sleep(1, ac.signal);
    expect(listeners).toBe(0);
  });

  it('returns early when the signal aborts, and at once when it already has', async () => {
    const ac = new AbortController();
    const t0 = Date.now();
    const p = sleep(10_000, ac.signal);
    ac.abort();
    await p;
    await sleep(10_000, ac.signal);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });
});
