import { describe, expect, it } from 'vitest';
import { utf8Text } from '../../../src/connectors/utf8-text.js';
import { rng } from '../search/fixtures.js';

/** Code points from every range a page may hold: ASCII, Latin-1, the rest of the BMP, and beyond it (surrogate pairs in a string). */
function randomText(next: () => number, length: number): string {
  const ranges = [[0x20, 0x7e], [0x00, 0x1f], [0x80, 0xff], [0x100, 0xd7ff], [0xe000, 0xfffd], [0x10000, 0x10ffff]] as const;
  let s = '';
  for (let i = 0; i < length; i++) {
    // Mostly ASCII, as pages are, with the other ranges mixed in.
    const [lo, hi] = next() < 0.7 ? ranges[0] : ranges[1 + Math.floor(next() * (ranges.length - 1))]!;
    s += String.fromCodePoint(lo + Math.floor(next() * (hi - lo + 1)));
  }
  return s;
}

describe('utf8Text', () => {
  it('gives the string toString("utf8") gives, for ASCII, Latin-1, BMP and astral text', () => {
    const next = rng(38);
    for (let i = 0; i < 500; i++) {
      const s = randomText(next, Math.floor(next() * 300));
      const bytes = Buffer.from(s, 'utf8');
      expect(utf8Text(bytes)).toEqual({ text: s, valid: true });
    }
    expect(utf8Text(Buffer.alloc(0))).toEqual({ text: '', valid: true });
  });

  it('decodes invalid bytes as toString("utf8") does, and says they are invalid', () => {
    const next = rng(83);
    const cases = [Buffer.from([0xc3]), Buffer.from([0x61, 0xff, 0x62]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xf4, 0x90, 0x80, 0x80])];
    for (let i = 0; i < 300; i++) {
      const valid = Buffer.from(randomText(next, 40), 'utf8');
      // A valid text with one byte overwritten by a random one: most such buffers are invalid.
      valid[Math.floor(next() * valid.length)] = 0x80 + Math.floor(next() * 0x80);
      cases.push(valid);
    }
    for (const bytes of cases) {
      const got = utf8Text(bytes);
      expect(got.text).toBe(bytes.toString('utf8'));
      expect(got.valid).toBe(Buffer.from(got.text, 'utf8').equals(bytes));
    }
  });
});
