/**
 * The tenant condition of the Postgres backend's scan: a page ranked by score with word
 * requirements keeps it from the indexes (the word GIN is per tenant already) and is marked to be
 * planned once; every other page leaves it to them, planned for its values; both filter on it.
 */
import { describe, expect, it } from 'vitest';
import { parseSearchParams } from '../../../src/search/dsl/parse.js';
import { compileCheckedSearch, compileSearch } from '../../../src/search/postgres/compile-search.js';
import { EXACT_ONLY, type IndexPlan } from '../../../src/search/postgres/index-plan.js';
import { GENERIC_PLAN } from '../../../src/store/plan-marker.js';
import { target } from '../../conformance/dataset.js';
import { offlineDb as db } from './postgres-sql.js';

const TENANT = '00000000-0000-0000-0000-000000000007';
const WORDS: IndexPlan = { lookup: [], text: [], words: [[['name:grace']], [['name:hopper']]] };

const req = (params: unknown) => ({ target, connectorId: TENANT, query: parseSearchParams(target, params), after: null, size: 11 });
const sqlOf = (params: unknown, plan: IndexPlan = WORDS): { sql: string; parameters: readonly unknown[] } => compileSearch(req(params), plan).compile(db);

/** The placeholder the tenant's id is bound to. */
const tenantParam = (c: { parameters: readonly unknown[] }): string => `$${c.parameters.indexOf(TENANT) + 1}`;

describe('the tenant condition of a Postgres search page', () => {
  it('a page ranked by score with word requirements filters on the tenant where no index can serve it', () => {
    for (const filter of [{ keyword: { name: 'grace hopper' } }, { or: [{ keyword: { name: 'grace' } }, { fuzzy: { name: 'hopper' } }] }]) {
      const c = sqlOf({ query: { filter } });
      expect(c.sql, JSON.stringify(filter)).toContain(`(t.connector_id = ${tenantParam(c)}::uuid) is true`);
      expect(c.sql).toMatch(/t\.words @> \$\d+::int4\[\]/);
      expect(c.sql.startsWith(GENERIC_PLAN)).toBe(true);
    }
  });

  it('so does the page of a plan that assumed complete text, gated on the entity state', () => {
    const c = compileCheckedSearch(req({ query: { filter: { keyword: { name: 'grace hopper' } } } }), { ...WORDS, assumesText: true }).compile(db);
    expect(c.sql).toContain(`(t.connector_id = ${tenantParam(c)}::uuid) is true`);
    expect(c.sql).toMatch(/coalesce\(\(select e\.text_complete from entity_state e/);
    expect(c.sql.startsWith(GENERIC_PLAN)).toBe(true);
  });

  it('a page sorted by a field, or without word requirements, leaves the tenant to its indexes and is planned for its values', () => {
    const byField = sqlOf({ query: { filter: { keyword: { name: 'grace hopper' } }, sort: [{ created: 'desc' }] } });
    const exact = sqlOf({ query: { filter: { keyword: { name: 'grace hopper' } } } }, EXACT_ONLY);
    for (const c of [byField, exact]) {
      expect(c.sql).toContain(`where t.connector_id = ${tenantParam(c)}::uuid and`);
      expect(c.sql).not.toContain('is true');
      expect(c.sql).not.toContain(GENERIC_PLAN.trim());
    }
  });
});
