import { describe, expect, it } from 'vitest';
import { customers, expectAppError, parse } from './fixtures.js';

const ID = { kind: 'id', dir: 'asc' };
const P = (field: string, type: string, sub: string[] = []) => ({ field, sub, type });

describe('parseSearchParams: top level', () => {
  it('{query:{}} gives the defaults', () => {
    expect(parse({ query: {} })).toEqual({ filter: null, sort: [ID], limit: 1000, cursor: null, fields: null, scored: false });
  });
  it('filter {} and null members count as absent', () => {
    expect(parse({ query: { filter: {}, sort: null }, limit: null, cursor: null, fields: null })).toEqual(parse({ query: {} }));
  });
  it('query is required', () => {
    expectAppError(() => parse({}), 'invalid_query', 'query', 'required');
    expectAppError(() => parse(undefined), 'invalid_query', 'query', 'required');
    expectAppError(() => parse({ query: null }), 'invalid_query', 'query', 'required');
    expectAppError(() => parse({ query: [] }), 'invalid_query', 'query', 'object');
  });
  it('params must be an object', () => {
    expectAppError(() => parse('x'), 'invalid_query', 'params', 'object');
    expectAppError(() => parse([]), 'invalid_query', 'params', 'object');
  });
  it('unknown keys are named', () => {
    expectAppError(() => parse({ query: {}, filter: {} }), 'invalid_query', 'filter', '"filter"');
    expectAppError(() => parse({ query: { limit: 5 } }), 'invalid_query', 'query.limit', '"limit"');
  });
});

describe('parseSearchParams: limit and cursor', () => {
  it('limit is an integer from 1 to 10000', () => {
    expect(parse({ query: {}, limit: 1 }).limit).toBe(1);
    expect(parse({ query: {}, limit: 10000 }).limit).toBe(10000);
    for (const bad of [0, 10001, 1.5, '10', true, -1]) {
      expectAppError(() => parse({ query: {}, limit: bad }), 'invalid_query', 'limit', '1 to 10000');
    }
  });
  it('cursor must be a non-empty string; kept verbatim', () => {
    expect(parse({ query: {}, cursor: 'abc' }).cursor).toBe('abc');
    expectAppError(() => parse({ query: {}, cursor: 5 }), 'invalid_cursor', 'cursor', 'next_cursor');
    expectAppError(() => parse({ query: {}, cursor: {} }), 'invalid_cursor', 'cursor', 'next_cursor');
    expectAppError(() => parse({ query: {}, cursor: '' }), 'invalid_cursor', 'cursor', 'empty');
  });
});

describe('parseSearchParams: sort', () => {
  const sortOf = (sort: unknown, filter: unknown = undefined) => parse({ query: { filter, sort } }).sort;

  it('default: id asc; score desc first when scored', () => {
    expect(sortOf(undefined)).toEqual([ID]);
    expect(sortOf([])).toEqual([ID]);
    expect(sortOf(undefined, { fuzzy: { name: 'ann' } })).toEqual([{ kind: 'score', dir: 'desc' }, ID]);
    expect(sortOf(undefined, { keyword: { tags: 'vip' } })).toEqual([{ kind: 'score', dir: 'desc' }, ID]);
  });
  it('keys in order, id asc appended; a scored filter with an explicit sort has no score key', () => {
    expect(sortOf([{ age: 'desc' }, { name: 'asc' }], { fuzzy: { name: 'x' } })).toEqual([
      { kind: 'field', path: P('age', 'int'), dir: 'desc' },
      { kind: 'field', path: P('name', 'string'), dir: 'asc' },
      ID,
    ]);
  });
  it('an explicit id-field key keeps its direction; the id key still ends the list', () => {
    expect(sortOf([{ id: 'desc' }])).toEqual([{ kind: 'field', path: P('id', 'string'), dir: 'desc' }, ID]);
  });
  it('scalar fields and object sub-paths are sortable', () => {
    expect(sortOf([{ active: 'asc' }, { balance: 'desc' }, { 'address.city': 'asc' }])).toMatchObject([
      { path: P('active', 'boolean') },
      { path: P('balance', 'number') },
      { path: P('address', 'dynamic', ['city']) },
      ID,
    ]);
  });
  it('at most 8 keys', () => {
    const keys = ['id', 'name', 'email', 'created', 'age', 'balance', 'active', 'address.a'].map((k) => ({ [k]: 'asc' }));
    expect(sortOf(keys)).toHaveLength(9);
    expectAppError(() => sortOf([...keys, { 'address.b': 'asc' }]), 'invalid_query', 'query.sort', 'at most 8');
  });
  it('shape errors', () => {
    expectAppError(() => sortOf({ age: 'asc' }), 'invalid_query', 'query.sort', 'array');
    expectAppError(() => sortOf(['age']), 'invalid_query', 'query.sort[0]', 'exactly one');
    expectAppError(() => sortOf([{ age: 'asc', name: 'asc' }]), 'invalid_query', 'query.sort[0]', 'exactly one');
    expectAppError(() => sortOf([{ age: 'asc' }, {}]), 'invalid_query', 'query.sort[1]', 'exactly one');
    expectAppError(() => sortOf([{ created: 'DESC' }]), 'invalid_query', 'query.sort[0].created', '"asc" or "desc"');
    expectAppError(() => sortOf([{ created: 1 }]), 'invalid_query', 'query.sort[0].created', '"asc" or "desc"');
    expectAppError(() => sortOf([{ age: 'asc' }, { age: 'desc' }]), 'invalid_query', 'query.sort[1]', 'more than once');
  });
  it('unknown fields and non-scalar fields', () => {
    const e = expectAppError(() => sortOf([{ score: 'desc' }]), 'unknown_field', 'query.sort[0].score', 'score');
    expect(e.message).toContain('searchable fields');
    expectAppError(() => sortOf([{ address: 'asc' }]), 'type_mismatch', 'query.sort[0].address', 'address.key');
    expectAppError(() => sortOf([{ tags: 'asc' }]), 'type_mismatch', 'query.sort[0].tags', 'scalar');
    expectAppError(() => sortOf([{ 'name.x': 'asc' }]), 'type_mismatch', 'query.sort[0].name.x', 'object fields');
  });
});

describe('parseSearchParams: fields', () => {
  const fieldsOf = (fields: unknown) => parse({ query: {}, fields }).fields;

  it('dot paths and segment arrays become segment arrays; duplicates dropped', () => {
    expect(fieldsOf(['name', 'address.city', ['address', 'zip'], ['name']])).toEqual([['name'], ['address', 'city'], ['address', 'zip']]);
    expect(fieldsOf([])).toEqual([]);
    expect(fieldsOf(undefined)).toBeNull();
  });
  it('a segment array keeps dots inside a key', () => {
    expect(fieldsOf([['address', 'a.b']])).toEqual([['address', 'a.b']]);
  });
  it('errors', () => {
    expectAppError(() => fieldsOf('name'), 'invalid_query', 'fields', 'array');
    expectAppError(() => fieldsOf(Array.from({ length: 101 }, () => 'name')), 'invalid_query', 'fields', 'at most 100');
    expectAppError(() => fieldsOf(['name', 5]), 'invalid_query', 'fields[1]', 'dot path');
    expectAppError(() => fieldsOf(['name', []]), 'invalid_query', 'fields[1]', 'non-empty');
    expectAppError(() => fieldsOf([['address', '']]), 'invalid_query', 'fields[0][1]', 'non-empty string');
    expectAppError(() => fieldsOf(['name', 'phone']), 'unknown_field', 'fields[1]', 'searchable fields');
    expectAppError(() => fieldsOf([['address.city']]), 'unknown_field', 'fields[0]', 'address.city');
    expectAppError(() => fieldsOf(['email.domain']), 'type_mismatch', 'fields[0]', 'object fields');
  });
  it('works against any target', () => {
    expect(parse({ query: {}, fields: ['id'] }, customers).fields).toEqual([['id']]);
  });
});
