import { describe, expect, it } from 'vitest';
import { compiledSql as compiled } from './postgres-sql.js';

describe('words of the exact text predicates (Postgres)', () => {
  it('are written out in place for a few text operators (sx_words is never inlined by the planner)', () => {
    const sql = compiled({ and: [{ keyword: { name: 'ada' } }, { fuzzy: { name: 'lovelace' } }] });
    expect(sql).not.toContain('sx_words');
    expect(sql).toContain('regexp_split_to_array');
  });

  it('go through sx_words past eight text operators, which keeps filters at the bounds under the statement limit', () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ keyword: { name: `w${i}` } }));
    const sql = compiled({ or: many });
    expect(sql).toContain('sx_words');
    expect(sql).not.toContain('regexp_split_to_array');
    expect(sql.length).toBeLessThan(compiledInlineLength(many));
  });
});

/** The same filter's SQL with eight of its nine operators: the inline form per operator costs more text. */
function compiledInlineLength(many: readonly unknown[]): number {
  const eight = compiled({ or: many.slice(0, 8) });
  expect(eight).not.toContain('sx_words');
  return (eight.length / 8) * 9;
}
