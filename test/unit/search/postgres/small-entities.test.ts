import { describe, expect, it } from 'vitest';
import type { Db } from '../../../../src/store/db.js';
import { SmallEntities } from '../../../../src/search/postgres/small-entities.js';

// Only the handle's identity matters: the memory is kept per database handle.
const handle = (): Db => ({}) as Db;

describe('entities remembered as small', () => {
  it('for ten seconds after a search read them small, per connector, entity and handle', () => {
    const small = new SmallEntities();
    const db = handle();
    small.saw(db, 'c1', 'customers', true, 1_000);
    expect(small.has(db, 'c1', 'customers', 1_000)).toBe(true);
    expect(small.has(db, 'c1', 'customers', 10_999)).toBe(true);
    expect(small.has(db, 'c1', 'customers', 11_000)).toBe(false);
    expect(small.has(db, 'c1', 'invoices', 1_000)).toBe(false);
    expect(small.has(db, 'c2', 'customers', 1_000)).toBe(false);
    expect(small.has(handle(), 'c1', 'customers', 1_000)).toBe(false);
  });

  it('not once a read finds the entity grown past small', () => {
    const small = new SmallEntities();
    const db = handle();
    small.saw(db, 'c1', 'customers', true, 0);
    small.saw(db, 'c1', 'customers', false, 5);
    expect(small.has(db, 'c1', 'customers', 6)).toBe(false);
  });

  it('bounded: past 10,000 entities per handle it starts over, keeping the newest', () => {
    const small = new SmallEntities();
    const db = handle();
    for (let i = 0; i < 10_000; i++) small.saw(db, `c${i}`, 'customers', true, 0);
    expect(small.has(db, 'c0', 'customers', 1)).toBe(true);
    small.saw(db, 'newest', 'customers', true, 0);
    expect(small.has(db, 'c0', 'customers', 1)).toBe(false);
    expect(small.has(db, 'newest', 'customers', 1)).toBe(true);
  });
});
