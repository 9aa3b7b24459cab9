import { describe, expect, it } from 'vitest';
import type { FilterNode } from '../../../src/search/dsl/ast.js';
import { customers, expectAppError, parse, parseF } from './fixtures.js';

const P = (field: string, type: string, sub: string[] = []) => ({ field, sub, type });
const filterOf = (filter: unknown): FilterNode | null => parseF(filter).filter;

describe('parseSearchParams: operators', () => {
  it('eq / neq on every scalar type, null on any type', () => {
    expect(filterOf({ eq: { name: 'Ann' } })).toEqual({ op: 'eq', path: P('name', 'string'), value: 'Ann' });
    expect(filterOf({ neq: { age: 3 } })).toEqual({ op: 'neq', path: P('age', 'int'), value: 3 });
    expect(filterOf({ eq: { balance: 2.5 } })).toEqual({ op: 'eq', path: P('balance', 'number'), value: 2.5 });
    expect(filterOf({ eq: { active: false } })).toEqual({ op: 'eq', path: P('active', 'boolean'), value: false });
    for (const f of ['name', 'age', 'balance', 'active', 'address', 'tags']) {
      expect(filterOf({ eq: { [f]: null } })).toMatchObject({ op: 'eq', value: null });
      expect(filterOf({ neq: { [f]: null } })).toMatchObject({ op: 'neq', value: null });
    }
  });

  it('gt / gte / lt / lte take numbers on numeric fields and strings on string fields', () => {
    expect(filterOf({ gt: { age: 30 } })).toEqual({ op: 'gt', path: P('age', 'int'), value: 30 });
    expect(filterOf({ gte: { balance: -1.5 } })).toEqual({ op: 'gte', path: P('balance', 'number'), value: -1.5 });
    expect(filterOf({ lt: { created: '2024-01-01' } })).toEqual({ op: 'lt', path: P('created', 'string'), value: '2024-01-01' });
    expect(filterOf({ lte: { scores: 5 } })).toEqual({ op: 'lte', path: P('scores', 'array'), value: 5 });
    expect(filterOf({ lte: { tags: 'm' } })).toMatchObject({ op: 'lte', value: 'm' });
  });

  it('in takes a list of scalars; [] is valid', () => {
    expect(filterOf({ in: { age: [1, 2, null] } })).toEqual({ op: 'in', path: P('age', 'int'), values: [1, 2, null] });
    expect(filterOf({ in: { active: [true] } })).toMatchObject({ op: 'in', values: [true] });
    expect(filterOf({ in: { name: [] } })).toMatchObject({ op: 'in', values: [] });
    expect(filterOf({ in: { age: Array.from({ length: 1000 }, (_, i) => i) } })).toMatchObject({ op: 'in' });
  });

  it('like keeps the pattern verbatim; on string and array fields', () => {
    expect(filterOf({ like: { email: '%@Example.com' } })).toEqual({ op: 'like', path: P('email', 'string'), pattern: '%@Example.com' });
    expect(filterOf({ like: { tags: 'v\\_%' } })).toMatchObject({ op: 'like', pattern: 'v\\_%' });
  });

  it('fuzzy / keyword: terms are lower-cased, split on non letter/digit, deduplicated', () => {
    expect(filterOf({ fuzzy: { name: 'Jöhn  SMITH-jones, john 42' } })).toEqual({
      op: 'fuzzy',
      path: P('name', 'string'),
      text: 'Jöhn  SMITH-jones, john 42',
      terms: ['jöhn', 'smith', 'jones', 'john', '42'],
    });
    expect(filterOf({ keyword: { tags: 'VIP' } })).toEqual({ op: 'keyword', path: P('tags', 'array'), text: 'VIP', terms: ['vip'] });
  });

  it('contains on array fields', () => {
    expect(filterOf({ contains: { tags: 'vip' } })).toEqual({ op: 'contains', path: P('tags', 'array'), value: 'vip' });
    expect(filterOf({ contains: { scores: 3 } })).toMatchObject({ op: 'contains', value: 3 });
  });

  it('any: inner paths are element-relative and dynamic, any key allowed', () => {
    expect(filterOf({ any: { orders: { eq: { sku: 'A1' }, gte: { 'price.amount': 5 } } } })).toEqual({
      op: 'any',
      path: P('orders', 'array'),
      filter: {
        op: 'and',
        filters: [
          { op: 'eq', path: P('sku', 'dynamic'), value: 'A1' },
          { op: 'gte', path: P('price', 'dynamic', ['amount']), value: 5 },
        ],
      },
    });
  });

  it('nested any inside any', () => {
    const f = filterOf({ any: { orders: { any: { lines: { eq: { qty: 2 } } } } } });
    expect(f).toMatchObject({ op: 'any', filter: { op: 'any', path: P('lines', 'dynamic'), filter: { op: 'eq' } } });
  });

  it('not / and / or compose; several keys in one object become and (in key order)', () => {
    expect(filterOf({ not: { eq: { name: 'a' } } })).toEqual({ op: 'not', filter: { op: 'eq', path: P('name', 'string'), value: 'a' } });
    expect(filterOf({ or: [{ eq: { age: 1 } }, { eq: { age: 2 } }] })).toMatchObject({ op: 'or', filters: [{ value: 1 }, { value: 2 }] });
    expect(filterOf({ and: [{ eq: { age: 1 } }] })).toMatchObject({ op: 'and', filters: [{ value: 1 }] });
    expect(filterOf({ gt: { age: 1 }, lt: { age: 9 } })).toMatchObject({ op: 'and', filters: [{ op: 'gt' }, { op: 'lt' }] });
  });

  it('object sub-paths are dynamic: any scalar type is accepted', () => {
    expect(filterOf({ eq: { 'address.city': 'Oslo' } })).toEqual({ op: 'eq', path: P('address', 'dynamic', ['city']), value: 'Oslo' });
    expect(filterOf({ eq: { 'address.geo.zip': 7 } })).toMatchObject({ path: P('address', 'dynamic', ['geo', 'zip']), value: 7 });
    expect(filterOf({ eq: { 'address.verified': true } })).toMatchObject({ value: true });
    expect(filterOf({ gt: { 'address.n': 'x' } })).toMatchObject({ op: 'gt', value: 'x' });
    expect(filterOf({ like: { 'address.city': 'os%' } })).toMatchObject({ op: 'like' });
    expect(filterOf({ contains: { 'address.codes': 'x' } })).toMatchObject({ op: 'contains' });
    expect(filterOf({ any: { 'address.lines': { eq: { n: 1 } } } })).toMatchObject({ op: 'any' });
  });

  it('a searchable field whose name has dots wins as the longest prefix', () => {
    const target = { ...customers, searchable: { meta: 'object', 'meta.source': 'string' } } as const;
    expect(parse({ query: { filter: { eq: { 'meta.source': 'web' } } } }, target).filter).toMatchObject({ path: P('meta.source', 'string') });
    expect(parse({ query: { filter: { eq: { 'meta.other': 'x' } } } }, target).filter).toMatchObject({ path: P('meta', 'dynamic', ['other']) });
  });

  it('the result is deeply frozen', () => {
    const q = parseF({ and: [{ in: { age: [1, 2] } }, { any: { orders: { eq: { sku: 'a' } } } }] });
    expect(Object.isFrozen(q)).toBe(true);
    const and = q.filter as Extract<FilterNode, { op: 'and' | 'or' }>;
    expect(Object.isFrozen(and.filters)).toBe(true);
    const inNode = and.filters[0] as Extract<FilterNode, { op: 'in' }>;
    expect(Object.isFrozen(inNode.values)).toBe(true);
    expect(Object.isFrozen(inNode.path.sub)).toBe(true);
    expect(Object.isFrozen(q.sort[0])).toBe(true);
  });

  it('scored is true when fuzzy/keyword appears anywhere, also under not', () => {
    expect(parseF({ eq: { age: 1 } }).scored).toBe(false);
    expect(parseF({ fuzzy: { name: 'ann' } }).scored).toBe(true);
    expect(parseF({ or: [{ eq: { age: 1 } }, { keyword: { name: 'ann' } }] }).scored).toBe(true);
    expect(parseF({ not: { fuzzy: { name: 'ann' } } }).scored).toBe(true);
    expect(parseF({ any: { orders: { keyword: { title: 'x' } } } }).scored).toBe(true);
  });
});

describe('parseSearchParams: filter shape errors (invalid_query)', () => {
  it('filter must be an object', () => {
    expectAppError(() => parseF([]), 'invalid_query', 'query.filter', 'object');
    expectAppError(() => parseF('eq'), 'invalid_query', 'query.filter', 'object');
  });
  it('unknown operator names the key and the valid ones', () => {
    const e = expectAppError(() => parseF({ regex: { name: 'a' } }), 'invalid_query', 'query.filter.regex', 'regex');
    expect(e.message).toContain('fuzzy');
  });
  it('a simple operator maps exactly one path', () => {
    expectAppError(() => parseF({ eq: {} }), 'invalid_query', 'query.filter.eq', 'exactly one');
    expectAppError(() => parseF({ eq: { name: 'a', age: 1 } }), 'invalid_query', 'query.filter.eq', 'exactly one');
    expectAppError(() => parseF({ like: 'a%' }), 'invalid_query', 'query.filter.like', 'one field path');
    expectAppError(() => parseF({ any: { orders: {}, tags: {} } }), 'invalid_query', 'query.filter.any', 'exactly one');
  });
  it('and / or take a non-empty array; not takes a filter', () => {
    expectAppError(() => parseF({ and: [] }), 'invalid_query', 'query.filter.and', 'non-empty');
    expectAppError(() => parseF({ or: { eq: { age: 1 } } }), 'invalid_query', 'query.filter.or', 'array');
    expectAppError(() => parseF({ not: [] }), 'invalid_query', 'query.filter.not', 'object');
    expectAppError(() => parseF({ not: {} }), 'invalid_query', 'query.filter.not', 'at least one operator');
    expectAppError(() => parseF({ or: [{ eq: { age: 1 } }, 3] }), 'invalid_query', 'query.filter.or[1]', 'object');
  });
  it('in takes an array of at most 1000 values', () => {
    expectAppError(() => parseF({ in: { age: 1 } }), 'invalid_query', 'query.filter.in.age', 'array');
    const many = Array.from({ length: 1001 }, (_, i) => i);
    expectAppError(() => parseF({ in: { age: many } }), 'invalid_query', 'query.filter.in.age', '1000');
  });
  it('strings are at most 1024 characters (code points)', () => {
    expect(filterOf({ eq: { name: '😀'.repeat(1024) } })).toMatchObject({ op: 'eq' });
    expectAppError(() => parseF({ eq: { name: 'x'.repeat(1025) } }), 'invalid_query', 'query.filter.eq.name', '1024');
    expectAppError(() => parseF({ in: { name: ['a', 'x'.repeat(1025)] } }), 'invalid_query', 'query.filter.in.name[1]', '1024');
    expectAppError(() => parseF({ fuzzy: { name: 'x'.repeat(1025) } }), 'invalid_query', 'query.filter.fuzzy.name', '1024');
    expectAppError(() => parseF({ eq: { ['address.' + 'k'.repeat(1020)]: 1 } }), 'invalid_query', `query.filter.eq.address.${'k'.repeat(1020)}`, '1024');
  });
  it('like pattern must not end with a lone escape', () => {
    expectAppError(() => parseF({ like: { name: 'ab\\' } }), 'invalid_query', 'query.filter.like.name', 'escape');
    expect(filterOf({ like: { name: 'ab\\\\' } })).toMatchObject({ pattern: 'ab\\\\' });
  });
  it('fuzzy / keyword text needs at least one word', () => {
    expectAppError(() => parseF({ fuzzy: { name: ' -- !' } }), 'invalid_query', 'query.filter.fuzzy.name', 'no words');
    expectAppError(() => parseF({ keyword: { name: '' } }), 'invalid_query', 'query.filter.keyword.name', 'no words');
  });
  it('paths must not have empty segments', () => {
    expectAppError(() => parseF({ eq: { 'address..city': 'x' } }), 'invalid_query', 'query.filter.eq.address..city', 'empty segment');
    expectAppError(() => parseF({ eq: { '': 'x' } }), 'invalid_query', 'query.filter.eq.', 'empty');
    expectAppError(() => parseF({ any: { orders: { eq: { 'a.': 1 } } } }), 'invalid_query', 'query.filter.any.orders.eq.a.', 'empty segment');
  });
  it('depth: 16 nested filter objects pass, 17 fail', () => {
    const nest = (n: number): unknown => (n === 1 ? { eq: { age: 1 } } : { not: nest(n - 1) });
    expect(parseF(nest(16)).filter).toMatchObject({ op: 'not' });
    expectAppError(() => parseF(nest(17)), 'invalid_query', `query.filter${'.not'.repeat(16)}`, 'deeper than 16');
    const nestAnd = (n: number): unknown => (n === 1 ? { eq: { age: 1 } } : { and: [nestAnd(n - 1)] });
    expectAppError(() => parseF(nestAnd(17)), 'invalid_query', `query.filter${'.and[0]'.repeat(16)}`, 'deeper');
  });
  it('at most 500 operator nodes', () => {
    const leaves = (n: number) => Array.from({ length: n }, (_, i) => ({ eq: { age: i } }));
    expect(parseF({ or: leaves(499) }).filter).toMatchObject({ op: 'or' });
    expectAppError(() => parseF({ or: leaves(500) }), 'invalid_query', 'query.filter.or[499].eq', '500');
  });
});

describe('parseSearchParams: unknown fields and type mismatches', () => {
  it('unknown root is unknown_field and lists the searchable fields', () => {
    const e = expectAppError(() => parseF({ eq: { phone: '1' } }), 'unknown_field', 'query.filter.eq.phone', 'phone');
    expect(e.message).toContain('searchable fields: active, address, age, balance');
    expectAppError(() => parseF({ eq: { 'phone.x': '1' } }), 'unknown_field', 'query.filter.eq.phone.x', 'not a searchable field');
    expectAppError(() => parseF({ eq: { constructor: '1' } }), 'unknown_field', 'query.filter.eq.constructor', 'searchable');
    expectAppError(() => parseF({ and: [{ eq: { age: 1 } }, { eq: { age: 2 } }, { like: { mail: 'a' } }] }), 'unknown_field', 'query.filter.and[2].like.mail', 'mail');
  });
  it('a sub-path into a non-object field is type_mismatch', () => {
    expectAppError(() => parseF({ eq: { 'name.first': 'a' } }), 'type_mismatch', 'query.filter.eq.name.first', 'only object fields');
    expectAppError(() => parseF({ eq: { 'orders.sku': 'a' } }), 'type_mismatch', 'query.filter.eq.orders.sku', 'any');
  });
  it('int takes integers only', () => {
    expectAppError(() => parseF({ eq: { age: 1.5 } }), 'type_mismatch', 'query.filter.eq.age', 'integer');
    expectAppError(() => parseF({ gt: { age: '3' } }), 'type_mismatch', 'query.filter.gt.age', 'integer');
    expectAppError(() => parseF({ in: { age: [1, 'x'] } }), 'type_mismatch', 'query.filter.in.age[1]', 'integer');
  });
  it('number takes finite numbers, string takes strings', () => {
    expectAppError(() => parseF({ lt: { balance: 'x' } }), 'type_mismatch', 'query.filter.lt.balance', 'number');
    expectAppError(() => parseF({ eq: { balance: Number.NaN } }), 'type_mismatch', 'query.filter.eq.balance', 'scalar');
    expectAppError(() => parseF({ eq: { name: 5 } }), 'type_mismatch', 'query.filter.eq.name', 'string');
    expectAppError(() => parseF({ gte: { created: 5 } }), 'type_mismatch', 'query.filter.gte.created', 'string');
  });
  it('boolean takes only eq / neq / in with booleans', () => {
    expectAppError(() => parseF({ eq: { active: 'true' } }), 'type_mismatch', 'query.filter.eq.active', 'boolean');
    expectAppError(() => parseF({ gt: { active: 1 } }), 'type_mismatch', 'query.filter.gt.active', 'eq, neq and in');
    expectAppError(() => parseF({ like: { active: 't%' } }), 'type_mismatch', 'query.filter.like.active', 'string fields');
    expectAppError(() => parseF({ in: { active: [true, 0] } }), 'type_mismatch', 'query.filter.in.active[1]', 'boolean');
  });
  it('comparisons never take null or booleans', () => {
    expectAppError(() => parseF({ gt: { age: null } }), 'type_mismatch', 'query.filter.gt.age', 'number or a string');
    expectAppError(() => parseF({ lte: { 'address.n': true } }), 'type_mismatch', 'query.filter.lte.address.n', 'number or a string');
    expectAppError(() => parseF({ gt: { tags: null } }), 'type_mismatch', 'query.filter.gt.tags', 'number or a string');
  });
  it('object fields take only eq/neq null or sub-paths', () => {
    expectAppError(() => parseF({ eq: { address: 'Oslo' } }), 'type_mismatch', 'query.filter.eq.address', 'sub-path');
    expectAppError(() => parseF({ neq: { address: { city: 'Oslo' } } }), 'type_mismatch', 'query.filter.neq.address', 'scalar');
    expectAppError(() => parseF({ gt: { address: 1 } }), 'type_mismatch', 'query.filter.gt.address', 'object');
    expectAppError(() => parseF({ in: { address: [null] } }), 'type_mismatch', 'query.filter.in.address', 'object');
    expectAppError(() => parseF({ fuzzy: { address: 'oslo' } }), 'type_mismatch', 'query.filter.fuzzy.address', 'string fields');
  });
  it('eq takes scalars, not arrays or objects', () => {
    expectAppError(() => parseF({ eq: { tags: ['a'] } }), 'type_mismatch', 'query.filter.eq.tags', 'an array');
  });
  it('like / fuzzy / keyword: string or array fields, string values', () => {
    expectAppError(() => parseF({ like: { age: '1%' } }), 'type_mismatch', 'query.filter.like.age', 'string fields');
    expectAppError(() => parseF({ keyword: { balance: 'x' } }), 'type_mismatch', 'query.filter.keyword.balance', 'string fields');
    expectAppError(() => parseF({ keyword: { name: 5 } }), 'type_mismatch', 'query.filter.keyword.name', 'string');
    expectAppError(() => parseF({ fuzzy: { tags: ['a'] } }), 'type_mismatch', 'query.filter.fuzzy.tags', 'string');
  });
  it('contains: array fields only, non-null scalar', () => {
    expectAppError(() => parseF({ contains: { name: 'a' } }), 'type_mismatch', 'query.filter.contains.name', 'array fields');
    expectAppError(() => parseF({ contains: { tags: null } }), 'type_mismatch', 'query.filter.contains.tags', 'eq null');
    expectAppError(() => parseF({ contains: { tags: { a: 1 } } }), 'type_mismatch', 'query.filter.contains.tags', 'scalar');
  });
  it('any: array fields only, inner filter validated at its path', () => {
    expectAppError(() => parseF({ any: { name: { eq: { a: 1 } } } }), 'type_mismatch', 'query.filter.any.name', 'array fields');
    expectAppError(() => parseF({ any: { orders: 'x' } }), 'invalid_query', 'query.filter.any.orders', 'object');
    expectAppError(() => parseF({ any: { orders: { gt: { qty: false } } } }), 'type_mismatch', 'query.filter.any.orders.gt.qty', 'number or a string');
    expectAppError(() => parseF({ not: { any: { orders: { bogus: {} } } } }), 'invalid_query', 'query.filter.not.any.orders.bogus', 'unknown operator');
  });
});
