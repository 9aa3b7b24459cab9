/**
 * A `like` page's walk (like-walk.ts): which pages are walked, and what follows a walk, decided
 * from what the walks found rather than from the planner's estimate.
 */
import { describe, expect, it } from 'vitest';
import { parseSearchParams } from '../../../../src/search/dsl/parse.js';
import { nextWalkStep, walksLike, type WalkPolicy } from '../../../../src/search/postgres/like-walk.js';
import { textRequirements } from '../../../../src/search/postgres/text-index.js';
import { wordRequirements } from '../../../../src/search/postgres/word-index.js';
import { target } from '../../../conformance/dataset.js';

const COSTS: WalkPolicy = { firstRows: 1_000, plannedWhenSmall: true, rowCost: 1, candidateCost: 4 };
const walked = (hits: number, records: number, read = 1_000, exhausted = false) => ({ read, exhausted, hits, records });

function walks(params: { query: Record<string, unknown> }, after: readonly unknown[] | null = null): boolean {
  const query = parseSearchParams(target, params);
  const lookup = target.lookup ?? [];
  const filter = query.filter;
  const plan = { lookup, text: filter === null ? [] : textRequirements(filter), words: filter === null ? [] : wordRequirements(filter, lookup, target.idField, null), assumesText: true };
  return walksLike({ target, connectorId: '00000000-0000-0000-0000-000000000001', query, after, size: 11 }, plan);
}

describe('which like pages are walked', () => {
  it('an unranked page in id order whose only index conditions are trigrams', () => {
    expect(walks({ query: { filter: { like: { name: '%love%' } } } })).toBe(true);
    expect(walks({ query: { filter: { and: [{ like: { 'address.city': 'lon%' } }, { gte: { age: 30 } }, { neq: { active: true } }] } } })).toBe(true);
    expect(walks({ query: { filter: { any: { orders: { like: { note: '%first%' } } } } } })).toBe(true);
  });

  it('a first page sorted by a time field with a sort index, which the walk reads in order', () => {
    expect(walks({ query: { filter: { like: { name: '%love%' } }, sort: [{ created: 'desc' }] } })).toBe(true);
    expect(walks({ query: { filter: { like: { name: '%love%' } }, sort: [{ created: 'asc' }] } })).toBe(true);
  });

  it("not a later page in a field's order: its cursor is no range of the sort index", () => {
    expect(walks({ query: { filter: { like: { name: '%love%' } }, sort: [{ created: 'desc' }] } }, ['2024-01-01', 'c1'])).toBe(false);
    expect(walks({ query: { filter: { like: { name: '%love%' } } } }, ['c1'])).toBe(true);
  });

  it('not when another index answers better, when sorted by a field with no sort index, or with no trigram to test', () => {
    expect(walks({ query: { filter: { and: [{ like: { name: '%love%' } }, { eq: { email: 'ada@example.com' } }] } } })).toBe(false);
    expect(walks({ query: { filter: { and: [{ like: { name: '%love%' } }, { in: { id: ['a', 'b'] } }] } } })).toBe(false);
    expect(walks({ query: { filter: { and: [{ like: { name: '%love%' } }, { eq: { 'address.city': 'London' } }] } } })).toBe(false);
    expect(walks({ query: { filter: { like: { name: '%love%' } }, sort: [{ age: 'desc' }] } })).toBe(false);
    expect(walks({ query: { filter: { like: { name: '%love%' } }, sort: [{ created: 'desc' }, { age: 'asc' }] } })).toBe(false);
    expect(walks({ query: { filter: { and: [{ like: { name: '%love%' } }, { keyword: { name: 'ada' } }] } } })).toBe(false);
    expect(walks({ query: { filter: { or: [{ like: { name: '%love%' } }, { like: { email: '%love%' } }] } } })).toBe(false);
    expect(walks({ query: { filter: { like: { name: '%lo%' } } } })).toBe(false);
  });
});

describe('after a walk', () => {
  it('is done when the page is full or no record is left after the cursor', () => {
    expect(nextWalkStep(walked(51, 1_000_000), 51, COSTS)).toEqual({ kind: 'done' });
    expect(nextWalkStep(walked(3, 1_000_000, 1_000, true), 51, COSTS)).toEqual({ kind: 'done' });
  });

  it('reads the trigram candidates when the walk found none: the pattern is rarer than one in what it read', () => {
    expect(nextWalkStep(walked(0, 1_000_000), 51, COSTS)).toEqual({ kind: 'candidates' });
    expect(nextWalkStep(walked(0, 1_500), 51, COSTS)).toEqual({ kind: 'candidates' });
  });

  it('walks on when the records left to read cost less than the candidates left, far enough to fill the page', () => {
    // 1 in 100: 41 more matches lie about 4,100 records on; 999,000 records left hold about 9,990 candidates.
    expect(nextWalkStep(walked(10, 1_000_000), 51, COSTS)).toEqual({ kind: 'walk', rows: Math.ceil(4_100 * 1.5) });
  });

  it('reads the candidates left when the matches are sparse enough that walking on costs more', () => {
    // 1 in 1,000: about 75,000 records to walk against about 999 candidates at 4 each.
    expect(nextWalkStep(walked(1, 1_000_000), 51, COSTS)).toEqual({ kind: 'candidates' });
    // 4,000 records left: walking all of them costs more than their 4 candidates.
    expect(nextWalkStep(walked(1, 5_000), 51, COSTS)).toEqual({ kind: 'candidates' });
  });

  it('each walk reads at least as many records as all before it, so underestimates end in a few statements', () => {
    expect(nextWalkStep(walked(900, 10_000_000, 1_000), 1_001, COSTS)).toEqual({ kind: 'walk', rows: 1_000 });
  });

  it('takes as many records left as were read when the record count is unknown or behind the walk', () => {
    // 1 in 25: the 11 more matches lie about 413 records on (with the margin), or among the 40
    // candidates of the 1,000 records taken as left: at 4 per candidate those cost less, at 12 not.
    expect(nextWalkStep(walked(40, 0), 51, COSTS)).toEqual({ kind: 'candidates' });
    expect(nextWalkStep(walked(40, 0), 51, { ...COSTS, candidateCost: 12 })).toEqual({ kind: 'walk', rows: 1_000 });
  });
});
