import { describe, expect, it } from 'vitest';
import {
  compareCodePoints,
  compareScalars,
  evaluatePage,
  evaluateSearch,
  projectDoc,
  scoreOf,
  sortValuesOf,
} from '../../../src/search/reference/evaluate.js';
import { customers, parse, parseF, rng } from './fixtures.js';

type Doc = Record<string, unknown>;
const recs = (docs: Record<string, Doc>) => Object.entries(docs).map(([id, doc]) => ({ id, doc }));
const run = (params: unknown, docs: Record<string, Doc>) => evaluateSearch(customers, parse(params), recs(docs));
const order = (params: unknown, docs: Record<string, Doc>) => run(params, docs).map((h) => h.id);
const score = (filter: unknown, doc: Doc): number => {
  const f = parseF(filter).filter;
  if (f === null) throw new Error('empty filter');
  return scoreOf(f, doc);
};

describe('score', () => {
  it('1 for every hit of an unscored filter (and of no filter)', () => {
    expect(run({ query: { filter: { gt: { age: 1 } } } }, { a: { age: 2 }, b: { age: 3 } }).map((h) => h.score)).toEqual([1, 1]);
    expect(run({ query: {} }, { a: {} })[0]?.score).toBe(1);
  });
  it('fuzzy: exact word 1, prefix 0.5, one edit 0.5, two edits 0.25, summed over terms', () => {
    expect(score({ fuzzy: { name: 'john' } }, { name: 'John Smith' })).toBe(1);
    expect(score({ fuzzy: { name: 'jo' } }, { name: 'John' })).toBe(0.5);
    expect(score({ fuzzy: { name: 'jhn' } }, { name: 'John' })).toBe(0.5);
    expect(score({ fuzzy: { name: 'jxnathxn' } }, { name: 'Jonathan' })).toBe(0.25);
    expect(score({ fuzzy: { name: 'john smyth' } }, { name: 'John Smith' })).toBe(1.5);
    expect(score({ fuzzy: { name: 'john jo' } }, { name: 'John' })).toBe(1.5); // both terms may use one word
    expect(score({ fuzzy: { name: 'john' } }, { name: 'Jon John' })).toBe(1); // best word
    expect(score({ fuzzy: { name: 'peter' } }, { name: 'John' })).toBe(0); // no match
  });
  it('keyword: number of terms found; repeated query words count once', () => {
    expect(score({ keyword: { name: 'john smith peter' } }, { name: 'John Smith' })).toBe(2);
    expect(score({ keyword: { name: 'john john' } }, { name: 'John' })).toBe(1);
  });
  it('arrays: the best element', () => {
    expect(score({ keyword: { tags: 'red wine' } }, { tags: ['red', 'red wine', 'wine'] })).toBe(2);
    expect(score({ fuzzy: { tags: 'rex' } }, { tags: ['red', 'rex'] })).toBe(1);
  });
  it('and sums, or sums matching branches only, not adds 0, other operators add 0', () => {
    const d = { name: 'John Smith', email: 'john@x.io', age: 3 };
    expect(score({ and: [{ keyword: { name: 'john' } }, { fuzzy: { email: 'jo' } }] }, d)).toBe(1.5);
    expect(score({ keyword: { name: 'john' }, eq: { age: 3 } }, d)).toBe(1);
    expect(score({ or: [{ keyword: { name: 'john' } }, { keyword: { email: 'nobody' } }, { keyword: { email: 'john' } }] }, d)).toBe(2);
    expect(score({ or: [{ eq: { age: 3 } }, { keyword: { name: 'peter' } }] }, d)).toBe(0);
    expect(score({ not: { keyword: { name: 'peter' } } }, d)).toBe(0);
    expect(score({ and: [{ not: { keyword: { name: 'peter' } } }, { keyword: { name: 'smith' } }] }, d)).toBe(1);
  });
  it('any: the best matching element', () => {
    const d = { orders: [{ title: 'blue pen' }, { title: 'blue pen case' }, { title: 'red' }] };
    expect(score({ any: { orders: { keyword: { title: 'blue pen case' } } } }, d)).toBe(3);
  });
  it('a non-matching doc scores 0', () => {
    expect(score({ and: [{ keyword: { name: 'john' } }, { eq: { age: 9 } }] }, { name: 'John', age: 1 })).toBe(0);
  });
  it('default scored order: score desc, then id asc', () => {
    const docs = { c: { name: 'Jon' }, b: { name: 'John' }, a: { name: 'Jon' }, d: { name: 'Johnny' }, e: { name: 'Peter' } };
    const hits = run({ query: { filter: { fuzzy: { name: 'john' } } } }, docs);
    expect(hits.map((h) => [h.id, h.score])).toEqual([['b', 1], ['a', 0.5], ['c', 0.5], ['d', 0.5]]);
  });
  it('fuzzy only under not: scored, every hit scores 0, id order', () => {
    expect(run({ query: { filter: { not: { fuzzy: { name: 'zed' } } } } }, { b: { name: 'x' }, a: {} }).map((h) => [h.id, h.score])).toEqual([
      ['a', 0],
      ['b', 0],
    ]);
  });
});

describe('order', () => {
  it('compareCodePoints is code point order (= UTF-8 byte order), not UTF-16 or locale', () => {
    expect(compareCodePoints('Z', 'a')).toBeLessThan(0);
    expect(compareCodePoints('a', 'é')).toBeLessThan(0);
    expect(compareCodePoints('\uFFFF', '😀')).toBeLessThan(0);
    expect(compareCodePoints('ab', 'abc')).toBeLessThan(0);
    expect(compareCodePoints('', '')).toBe(0);
    const next = rng(7);
    const alphabet = ['a', 'Z', 'é', '\uFFFF', '😀', '\uE000', '0', ' '];
    const gen = () => Array.from({ length: Math.floor(next() * 5) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    for (let i = 0; i < 500; i += 1) {
      const a = gen();
      const b = gen();
      expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
    }
  });
  it('mixed JSON types: numbers < strings < booleans (false < true)', () => {
    expect(compareScalars(99, 'a')).toBeLessThan(0);
    expect(compareScalars('z', false)).toBeLessThan(0);
    expect(compareScalars(false, true)).toBeLessThan(0);
    expect(compareScalars(2, 10)).toBeLessThan(0);
    const docs = { a: { address: { k: true } }, b: { address: { k: 'x' } }, c: { address: { k: 3 } }, d: { address: { k: [1] } }, e: { address: { k: false } } };
    expect(order({ query: { sort: [{ 'address.k': 'asc' }] } }, docs)).toEqual(['c', 'b', 'e', 'a', 'd']);
    expect(order({ query: { sort: [{ 'address.k': 'desc' }] } }, docs)).toEqual(['a', 'e', 'b', 'c', 'd']);
  });
  it('missing and null sort last in both directions', () => {
    const docs = { a: { age: 2 }, b: {}, c: { age: 10 }, d: { age: null }, e: { age: 1 } };
    expect(order({ query: { sort: [{ age: 'asc' }] } }, docs)).toEqual(['e', 'a', 'c', 'b', 'd']);
    expect(order({ query: { sort: [{ age: 'desc' }] } }, docs)).toEqual(['c', 'a', 'e', 'b', 'd']);
  });
  it('strings sort by code point', () => {
    const docs = { a: { name: 'é' }, b: { name: 'a' }, c: { name: 'Z' }, d: { name: '😀' }, e: { name: '\uFFFF' } };
    expect(order({ query: { sort: [{ name: 'asc' }] } }, docs)).toEqual(['c', 'b', 'a', 'e', 'd']);
  });
  it('ties break by later keys, then record id ascending by code point', () => {
    const docs = { b: { age: 1, name: 'x' }, a: { age: 1, name: 'x' }, B: { age: 1, name: 'x' }, c: { age: 1, name: 'a' }, é: { age: 0 } };
    expect(order({ query: { sort: [{ age: 'desc' }, { name: 'asc' }] } }, docs)).toEqual(['c', 'B', 'a', 'b', 'é']);
    expect(order({ query: {} }, { b: {}, a: {}, A: {}, '10': {}, '9': {} })).toEqual(['10', '9', 'A', 'a', 'b']);
  });
  it('an explicit id-field sort keeps its direction', () => {
    const docs = { a: { id: 'a' }, b: { id: 'b' }, c: { id: 'c' } };
    expect(order({ query: { sort: [{ id: 'desc' }] } }, docs)).toEqual(['c', 'b', 'a']);
  });
  it('sortValuesOf gives one value per key, score and id included, missing as null', () => {
    const q = parse({ query: { filter: { keyword: { name: 'ann' } }, sort: [{ age: 'asc' }, { 'address.city': 'desc' }] } });
    expect(sortValuesOf(q.sort, { id: 'x', score: 1, doc: { age: 3, address: { city: {} } } })).toEqual([3, null, 'x']);
    const d = parse({ query: { filter: { keyword: { name: 'ann' } } } });
    expect(sortValuesOf(d.sort, { id: 'x', score: 2, doc: {} })).toEqual([2, 'x']);
  });
});

describe('keyset paging (evaluatePage)', () => {
  const next = rng(42);
  const docs: Record<string, Doc> = {};
  for (let i = 0; i < 57; i += 1) {
    const r = next();
    docs[`r${String(i).padStart(2, '0')}`] = r < 0.2 ? {} : { age: Math.floor(r * 6), name: ['ann', 'anna', 'bob'][i % 3] };
  }
  const cases: unknown[] = [
    { query: {} },
    { query: { sort: [{ age: 'desc' }] } },
    { query: { sort: [{ age: 'asc' }, { name: 'desc' }] } },
    { query: { filter: { fuzzy: { name: 'ann' } } } },
  ];
  for (const params of cases) {
    it(`pages through every hit exactly once: ${JSON.stringify(params)}`, () => {
      const q = parse({ ...(params as object), limit: 7 });
      const all = evaluateSearch(customers, q, recs(docs)).map((h) => h.id);
      const seen: string[] = [];
      let after: unknown[] | null = null;
      for (let guard = 0; guard < 100; guard += 1) {
        const page: ReturnType<typeof evaluatePage> = evaluatePage(customers, q, recs(docs), after);
        seen.push(...page.hits.map((h) => h.id));
        if (page.nextAfter === null) break;
        after = JSON.parse(JSON.stringify(page.nextAfter)) as unknown[];
      }
      expect(seen).toEqual(all);
    });
  }
  it('nextAfter is null exactly when no further hit exists', () => {
    const q = parse({ query: {}, limit: 2 });
    expect(evaluatePage(customers, q, recs({ a: {}, b: {} }), null).nextAfter).toBeNull();
    expect(evaluatePage(customers, q, recs({ a: {}, b: {}, c: {} }), null).nextAfter).toEqual(['b']);
  });
});

describe('projectDoc', () => {
  const doc = { id: 'x', name: 'Ann', secret: 1, address: { city: 'Oslo', zip: '0150', geo: { lat: 1 } } };
  it('without fields: the searchable fields present', () => {
    expect(projectDoc(customers, null, doc)).toEqual({ id: 'x', name: 'Ann', address: doc.address });
  });
  it('with fields: only those paths, nested; missing ones omitted; ancestors win', () => {
    expect(projectDoc(customers, [['name'], ['address', 'city'], ['address', 'geo', 'lat'], ['age']], doc)).toEqual({
      name: 'Ann',
      address: { city: 'Oslo', geo: { lat: 1 } },
    });
    expect(projectDoc(customers, [['address', 'city'], ['address']], doc)).toEqual({ address: doc.address });
    expect(projectDoc(customers, [], doc)).toEqual({});
  });
  it('a key named __proto__ is projected as a key, not a prototype', () => {
    const odd = JSON.parse('{"address":{"__proto__":{"x":1},"city":"Oslo"}}') as Record<string, unknown>;
    const out = projectDoc(customers, [['address', '__proto__']], odd);
    expect(JSON.stringify(out)).toBe('{"address":{"__proto__":{"x":1}}}');
    expect(Object.getPrototypeOf(out.address)).toBe(Object.prototype);
  });
});
