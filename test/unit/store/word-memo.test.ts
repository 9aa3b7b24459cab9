import { describe, expect, it } from 'vitest';
import { WordSet } from '../../../src/store/word-memo.js';

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

const ALPHABET = ['a', 'b', 'é', '1', 'z', '\u{1F600}'];

describe('the word set (path ids and characters in typed arrays, placed by an int32 hash)', () => {
  it('answers as a Set of (path, word), whatever the hashes, through many growths', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = rng(seed);
      const set = new WordSet(4);
      const ref = new Set<string>();
      const n = 1 + (Math.abs(next()) % 600);
      // Hashes from a tiny range: different words share hashes (and so home slots) all the time,
      // as two words whose index hashes collide do.
      const hashOf = (path: number, word: string): number => (word.length === 3 ? ([0, -1, 2147483647, -2147483648][path] as number) : (word.length * 7 + path) % 13);
      for (let i = 0; i < n; i++) {
        const len = Math.abs(next()) % 5;
        const word = Array.from({ length: len }, () => ALPHABET[Math.abs(next()) % ALPHABET.length]).join('');
        const path = Math.abs(next()) % 3;
        // The word sits inside a longer text, as a scanned word does.
        const text = `x ${word} y`;
        const key = `${path}\u0000${word}`;
        const h = hashOf(path, word);
        expect(set.has(h, path, text, 2, 2 + word.length)).toBe(ref.has(key));
        expect(set.add(h, path, text, 2, 2 + word.length)).toBe(!ref.has(key));
        ref.add(key);
      }
      expect(set.size).toBe(ref.size);
      for (const key of ref) {
        const [path, word] = key.split('\u0000') as [string, string];
        expect(set.has(hashOf(Number(path), word), Number(path), word, 0, word.length)).toBe(true);
      }
    }
  });

  it('tells apart words that share a hash, a path or a length', () => {
    const set = new WordSet(1);
    expect(set.add(7, 0, 'ada', 0, 3)).toBe(true);
    expect(set.has(7, 0, 'adb', 0, 3)).toBe(false);
    expect(set.has(7, 1, 'ada', 0, 3)).toBe(false);
    expect(set.has(7, 0, 'adam', 0, 4)).toBe(false);
    expect(set.has(8, 0, 'ada', 0, 3)).toBe(false);
    expect(set.add(7, 0, 'adb', 0, 3)).toBe(true);
    expect(set.has(7, 0, 'adb', 0, 3) && set.has(7, 0, 'ada', 0, 3)).toBe(true);
  });

  it('finds words whose hashes share a home slot (probing past each other), and forgets all on clear', () => {
    const set = new WordSet(1);
    // Multiples of 2^28 differ only in their top bits, so the low bits give no spread.
    const hashes = [0, 1 << 28, 2 << 28, 3 << 28, -(1 << 28), 5 << 28, 6 << 28, 7 << 28];
    hashes.forEach((h, i) => expect(set.add(h, 0, `w${i}`, 0, 2)).toBe(true));
    hashes.forEach((h, i) => expect(set.has(h, 0, `w${i}`, 0, 2)).toBe(true));
    expect(set.has(4 << 28, 0, 'w4', 0, 2)).toBe(false);
    set.clear();
    expect(set.size).toBe(0);
    hashes.forEach((h, i) => expect(set.has(h, 0, `w${i}`, 0, 2)).toBe(false));
    expect(set.add(hashes[3] as number, 0, 'w3', 0, 2)).toBe(true);
  });
});
