import { describe, expect, it } from 'vitest';
import { WordMemo } from '../../../src/store/word-memo.js';

/** A small deterministic generator (xorshift32), so a failure replays. */
function rng(seed: number): () => number {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x | 0;
  };
}

describe('the word memo (an open-addressing table of entries by int32 hash)', () => {
  it('answers as a Map keyed by hash whose first entry per hash wins, through many growths', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = rng(seed);
      const memo = new WordMemo<{ hash: number; n: number }>(4);
      const ref = new Map<number, { hash: number; n: number }>();
      const n = 1 + (Math.abs(next()) % 600);
      // Hashes drawn from a range that forces repeats, and from all of int32 (negatives, 0, extremes).
      const draw = (i: number): number => (i % 3 === 0 ? next() % 50 : i % 7 === 0 ? [0, -1, 2147483647, -2147483648][i % 4] as number : next());
      for (let i = 0; i < n; i++) {
        const e = { hash: draw(i), n: i };
        expect(memo.add(e)).toBe(!ref.has(e.hash));
        if (!ref.has(e.hash)) ref.set(e.hash, e);
      }
      expect(memo.size).toBe(ref.size);
      for (const [h, e] of ref) expect(memo.get(h)).toBe(e);
      for (let i = 0; i < 50; i++) {
        const h = next();
        expect(memo.get(h)).toBe(ref.get(h));
      }
    }
  });

  it('finds entries whose hashes share a home slot (probing past each other)', () => {
    const memo = new WordMemo<{ hash: number }>(1);
    // Multiples of 2^28 differ only in their top bits, so the low bits give no spread.
    const hashes = [0, 1 << 28, 2 << 28, 3 << 28, -(1 << 28), 5 << 28, 6 << 28, 7 << 28];
    for (const hash of hashes) expect(memo.add({ hash })).toBe(true);
    for (const hash of hashes) expect(memo.get(hash)?.hash).toBe(hash);
    expect(memo.get(4 << 28)).toBeUndefined();
  });
});
