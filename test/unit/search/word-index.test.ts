import { describe, expect, it } from 'vitest';
import { parseSearchParams } from '../../../src/search/dsl/parse.js';
import { expansionKey, fuzzyTerms, hashWords, MAX_WORD_REQUIREMENTS, tenantSeed, tokenHash, tokensOf, wordRequirements, type Expansions } from '../../../src/search/postgres/word-index.js';
import { target } from '../../conformance/dataset.js';
import { recordWords } from '../../../src/search/postgres/search-text.js';

const parse = (filter: unknown) => parseSearchParams(target, { query: { filter } }).filter!;
const reqs = (filter: unknown, expansions: Expansions | null = null, lookup: string[] = []) => wordRequirements(parse(filter), lookup, target.idField, expansions);

describe('word index', () => {
  it('qualifies every word of the searchable strings by its object path, arrays skipped, as the reference splits words', () => {
    const words = tokensOf(recordWords(
      { name: 'string', address: 'object', tags: 'array', orders: 'array' },
      { name: 'Ada  LOVELACE-King', address: { city: 'São Paulo', geo: { zip: '0123' }, n: 5 }, tags: ['VIP', 'vip', 2], orders: [{ note: 'First order' }, [{ note: 'nested' }]], secret: 'nope' },
    ));
    expect(words).toEqual(['address.city:paulo', 'address.city:são', 'address.geo.zip:0123', 'name:ada', 'name:king', 'name:lovelace', 'orders.note:first', 'orders.note:nested', 'orders.note:order', 'tags:vip']);
  });

  it('hashes words as the query side hashes tokens: per tenant, distinct, in numeric order', () => {
    const groups = recordWords({ name: 'string', tags: 'array' }, { name: 'Ada ada Lovelace', tags: ['ada'] });
    const seed = tenantSeed('c1', 'customers');
    const hashes = hashWords(seed, groups);
    expect(hashes).toEqual([...new Set(tokensOf(groups).map((t) => tokenHash(seed, t)))].sort((a, b) => a - b));
    expect(hashes).toHaveLength(3);
    expect(hashWords(tenantSeed('c2', 'customers'), groups)).not.toEqual(hashes);
    expect(hashes.every((h) => Number.isInteger(h) && h >= -(2 ** 31) && h < 2 ** 31)).toBe(true);
  });

  it('an exact string match requires all its words at its path; lookup fields, the id, numbers and wordless values require nothing', () => {
    expect(reqs({ eq: { 'address.city': 'São Paulo' } })).toEqual([[['address.city:são', 'address.city:paulo']]]);
    expect(reqs({ in: { name: ['Ada Lovelace', 'Grace'] } })).toEqual([[['name:ada', 'name:lovelace'], ['name:grace']]]);
    expect(reqs({ contains: { tags: 'VIP' } })).toEqual([[['tags:vip']]]);
    expect(reqs({ eq: { age: 36 } })).toEqual([]);
    expect(reqs({ eq: { name: '--' } })).toEqual([]);
    expect(reqs({ in: { name: ['Ada', null] } })).toEqual([]);
    expect(reqs({ eq: { email: 'ada@example.com' } }, null, ['email'])).toEqual([]);
    expect(reqs({ eq: { id: 'c1' } })).toEqual([]);
  });

  it('follows and / any (paths joined), or when every branch requires something, never not; keyword needs any of its terms', () => {
    expect(reqs({ and: [{ keyword: { name: 'ada lovelace' } }, { eq: { age: 36 } }] })).toEqual([[['name:ada'], ['name:lovelace']]]);
    expect(reqs({ or: [{ keyword: { name: 'ada' } }, { eq: { 'address.city': 'x' } }] })).toEqual([[['name:ada'], ['address.city:x']]]);
    expect(reqs({ or: [{ keyword: { name: 'ada' } }, { eq: { age: 36 } }] })).toEqual([]);
    expect(reqs({ not: { keyword: { name: 'ada' } } })).toEqual([]);
    expect(reqs({ any: { orders: { eq: { note: 'first order' } } } })).toEqual([[['orders.note:first', 'orders.note:order']]]);
    // Inside `any`, a key named like the id or a lookup field is an element key, not the record's.
    expect(reqs({ any: { orders: { eq: { id: 'o1' } } } }, null, ['id'])).toEqual([[['orders.id:o1']]]);
  });

  it('fuzzy terms need one of their vocabulary expansions; a term nothing matches makes the filter unsatisfiable', () => {
    const node = parse({ fuzzy: { name: 'ada lovelase' } });
    expect(fuzzyTerms(node)).toEqual([{ path: 'name', term: 'ada' }, { path: 'name', term: 'lovelase' }]);
    const expansions = new Map([
      [expansionKey({ path: 'name', term: 'ada' }), [{ word: 'ada', quality: 1 }, { word: 'adam', quality: 0.5 }]],
      [expansionKey({ path: 'name', term: 'lovelase' }), []],
    ]);
    expect(reqs({ fuzzy: { name: 'ada lovelase' } }, expansions)).toEqual([[['name:ada'], ['name:adam']], []]);
    expect(reqs({ fuzzy: { name: 'ada' } }, null)).toEqual([]);
  });

  it('leaves out the requirements of a skipped node (a top tier requires more of it), and only that node', () => {
    const node = parse({ and: [{ keyword: { name: 'ada lovelace' } }, { eq: { 'address.city': 'Paris' } }] });
    const text = node.op === 'and' ? node.filters[0]! : node;
    expect(wordRequirements(node, [], target.idField, null, text)).toEqual([[['address.city:paris']]]);
    expect(wordRequirements(node, [], target.idField, null, parse({ keyword: { name: 'ada lovelace' } }))).toHaveLength(2);
  });

  it('bounds the requirements of a huge filter (each is one parameter)', () => {
    const filter = { and: Array.from({ length: 200 }, (_, i) => ({ keyword: { name: `w${i}` } })) };
    expect(reqs(filter)).toHaveLength(MAX_WORD_REQUIREMENTS);
    expect(fuzzyTerms(parse({ fuzzy: { name: Array.from({ length: 200 }, (_, i) => `t${i}`).join(' ') } }))).toHaveLength(MAX_WORD_REQUIREMENTS);
  });
});
