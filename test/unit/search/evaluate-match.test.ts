import { describe, expect, it } from 'vitest';
import { evaluateSearch, matches } from '../../../src/search/reference/evaluate.js';
import { customers, parseF } from './fixtures.js';

/** Does `doc` match the filter (parsed against the customers target)? */
const m = (filter: unknown, doc: Record<string, unknown>): boolean => {
  const f = parseF(filter).filter;
  if (f === null) throw new Error('test filter is empty');
  return matches(f, doc);
};

/** Ids of the docs (id = index as string) matching `filter`, in evaluator order. */
const ids = (filter: unknown, docs: Record<string, unknown>[]): string[] =>
  evaluateSearch(customers, parseF(filter), docs.map((doc, i) => ({ id: String(i), doc }))).map((h) => h.id);

describe('eq / neq', () => {
  it('strings exact and case-sensitive', () => {
    expect(m({ eq: { name: 'Ann' } }, { name: 'Ann' })).toBe(true);
    expect(m({ eq: { name: 'Ann' } }, { name: 'ann' })).toBe(false);
    expect(m({ eq: { name: 'Ann' } }, { name: 'Anne' })).toBe(false);
  });
  it('numbers numerically; JSON types never mix', () => {
    expect(m({ eq: { balance: 1 } }, { balance: 1.0 })).toBe(true);
    expect(m({ eq: { balance: 0 } }, { balance: -0 })).toBe(true);
    expect(m({ eq: { 'address.n': 1 } }, { address: { n: '1' } })).toBe(false);
    expect(m({ eq: { 'address.n': '1' } }, { address: { n: 1 } })).toBe(false);
    expect(m({ eq: { 'address.n': true } }, { address: { n: 1 } })).toBe(false);
    expect(m({ eq: { active: true } }, { active: true })).toBe(true);
  });
  it('eq null ≡ missing or null (also [] and [null]); not "", 0 or false', () => {
    const q = { eq: { name: null } };
    expect(m(q, {})).toBe(true);
    expect(m(q, { name: null })).toBe(true);
    expect(m(q, { name: '' })).toBe(false);
    expect(m({ eq: { age: null } }, { age: 0 })).toBe(false);
    expect(m({ eq: { active: null } }, { active: false })).toBe(false);
    expect(m({ eq: { tags: null } }, { tags: [] })).toBe(true);
    expect(m({ eq: { tags: null } }, { tags: [null] })).toBe(true);
    expect(m({ eq: { tags: null } }, { tags: [null, 'a'] })).toBe(false);
    expect(m({ eq: { address: null } }, { address: {} })).toBe(false);
  });
  it('neq ≡ not eq: it matches missing values', () => {
    expect(m({ neq: { name: 'Ann' } }, {})).toBe(true);
    expect(m({ neq: { name: 'Ann' } }, { name: null })).toBe(true);
    expect(m({ neq: { name: 'Ann' } }, { name: 'Bob' })).toBe(true);
    expect(m({ neq: { name: 'Ann' } }, { name: 'Ann' })).toBe(false);
  });
  it('neq null ≡ present and not null', () => {
    expect(m({ neq: { name: null } }, { name: '' })).toBe(true);
    expect(m({ neq: { name: null } }, { name: null })).toBe(false);
    expect(m({ neq: { name: null } }, {})).toBe(false);
    expect(m({ neq: { address: null } }, { address: { city: null } })).toBe(true);
  });
});

describe('gt / gte / lt / lte', () => {
  it('numbers numerically, bounds inclusive only for gte/lte', () => {
    expect(m({ gt: { age: 30 } }, { age: 31 })).toBe(true);
    expect(m({ gt: { age: 30 } }, { age: 30 })).toBe(false);
    expect(m({ gte: { age: 30 } }, { age: 30 })).toBe(true);
    expect(m({ lt: { balance: 10 } }, { balance: 9.5 })).toBe(true);
    expect(m({ lte: { balance: 10 } }, { balance: 10 })).toBe(true);
    expect(m({ lt: { balance: 10 } }, { balance: 10 })).toBe(false);
    expect(m({ gt: { balance: 9 } }, { balance: 10 })).toBe(true); // not "10" < "9"
  });
  it('strings by code point: "Z" < "a" < "é" < "😀"; astral above U+FFFF', () => {
    expect(m({ gt: { name: 'Z' } }, { name: 'a' })).toBe(true);
    expect(m({ lt: { name: 'a' } }, { name: 'Z' })).toBe(true);
    expect(m({ gt: { name: 'z' } }, { name: 'é' })).toBe(true);
    expect(m({ gt: { name: '\uFFFF' } }, { name: '😀' })).toBe(true); // UTF-16 units would say less
    expect(m({ gt: { name: 'ab' } }, { name: 'abc' })).toBe(true);
    expect(m({ lt: { name: 'b' } }, { name: 'B' })).toBe(true);
  });
  it('ISO timestamps compare chronologically', () => {
    expect(m({ gte: { created: '2024-03-01T00:00:00Z' } }, { created: '2024-03-01T10:00:00Z' })).toBe(true);
    expect(m({ lt: { created: '2024-03-01' } }, { created: '2024-02-29T23:59:59Z' })).toBe(true);
  });
  it('never match missing or null', () => {
    for (const op of ['gt', 'gte', 'lt', 'lte']) {
      expect(m({ [op]: { age: 0 } }, {})).toBe(false);
      expect(m({ [op]: { age: 0 } }, { age: null })).toBe(false);
    }
  });
  it('only the same JSON type compares (dynamic paths)', () => {
    expect(m({ gt: { 'address.n': '1' } }, { address: { n: 5 } })).toBe(false);
    expect(m({ gt: { 'address.n': 1 } }, { address: { n: '5' } })).toBe(false);
    expect(m({ gt: { 'address.n': 1 } }, { address: { n: true } })).toBe(false);
    expect(m({ lte: { 'address.n': 'm' } }, { address: { n: 'a' } })).toBe(true);
  });
});

describe('in', () => {
  it('equals any; [] matches nothing; null matches absent', () => {
    expect(m({ in: { age: [1, 2] } }, { age: 2 })).toBe(true);
    expect(m({ in: { age: [1, 2] } }, { age: 3 })).toBe(false);
    expect(m({ in: { age: [] } }, { age: 1 })).toBe(false);
    expect(m({ in: { age: [] } }, {})).toBe(false);
    expect(m({ in: { age: [1, null] } }, {})).toBe(true);
    expect(m({ in: { name: ['a'] } }, { name: 'A' })).toBe(false);
    expect(m({ in: { tags: ['x', 'vip'] } }, { tags: ['new', 'vip'] })).toBe(true);
  });
});

describe('like', () => {
  it('case-insensitive; no wildcard means substring', () => {
    expect(m({ like: { email: 'EXAMPLE' } }, { email: 'ann@example.com' })).toBe(true);
    expect(m({ like: { email: 'ann@' } }, { email: 'Ann@x.io' })).toBe(true);
    expect(m({ like: { email: 'bob' } }, { email: 'ann@x.io' })).toBe(false);
  });
  it('with a wildcard the pattern is anchored', () => {
    expect(m({ like: { email: '%.com' } }, { email: 'a@b.com' })).toBe(true);
    expect(m({ like: { email: '%.com' } }, { email: 'a@b.com.au' })).toBe(false);
    expect(m({ like: { email: 'a%' } }, { email: 'ba' })).toBe(false);
    expect(m({ like: { email: '%' } }, { email: '' })).toBe(true);
    expect(m({ like: { name: 'a%b%c' } }, { name: 'AxxBxxC' })).toBe(true);
  });
  it('_ is exactly one code point', () => {
    expect(m({ like: { name: 'a_c' } }, { name: 'abc' })).toBe(true);
    expect(m({ like: { name: 'a_c' } }, { name: 'ac' })).toBe(false);
    expect(m({ like: { name: 'a_c' } }, { name: 'abbc' })).toBe(false);
    expect(m({ like: { name: 'a_c' } }, { name: 'a😀c' })).toBe(true);
    expect(m({ like: { name: 'a__c' } }, { name: 'a😀c' })).toBe(false);
  });
  it('\\ escapes: \\% and \\_ are literal; an escaped-only pattern is still a substring', () => {
    expect(m({ like: { name: '100\\%' } }, { name: 'save 100% now' })).toBe(true);
    expect(m({ like: { name: '100\\%' } }, { name: 'save 1000 now' })).toBe(false);
    expect(m({ like: { name: 'a\\_b' } }, { name: 'xa_by' })).toBe(true);
    expect(m({ like: { name: 'a\\_b' } }, { name: 'axb' })).toBe(false);
    expect(m({ like: { name: 'a\\\\b' } }, { name: 'a\\b' })).toBe(true);
    expect(m({ like: { name: '%\\%' } }, { name: '50%' })).toBe(true);
    expect(m({ like: { name: '%\\%' } }, { name: '50%!' })).toBe(false);
  });
  it('the empty pattern matches every present string only', () => {
    expect(m({ like: { name: '' } }, { name: 'x' })).toBe(true);
    expect(m({ like: { name: '' } }, {})).toBe(false);
    expect(m({ like: { name: '' } }, { name: null })).toBe(false);
  });
  it('non-strings never match', () => {
    expect(m({ like: { 'address.n': '1' } }, { address: { n: 1 } })).toBe(false);
  });
});

describe('fuzzy', () => {
  it('AUTO edits: 1–2 chars exact, 3–5 one edit, >5 two edits', () => {
    expect(m({ fuzzy: { name: 'ab' } }, { name: 'ac' })).toBe(false);
    expect(m({ fuzzy: { name: 'ab' } }, { name: 'ab' })).toBe(true);
    expect(m({ fuzzy: { name: 'jon' } }, { name: 'John' })).toBe(true); // insert
    expect(m({ fuzzy: { name: 'jhn' } }, { name: 'John' })).toBe(true);
    expect(m({ fuzzy: { name: 'smoth' } }, { name: 'smith' })).toBe(true); // substitute
    expect(m({ fuzzy: { name: 'smxxh' } }, { name: 'smith' })).toBe(false);
    expect(m({ fuzzy: { name: 'jonathon' } }, { name: 'Jonathan' })).toBe(true);
    expect(m({ fuzzy: { name: 'jxnathxn' } }, { name: 'Jonathan' })).toBe(true); // 2 edits
    expect(m({ fuzzy: { name: 'jxnxthxn' } }, { name: 'Jonathan' })).toBe(false); // 3 edits
    expect(m({ fuzzy: { name: 'smiht' } }, { name: 'smith' })).toBe(false); // transposition = 2 edits
    expect(m({ fuzzy: { name: 'abcdef' } }, { name: 'abcd' })).toBe(true); // 2 deletes
  });
  it('a term may be a prefix of a value word (any length)', () => {
    expect(m({ fuzzy: { name: 'j' } }, { name: 'John' })).toBe(true);
    expect(m({ fuzzy: { name: 'jonat' } }, { name: 'Jonathan Smith' })).toBe(true);
    expect(m({ fuzzy: { name: 'ohn' } }, { name: 'John' })).toBe(true); // 1 delete, not prefix
    expect(m({ fuzzy: { name: 'hn' } }, { name: 'John' })).toBe(false);
  });
  it('every term must match, in any order; punctuation separates words', () => {
    expect(m({ fuzzy: { name: 'smith john' } }, { name: 'John Smith' })).toBe(true);
    expect(m({ fuzzy: { name: 'smith peter' } }, { name: 'John Smith' })).toBe(false);
    expect(m({ fuzzy: { name: 'jones' } }, { name: 'smith-jones' })).toBe(true);
    expect(m({ fuzzy: { email: 'example' } }, { email: 'ann@example.com' })).toBe(true);
    expect(m({ fuzzy: { name: 'éclair' } }, { name: 'ÉCLAIR' })).toBe(true);
  });
  it('on arrays one element must hold every term', () => {
    expect(m({ fuzzy: { tags: 'red' } }, { tags: ['blue', 'red wine'] })).toBe(true);
    expect(m({ fuzzy: { tags: 'red blue' } }, { tags: ['blue', 'red'] })).toBe(false);
  });
});

describe('keyword', () => {
  it('any query word equal to a value word, case-insensitive, no fuzziness or prefix', () => {
    expect(m({ keyword: { name: 'peter SMITH' } }, { name: 'John Smith' })).toBe(true);
    expect(m({ keyword: { name: 'smit' } }, { name: 'John Smith' })).toBe(false);
    expect(m({ keyword: { name: 'smiths' } }, { name: 'John Smith' })).toBe(false);
    expect(m({ keyword: { email: 'example' } }, { email: 'a@example.com' })).toBe(true);
    expect(m({ keyword: { tags: 'vip' } }, { tags: ['new', 'VIP'] })).toBe(true);
    expect(m({ keyword: { name: 'x' } }, {})).toBe(false);
  });
});

describe('arrays: a comparison holds when any element satisfies it', () => {
  it('eq, gt, like over elements', () => {
    expect(m({ eq: { tags: 'vip' } }, { tags: ['new', 'vip'] })).toBe(true);
    expect(m({ eq: { tags: 'vip' } }, { tags: ['new'] })).toBe(false);
    expect(m({ neq: { tags: 'vip' } }, { tags: ['new', 'vip'] })).toBe(false);
    expect(m({ gt: { scores: 5 } }, { scores: [1, 7] })).toBe(true);
    expect(m({ gt: { scores: 5 } }, { scores: [1, 2] })).toBe(false);
    expect(m({ like: { tags: 'v_p' } }, { tags: ['x', 'VIP'] })).toBe(true);
    expect(m({ eq: { 'address.codes': 'b' } }, { address: { codes: ['a', 'b'] } })).toBe(true);
  });
  it('only one level is unwrapped', () => {
    expect(m({ eq: { tags: 'a' } }, { tags: [['a']] })).toBe(false);
  });
});

describe('contains', () => {
  it('the value is an array holding an equal element', () => {
    expect(m({ contains: { tags: 'vip' } }, { tags: ['vip'] })).toBe(true);
    expect(m({ contains: { tags: 'vip' } }, { tags: ['VIP'] })).toBe(false);
    expect(m({ contains: { scores: 1 } }, { scores: ['1'] })).toBe(false);
    expect(m({ contains: { tags: 'vip' } }, { tags: 'vip' })).toBe(false);
    expect(m({ contains: { tags: 'vip' } }, {})).toBe(false);
    expect(m({ contains: { 'address.codes': 2 } }, { address: { codes: [1, 2] } })).toBe(true);
  });
});

describe('any', () => {
  const doc = { orders: [{ sku: 'A', qty: 1 }, { sku: 'B', qty: 5 }, 'junk', null] };
  it('one element must satisfy the whole inner filter', () => {
    expect(m({ any: { orders: { eq: { sku: 'A' }, gte: { qty: 5 } } } }, doc)).toBe(false);
    expect(m({ any: { orders: { eq: { sku: 'B' }, gte: { qty: 5 } } } }, doc)).toBe(true);
  });
  it('paths are element-relative; non-object elements are skipped; missing and [] match nothing', () => {
    expect(m({ any: { orders: { eq: { qty: null } } } }, doc)).toBe(false);
    expect(m({ any: { orders: { eq: { note: null } } } }, doc)).toBe(true);
    expect(m({ any: { orders: { eq: { sku: null } } } }, { orders: [] })).toBe(false);
    expect(m({ any: { orders: { eq: { sku: null } } } }, {})).toBe(false);
    expect(m({ any: { orders: { eq: { sku: 'A' } } } }, { orders: { sku: 'A' } })).toBe(false);
  });
  it('nests, with sub-paths and negation inside', () => {
    const d = { orders: [{ lines: [{ item: { name: 'Pen' } }] }] };
    expect(m({ any: { orders: { any: { lines: { eq: { 'item.name': 'Pen' } } } } } }, d)).toBe(true);
    expect(m({ any: { orders: { not: { any: { lines: { eq: { 'item.name': 'Pen' } } } } } } }, d)).toBe(false);
  });
});

describe('object sub-paths', () => {
  it('step through plain objects only', () => {
    expect(m({ eq: { 'address.city': 'Oslo' } }, { address: { city: 'Oslo' } })).toBe(true);
    expect(m({ eq: { 'address.city': null } }, { address: null })).toBe(true);
    expect(m({ eq: { 'address.city': 'Oslo' } }, { address: [{ city: 'Oslo' }] })).toBe(false);
    expect(m({ eq: { 'address.geo.lat': 1 } }, { address: { geo: { lat: 1 } } })).toBe(true);
    expect(m({ eq: { 'address.toString': null } }, { address: {} })).toBe(true);
  });
});

describe('not / and / or', () => {
  it('compose as boolean logic', () => {
    const d = { age: 30, name: 'Ann' };
    expect(m({ not: { eq: { age: 30 } } }, d)).toBe(false);
    expect(m({ and: [{ eq: { age: 30 } }, { eq: { name: 'Ann' } }] }, d)).toBe(true);
    expect(m({ and: [{ eq: { age: 30 } }, { eq: { name: 'Bob' } }] }, d)).toBe(false);
    expect(m({ or: [{ eq: { age: 31 } }, { eq: { name: 'Ann' } }] }, d)).toBe(true);
    expect(m({ or: [{ eq: { age: 31 } }, { eq: { name: 'Bob' } }] }, d)).toBe(false);
    expect(m({ eq: { age: 30 }, like: { name: 'b' } }, d)).toBe(false);
  });
  it('evaluateSearch returns every match', () => {
    const docs = [{ age: 1 }, { age: 2 }, {}, { age: 3 }];
    expect(ids({ gte: { age: 2 } }, docs)).toEqual(['1', '3']);
    expect(ids({ not: { gte: { age: 2 } } }, docs)).toEqual(['0', '2']);
    expect(ids({}, docs)).toEqual(['0', '1', '2', '3']);
  });
});
