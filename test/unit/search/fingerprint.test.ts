import { describe, expect, it } from 'vitest';
import { canonicalJson, queryFingerprint } from '../../../src/search/fingerprint.js';
import { parse } from './fixtures.js';

const fp = (params: unknown, connector = 'c1', entity = 'customers') => queryFingerprint(connector, entity, parse(params));

describe('queryFingerprint', () => {
  const base = { query: { filter: { eq: { name: 'Ann' }, gt: { age: 3 } }, sort: [{ age: 'desc' }] }, fields: ['name'] };
  it('is stable and ignores JSON key order, limit and cursor', () => {
    expect(fp(base)).toBe(fp(base));
    expect(fp(base)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fp({ fields: ['name'], query: { sort: [{ age: 'desc' }], filter: { eq: { name: 'Ann' }, gt: { age: 3 } } } })).toBe(fp(base));
    expect(fp({ ...base, limit: 5, cursor: 'abc' })).toBe(fp(base));
    // Inside the filter too: an object's operators are an implicit `and` whose order the client never chose.
    expect(fp({ ...base, query: { ...base.query, filter: { gt: { age: 3 }, eq: { name: 'Ann' } } } })).toBe(fp(base));
    expect(fp({ query: { filter: { any: { orders: { like: { sku: 'O%' }, eq: { qty: 1 } } } } } })).toBe(fp({ query: { filter: { any: { orders: { eq: { qty: 1 }, like: { sku: 'O%' } } } } } }));
  });
  it('normalizes fields spelled as dot paths or arrays', () => {
    expect(fp({ query: {}, fields: ['address.city'] })).toBe(fp({ query: {}, fields: [['address', 'city']] }));
  });
  it('changes with connector, entity, filter, sort and fields', () => {
    const ref = fp(base);
    expect(fp(base, 'c2')).not.toBe(ref);
    expect(fp(base, 'c1', 'invoices')).not.toBe(ref);
    expect(fp({ ...base, query: { ...base.query, filter: { eq: { name: 'Bob' }, gt: { age: 3 } } } })).not.toBe(ref);
    expect(fp({ ...base, query: { ...base.query, sort: [{ age: 'asc' }] } })).not.toBe(ref);
    expect(fp({ ...base, fields: ['email'] })).not.toBe(ref);
    expect(fp({ ...base, fields: undefined })).not.toBe(ref);
    expect(fp({ query: { filter: { and: [{ eq: { age: 1 } }, { eq: { age: 2 } }] } } })).not.toBe(
      fp({ query: { filter: { and: [{ eq: { age: 2 } }, { eq: { age: 1 } }] } } }),
    );
  });
  it('canonicalJson sorts keys recursively', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
  });
});
