import { describe, expect, it } from 'vitest';
import { compiledSql as compiled } from './postgres-sql.js';

const UNESTIMATED_DOC = /\(case when \("t"\."data" @> \$\d+::jsonb or "t"\."data" @> \$\d+::jsonb\) then true else false end\)/;

describe('what the Postgres planner estimates', () => {
  it('a string eq on a document field is a CASE it does not estimate: the words GIN clause carries its selectivity', () => {
    for (const filter of [{ eq: { 'address.city': 'London' } }, { neq: { 'address.city': 'London' } }, { in: { 'address.city': ['London', 'Paris'] } }]) {
      const sql = compiled(filter);
      expect(sql, JSON.stringify(filter)).toMatch(UNESTIMATED_DOC);
    }
    expect(compiled({ contains: { tags: 'vip' } })).toMatch(/\(case when \("t"\."data" @> \$\d+::jsonb\) then true else false end\)/);
  });

  it('an eq on a lookup field stays the containment the keys GIN answers', () => {
    const sql = compiled({ eq: { email: 'ada@example.com' } });
    expect(sql).toMatch(/\("t"\."keys" is not null and \("t"\."keys" @> \$\d+::jsonb or "t"\."keys" @> \$\d+::jsonb\)\)/);
    expect(sql).not.toContain('then true else false end');
  });

  it('a number or boolean eq keeps its estimate: no word requirement stands in for it', () => {
    for (const filter of [{ eq: { age: 36 } }, { eq: { active: true } }]) {
      const sql = compiled(filter);
      expect(sql, JSON.stringify(filter)).toMatch(/\("t"\."data" @> \$\d+::jsonb or "t"\."data" @> \$\d+::jsonb\)/);
      expect(sql, JSON.stringify(filter)).not.toContain('then true else false end');
    }
  });
});
