import { describe, expect, it } from 'vitest';
import { jsonbArray, jsonbArrayOfTexts } from '../../../src/store/jsonb-binary.js';

/** The JSON text after jsonb's version byte, parsed. */
const parsed = (b: Buffer): unknown => {
  expect(b[0]).toBe(1);
  return JSON.parse(b.subarray(1).toString('utf8'));
};

describe('jsonbArray', () => {
  it('is the values as one array whatever their number, chunk boundaries included', () => {
    for (const n of [0, 1, 31, 32, 33, 64, 65, 200]) {
      const values = Array.from({ length: n }, (_, i) => ({ i, s: `é ${i} 𝄞 "q" \\ \u2028`, n: i % 3 === 0 ? null : [i] }));
      expect(parsed(jsonbArray(values))).toEqual(values);
    }
  });

  it('sizes its buffer exactly: no stray bytes after the closing bracket', () => {
    const b = jsonbArray(Array.from({ length: 70 }, (_, i) => `ünï ${i}`));
    expect(b[b.length - 1]).toBe(0x5d);
    expect(b.length).toBe(1 + Buffer.byteLength(JSON.stringify(Array.from({ length: 70 }, (_, i) => `ünï ${i}`))));
  });
});

describe('jsonbArrayOfTexts', () => {
  it('joins JSON texts as they are into one array', () => {
    const texts = ['{"a": 1}', '[ 2 ]', '"ü"'].map((t) => Buffer.from(t));
    expect(parsed(jsonbArrayOfTexts(texts))).toEqual([{ a: 1 }, [2], 'ü']);
    expect(parsed(jsonbArrayOfTexts([]))).toEqual([]);
  });
});
