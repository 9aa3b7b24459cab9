import { describe, expect, it } from 'vitest';
import { compareScalars } from '../../../../src/search/reference/order.js';
import { capString, indexDocument, MISSING_SORT_KEY, slotOf, sortKeyOf } from '../../../../src/search/opensearch/derive.js';
import { DOC_FORMAT, STRING_CAP, wordTag } from '../../../../src/search/opensearch/names.js';
import { customers, rng } from '../fixtures.js';

describe('indexDocument', () => {
  it('keeps the projection verbatim and adds the derived sx object', () => {
    const doc = {
      id: 'cus_1',
      name: 'Ann-Marie Café',
      age: 42,
      active: true,
      address: { city: 'Paris', geo: { lat: 48.8 }, lines: ['1 rue', null] },
      tags: ['vip', 'Early Bird'],
      orders: [{ sku: 'A-1', qty: 2 }, 'stray', { items: [{ sku: 'B' }] }],
    };
    const indexed = indexDocument(customers, 'conn-1', 'cus_1', '17', doc);
    const { sx, ...source } = indexed as { sx: unknown };
    expect(source).toEqual(doc);
    expect(sx).toMatchInlineSnapshot(`
      {
        "c": "conn-1",
        "f": {
          "active": {
            "b": [
              true,
            ],
            "o": "31",
            "p": true,
          },
          "age": {
            "n": [
              42,
            ],
            "o": "1c045000000000000",
            "p": true,
          },
          "id": {
            "l": [
              "cus_1",
            ],
            "o": "2cus_1",
            "p": true,
            "s": [
              "cus_1",
            ],
            "w": [
              "eNvs8gcus",
              "eNvs8g1",
            ],
          },
          "name": {
            "l": [
              "ann-marie café",
            ],
            "o": "2Ann-Marie Café",
            "p": true,
            "s": [
              "Ann-Marie Café",
            ],
            "w": [
              "eNvs8gann",
              "eNvs8gmarie",
              "eNvs8gcafé",
            ],
          },
        },
        "id": "cus_1",
        "v": "17",
        "x": [
          {
            "k": "["address"]",
            "p": true,
          },
          {
            "k": "["address","city"]",
            "l": [
              "paris",
            ],
            "o": "2Paris",
            "p": true,
            "s": [
              "Paris",
            ],
            "w": [
              "eNvs8gparis",
            ],
          },
          {
            "k": "["address","geo"]",
            "p": true,
          },
          {
            "k": "["address","geo","lat"]",
            "n": [
              48.8,
            ],
            "o": "1c048666666666666",
            "p": true,
          },
          {
            "a": true,
            "k": "["address","lines"]",
            "l": [
              "1 rue",
            ],
            "p": true,
            "s": [
              "1 rue",
            ],
            "w": [
              "eNvs8g1",
              "eNvs8grue",
            ],
          },
          {
            "a": true,
            "k": "["tags"]",
            "l": [
              "vip",
              "early bird",
            ],
            "p": true,
            "s": [
              "vip",
              "Early Bird",
            ],
            "t": [
              {
                "w": [
                  "eNvs8gvip",
                ],
              },
              {
                "w": [
                  "eNvs8gearly",
                  "eNvs8gbird",
                ],
              },
            ],
          },
          {
            "a": true,
            "e": [
              {
                "i": 0,
                "x": [
                  {
                    "k": "["sku"]",
                    "l": [
                      "a-1",
                    ],
                    "p": true,
                    "s": [
                      "A-1",
                    ],
                    "w": [
                      "eNvs8ga",
                      "eNvs8g1",
                    ],
                  },
                  {
                    "k": "["qty"]",
                    "n": [
                      2,
                    ],
                    "p": true,
                  },
                ],
              },
              {
                "i": 2,
                "x": [
                  {
                    "a": true,
                    "e": [
                      {
                        "i": 0,
                        "x": [
                          {
                            "k": "["sku"]",
                            "l": [
                              "b",
                            ],
                            "p": true,
                            "s": [
                              "B",
                            ],
                            "w": [
                              "eNvs8gb",
                            ],
                          },
                        ],
                      },
                    ],
                    "k": "["items"]",
                    "p": true,
                  },
                ],
              },
            ],
            "k": "["orders"]",
            "l": [
              "stray",
            ],
            "p": true,
            "s": [
              "stray",
            ],
            "w": [
              "eNvs8gstray",
            ],
          },
        ],
      }
    `);
  });

  it('records wrong JSON types as they are: presence and sort key, never a typed candidate', () => {
    const sx = (indexDocument(customers, 'c', 'r', '1', { age: '42', name: 7, active: null, balance: [1, 2] }) as any).sx;
    expect(sx.f).toEqual({
      age: { p: true, o: '242' },
      name: { p: true, o: '1c01c000000000000' },
      active: { p: false },
      balance: { p: true, n: [1, 2] },
    });
  });
});

describe('word tags (document format 2)', () => {
  it("puts every word, flat, grouped and in nested entries and elements, behind the connector's tag; format 1 keeps words as they are", () => {
    const doc = { name: 'Ada Lovelace', tags: ['a b', 'c'], address: { city: 'Pro Max' }, orders: [{ sku: 'Lamp 1' }] };
    const tag = wordTag(DOC_FORMAT, 'conn-1');
    const all = (sx: unknown): string[] => JSON.stringify(sx).match(/"w":\[[^\]]*\]/g)?.flatMap((m) => JSON.parse(m.slice(4)) as string[]) ?? [];
    const tagged = all(indexDocument(customers, 'conn-1', 'r', '1', doc).sx);
    const plain = all(indexDocument(customers, 'conn-1', 'r', '1', doc, wordTag(1, 'conn-1')).sx);
    expect(plain.length).toBeGreaterThan(0);
    expect(tagged).toEqual(plain.map((w) => tag + w));
    expect(plain).toEqual(expect.arrayContaining(['ada', 'lovelace', 'a', 'b', 'c', 'pro', 'max', 'lamp']));
    // Another connector's tag differs (a shared tag would still be separated by sx.c).
    expect(wordTag(DOC_FORMAT, 'conn-2')).not.toBe(tag);
    expect(wordTag(1, 'conn-1')).toBe('');
  });
});

describe('slotOf', () => {
  it('one string: flat words; two or more strings: one nested group each (fuzzy needs ONE string)', () => {
    expect(slotOf('Hello, World!', false)).toEqual({ p: true, s: ['Hello, World!'], l: ['hello, world!'], w: ['hello', 'world'] });
    expect(slotOf(['a b', 'c', 3, null], false)).toEqual({
      p: true, a: true, n: [3], s: ['a b', 'c'], l: ['a b', 'c'], t: [{ w: ['a', 'b'] }, { w: ['c'] }],
    });
  });

  it('absent values: missing, null, [] and [null] are not present; objects are', () => {
    expect(slotOf(undefined, true)).toEqual({ p: false });
    expect(slotOf(null, true)).toEqual({ p: false });
    expect(slotOf([], true)).toEqual({ p: false, a: true });
    expect(slotOf([null], true)).toEqual({ p: false, a: true });
    expect(slotOf({}, true)).toEqual({ p: true });
  });
});

describe('sortKeyOf', () => {
  it('encodes numbers < strings < booleans, missing beyond both ends', () => {
    expect(sortKeyOf(0)).toBe('18000000000000000');
    expect(sortKeyOf(-0)).toBe(sortKeyOf(0));
    expect(sortKeyOf(-1)).toBe('1400fffffffffffff');
    expect(sortKeyOf('abc')).toBe('2abc');
    expect(sortKeyOf(false)).toBe('30');
    expect(sortKeyOf(true)).toBe('31');
    expect(sortKeyOf(null)).toBeNull();
    expect(MISSING_SORT_KEY.asc > (sortKeyOf(true) as string)).toBe(true);
    expect(MISSING_SORT_KEY.desc < (sortKeyOf(-Number.MAX_VALUE) as string)).toBe(true);
  });

  it('orders keys by UTF-8 bytes exactly as the reference orders scalars (randomized)', () => {
    const next = rng(7);
    const pool = ['', 'a', 'Z', 'é', '😀', 'ab', 'a\u0000', '\uffff', '𐀀'];
    const scalar = (): string | number | boolean => {
      const r = next();
      if (r < 0.4) return (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20) * (next() < 0.1 ? 0 : 1);
      if (r < 0.8) return Array.from({ length: Math.floor(next() * 3) }, () => pool[Math.floor(next() * pool.length)]).join('');
      return next() < 0.5;
    };
    const bytes = (s: string) => Buffer.from(s, 'utf8');
    for (let i = 0; i < 3000; i += 1) {
      const a = scalar();
      const b = scalar();
      const viaKeys = Math.sign(Buffer.compare(bytes(sortKeyOf(a) as string), bytes(sortKeyOf(b) as string)));
      expect([a, b, viaKeys]).toEqual([a, b, Math.sign(compareScalars(a, b))]);
    }
  });
});

describe('capString', () => {
  it(`keeps the first ${STRING_CAP} code points (Lucene's term limit), counting astral characters once`, () => {
    expect(capString('short')).toBe('short');
    const long = '😀'.repeat(STRING_CAP + 5);
    expect(Array.from(capString(long))).toHaveLength(STRING_CAP);
    expect(Buffer.byteLength(sortKeyOf(long) as string)).toBeLessThan(32766);
  });
});
