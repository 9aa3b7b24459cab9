import { describe, expect, it } from 'vitest';
import { PageCycleGuard, pageFingerprint } from '../../../src/worker/page-cycle.js';

/** Feeds pages until the guard fires; the index of the page it fired on, or null. */
function firstRepeat(pages: Iterable<string>, limit = 100_000): number | null {
  const guard = new PageCycleGuard();
  let i = 0;
  for (const p of pages) {
    if (guard.repeats(p)) return i;
    if (++i >= limit) break;
  }
  return null;
}

function* cycle(prefix: number, length: number): Generator<string> {
  for (let i = 0; i < prefix; i++) yield `pre-${i}`;
  for (let i = 0; ; i++) yield `loop-${i % length}`;
}

describe('PageCycleGuard', () => {
  it('fires on the second copy of a page an upstream keeps returning', () => {
    expect(firstRepeat(cycle(0, 1))).toBe(1);
    expect(firstRepeat(cycle(7, 1))).toBeLessThanOrEqual(16);
  });
  it('finds token cycles of any length within about twice the pages read before the repeat', () => {
    for (const [prefix, length] of [[0, 2], [3, 2], [10, 5], [100, 37], [1000, 999]] as const) {
      const at = firstRepeat(cycle(prefix, length));
      expect(at, `${prefix}+${length}`).not.toBeNull();
      expect(at!, `${prefix}+${length}`).toBeLessThanOrEqual(2 * (prefix + length) + length);
    }
  });
  it('never fires on pages that do not repeat', () => {
    function* distinct() {
      for (let i = 0; ; i++) yield `page-${i}`;
    }
    expect(firstRepeat(distinct(), 50_000)).toBeNull();
  });
});

const page = (...ids: string[]) => ids.map((id) => ({ id }));

describe('pageFingerprint', () => {
  it('tells pages apart by length and first and last id; an empty page has none', () => {
    expect(pageFingerprint(page())).toBeNull();
    expect(pageFingerprint(page('a', 'b', 'c'))).toBe(pageFingerprint(page('a', 'x', 'c')));
    expect(pageFingerprint(page('a', 'b', 'c'))).not.toBe(pageFingerprint(page('a', 'c')));
    expect(pageFingerprint(page('a', 'b'))).not.toBe(pageFingerprint(page('b', 'a')));
  });
});
