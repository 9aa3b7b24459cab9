/**
 * The word pre-filter's shape: one-word alternatives share one `&&`; an alternative of several
 * words is required whole (`@>`), up to WHOLE_ALTERNATIVES_MAX of them, and past that weakened to
 * its longest word. Its effect on the rows read is tested on a real plan (text-prefilter.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseSearchParams } from '../../../src/search/dsl/parse.js';
import { compileSearch, WHOLE_ALTERNATIVES_MAX } from '../../../src/search/postgres/compile-search.js';
import type { IndexPlan } from '../../../src/search/postgres/index-plan.js';
import { tenantSeed, tokenHash, type WordRequirement } from '../../../src/search/postgres/word-index.js';
import { target } from '../../conformance/dataset.js';
import { offlineDb as db } from './postgres-sql.js';

const TENANT = '00000000-0000-0000-0000-000000000007';
const seed = tenantSeed(TENANT, target.entity);
const hashes = (...tokens: string[]): number[] => tokens.map((t) => tokenHash(seed, t));

/** The word conditions of a page whose plan holds `words`, and the statement's parameters. */
function compiled(words: WordRequirement[]): { conds: string[]; parameters: readonly unknown[] } {
  const plan: IndexPlan = { lookup: [], text: [], words };
  const c = compileSearch({ target, connectorId: TENANT, query: parseSearchParams(target, { query: { filter: { eq: { age: 30 } } } }), after: null, size: 11 }, plan).compile(db);
  return { conds: c.sql.match(/t\.words (?:&&|@>) \$\d+::int4\[\]/g) ?? [], parameters: c.parameters };
}

describe('the word pre-filter of a Postgres search page', () => {
  it('one-word alternatives: any of them, in one array', () => {
    const { conds, parameters } = compiled([[['name:ada'], ['name:grace']]]);
    expect(conds).toHaveLength(1);
    expect(conds[0]).toMatch(/&&/);
    expect(parameters).toContainEqual(hashes('name:ada', 'name:grace'));
  });

  it('multi-word alternatives: each whole, or-ed with the one-word ones', () => {
    const { conds, parameters } = compiled([[['r:support', 'r:998'], ['r:support', 'r:12'], ['r:eu']]]);
    expect(conds.map((c) => c.slice(8, 10))).toEqual(['&&', '@>', '@>']);
    expect(parameters).toContainEqual(hashes('r:eu'));
    expect(parameters).toContainEqual(hashes('r:support', 'r:998'));
    expect(parameters).toContainEqual(hashes('r:support', 'r:12'));
  });

  it(`past ${WHOLE_ALTERNATIVES_MAX} multi-word alternatives, the rest are weakened to their longest word`, () => {
    const alts = Array.from({ length: WHOLE_ALTERNATIVES_MAX + 2 }, (_, i) => ['r:support', `r:unique${i}`]);
    const { conds, parameters } = compiled([alts]);
    expect(conds.filter((c) => c.includes('@>'))).toHaveLength(WHOLE_ALTERNATIVES_MAX);
    expect(conds.filter((c) => c.includes('&&'))).toHaveLength(1);
    expect(parameters).toContainEqual(hashes(`r:unique${WHOLE_ALTERNATIVES_MAX}`, `r:unique${WHOLE_ALTERNATIVES_MAX + 1}`));
  });
});
