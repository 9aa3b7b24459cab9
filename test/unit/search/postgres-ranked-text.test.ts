import { describe, expect, it } from 'vitest';
import { compiledSql as compiled } from './postgres-sql.js';

const splits = (sql: string): number => sql.split('regexp_split_to_array').length - 1;

describe('a ranked page with top-level text conjuncts (Postgres)', () => {
  it('splits a keyword value into words once per candidate string, for its score, and filters on that score', () => {
    const sql = compiled({ keyword: { name: 'grace hopper' } });
    // The score's two candidate forms (a string, an array's strings): no second split for the filter.
    expect(splits(sql)).toBe(2);
    expect(sql).toContain('"x"."s0" > 0');
  });

  it('does the same for each text conjunct of an and, and leaves the other conjuncts in the scan', () => {
    const sql = compiled({ and: [{ fuzzy: { name: 'ada lovelase' } }, { eq: { active: true } }, { keyword: { tags: 'vip' } }] });
    expect(splits(sql)).toBe(4);
    expect(sql).toContain('"x"."s0" > 0 and "x"."s1" > 0');
    expect(sql).toMatch(/"data" @> \$\d+::jsonb/);
  });

  it('leaves text under or and not in the filter, where its score is not its condition', () => {
    const sql = compiled({ or: [{ keyword: { name: 'grace' } }, { eq: { active: true } }] });
    expect(sql).not.toContain('"x"."s0"');
  });
});
