import { describe, expect, it } from 'vitest';
import { RunProgress } from '../../../src/worker/run-progress.js';

const page = (after: string) => ({ starting_after: after });

describe('RunProgress', () => {
  it('hands out partitions in order and snapshots what a resume needs', () => {
    const p = new RunProgress({ partition: 0, page: null }, 3);
    expect(p.remaining()).toBe(3);
    expect(p.claim()).toEqual({ index: 0, page: null });
    expect(p.claim()).toEqual({ index: 1, page: null });
    // Claimed but unread partitions stay open: a crash now re-reads them from their first page.
    expect(p.snapshot()).toEqual({ partition: 0, page: null, next: 2, open: [{ partition: 0, page: null }, { partition: 1, page: null }] });
    p.advance(1, page('b1'));
    p.advance(0, null);
    expect(p.snapshot()).toEqual({ partition: 1, page: page('b1'), next: 2, open: [{ partition: 1, page: page('b1') }] });
    expect(p.claim()).toEqual({ index: 2, page: null });
    expect(p.claim()).toBeNull();
    p.advance(2, null);
    p.advance(1, null);
    expect(p.snapshot()).toEqual({ partition: 3, page: null, next: 3, open: [] });
  });

  it('resumes open partitions first, from their saved page, then the ones never started', () => {
    const p = new RunProgress({ partition: 1, page: page('x'), next: 4, open: [{ partition: 3, page: null }, { partition: 1, page: page('x') }] }, 6);
    expect(p.remaining()).toBe(4);
    expect([p.claim(), p.claim(), p.claim(), p.claim(), p.claim()]).toEqual([
      { index: 1, page: page('x') },
      { index: 3, page: null },
      { index: 4, page: null },
      { index: 5, page: null },
      null,
    ]);
  });

  it('reads single-chain checkpoints (partition + page) written before parallel reads', () => {
    const mid = new RunProgress({ partition: 2, page: page('c9') }, 4);
    expect(mid.claim()).toEqual({ index: 2, page: page('c9') });
    expect(mid.claim()).toEqual({ index: 3, page: null });
    const between = new RunProgress({ partition: 2, page: null }, 4);
    expect(between.claim()).toEqual({ index: 2, page: null });
    expect(new RunProgress({ partition: 4, page: null }, 4).claim()).toBeNull();
  });
});
