import { describe, expect, it } from 'vitest';
import { parseSearchParams } from '../../../src/search/dsl/parse.js';
import { containsPattern, likeRuns, textRequirements } from '../../../src/search/postgres/text-index.js';
import { recordText } from '../../../src/search/postgres/search-text.js';
import { target } from '../../conformance/dataset.js';

const reqs = (filter: unknown) => textRequirements(parseSearchParams(target, { query: { filter } }).filter!);

describe('trigram pre-filter requirements', () => {
  it('takes the literal runs of 3+ characters of a like pattern, lower-cased, escapes literal', () => {
    expect(likeRuns('Ada%LOVE_lace')).toEqual(['ada', 'love', 'lace']);
    expect(likeRuns('%ab%cd%')).toEqual([]);
    expect(likeRuns('50\\%off')).toEqual(['50%off']);
    expect(likeRuns('ÉCOLE')).toEqual(['école']);
    expect(likeRuns('a\nbc')).toEqual([]);
  });

  it('follows and / any, never or / not; only like requires text (words serve the rest)', () => {
    expect(reqs({ and: [{ like: { name: 'lovelace' } }, { eq: { age: 36 } }] })).toEqual([[['lovelace']]]);
    expect(reqs({ or: [{ like: { name: 'lovelace' } }, { eq: { age: 36 } }] })).toEqual([]);
    expect(reqs({ not: { like: { name: 'lovelace' } } })).toEqual([]);
    expect(reqs({ any: { orders: { like: { note: 'first order' } } } })).toEqual([[['first order']]]);
    expect(reqs({ keyword: { name: 'ada lovelace' } })).toEqual([]);
    expect(reqs({ eq: { 'address.city': 'London' } })).toEqual([]);
  });

  it('keeps every searchable string, nested and in arrays, lower-cased as the reference does', () => {
    const text = recordText({ name: 'string', address: 'object', tags: 'array' }, { name: 'ÀDA', address: { city: 'London', zip: 1 }, tags: ['VIP', 2], secret: 'NOPE' });
    expect(text.split('\n')).toEqual(['àda', 'london', 'vip']);
    expect(recordText({ a: 'object' }, { a: { y: 'Y', x: 'X' } })).toBe(recordText({ a: 'object' }, { a: { x: 'X', y: 'Y' } }));
    expect(containsPattern('50%_\\')).toBe('%50\\%\\_\\\\%');
  });
});
