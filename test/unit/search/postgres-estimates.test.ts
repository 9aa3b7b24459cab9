import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import { parseSearchParams } from '../../../src/search/dsl/parse.js';
import { compileSearch } from '../../../src/search/postgres/compile-search.js';
import { target } from '../../conformance/dataset.js';

// Compiles only: no database behind it (the conformance suites run the same SQL).
const db = new Kysely<never>({ dialect: { createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (k) => new PostgresIntrospector(k), createQueryCompiler: () => new PostgresQueryCompiler() } });
const compiled = (filter: unknown): string => compileSearch({ target, connectorId: '00000000-0000-0000-0000-000000000000', query: parseSearchParams(target, { query: { filter } }), after: null, size: 11 }).compile(db).sql;

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
