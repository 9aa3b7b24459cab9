/**
 * The round trips of a search through the tenant execute endpoint, its hot path: on loopback a
 * round trip to Postgres is a fair share of an `eq` search's few milliseconds. The token and the
 * connector are read in one statement, and a search that cannot have a top tier (an `eq`; a
 * ranked one on an entity known small) checks its entity's text state in its own statement: two
 * statements for an `eq`, where there were four. Only an empty answer reads the state again.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSyncedHarness, type Harness } from './helpers/harness.js';

// What the statistics keeper runs after the first searches of a fresh entity (table-stats.ts), not the request.
const BACKGROUND = /^\s*analyze|gin_clean_pending_list|pg_try_advisory|pg_stat_user_tables|as partition from unnest/;

describe('round trips of an execute search', () => {
  let h: Harness;
  let id: string;
  let token: string;
  beforeAll(async () => {
    ({ h, id } = await startSyncedHarness(300));
    token = await h.token();
  });
  afterAll(async () => h?.close());

  /** The statements one request sends to Postgres, in order. */
  const statementsOf = async (connectorId: string, params: unknown, auth = token): Promise<{ status: number; statements: string[] }> => {
    const spy = vi.spyOn(pg.Client.prototype, 'query');
    try {
      const res = await h.app.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${connectorId}/execute`, headers: { authorization: `Bearer ${auth}` }, payload: { entity: 'customers', action: 'search', params } });
      const statements = spy.mock.calls.map((c) => (typeof c[0] === 'string' ? c[0] : String((c[0] as { text?: unknown }).text ?? ''))).filter((q) => /api_tokens|connectors|entity_state|records|search_vocab/.test(q) && !BACKGROUND.test(q));
      return { status: res.statusCode, statements };
    } finally {
      spy.mockRestore();
    }
  };

  it('an eq search: the token with its connector, then the search with its text check', async () => {
    const email = h.sandbox.dataset('payments', 'customers').all().map((c) => c.email).find((e) => typeof e === 'string');
    expect(email).toBeDefined();
    // The process's first search of the entity also asks which partition holds it (once).
    const first = await statementsOf(id, { query: { filter: { eq: { email } } } });
    expect(first.statements, first.statements.join('\n---\n')).toHaveLength(3);
    expect(first.statements[1]).toMatch(/syncdex_find_records_partition/);
    const { status, statements } = await statementsOf(id, { query: { filter: { eq: { email } } } });
    expect(status).toBe(200);
    expect(statements, statements.join('\n---\n')).toHaveLength(2);
    expect(statements[0]).toMatch(/api_tokens/);
    expect(statements[0]).toMatch(/connectors/);
    expect(statements[1]).toMatch(/entity_state/);
    expect(statements[1]).toMatch(/records__customers/);
  });

  it('a ranked keyword search on a small entity: once its size is known, the token, then the search with its text check', async () => {
    const params = { query: { filter: { keyword: { name: 'grace hopper' } } } };
    // The first reads the entity's state (text complete? how many records?) before its search.
    const first = await statementsOf(id, params);
    expect(first.status).toBe(200);
    expect(first.statements.some((q) => /entity_state/.test(q) && !/records/.test(q)), first.statements.join('\n---\n')).toBe(true);
    // Within the next seconds the entity is known small: no tier, so no read before the search.
    const { status, statements } = await statementsOf(id, params);
    expect(status).toBe(200);
    expect(statements, statements.join('\n---\n')).toHaveLength(2);
    expect(statements[0]).toMatch(/api_tokens/);
    expect(statements[1]).toMatch(/entity_state/);
    expect(statements[1]).toMatch(/records__customers/);
  });

  /** The statements of a search's second run, once the entity is known small: an empty answer is asserted. */
  const emptyAgain = async (filter: unknown): Promise<string[]> => {
    await statementsOf(id, { query: { filter } });
    const res = await h.app.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${id}/execute`, headers: { authorization: `Bearer ${token}` }, payload: { entity: 'customers', action: 'search', params: { query: { filter } } } });
    expect((res.json() as { hits: unknown[] }).hits).toEqual([]);
    const { status, statements } = await statementsOf(id, { query: { filter } });
    expect(status).toBe(200);
    return statements;
  };

  it('a ranked search on a small entity that finds nothing reads the text state after its search: an empty page may be a shut gate', async () => {
    const statements = await emptyAgain({ keyword: { name: 'qqzzxx vvwwyy' } });
    expect(statements, statements.join('\n---\n')).toHaveLength(3);
    expect(statements[1]).toMatch(/records__customers/);
    expect(statements[2]).toMatch(/entity_state/);
    expect(statements[2]).not.toMatch(/records/);
  });

  it('a fuzzy search on a small entity that finds nothing reads the text state with its expansions: no statement after its page', async () => {
    const statements = await emptyAgain({ and: [{ fuzzy: { name: 'grace hoper' } }, { eq: { currency: 'zzz' } }] });
    expect(statements, statements.join('\n---\n')).toHaveLength(3);
    expect(statements[1]).toMatch(/search_vocab/);
    expect(statements[1]).toMatch(/entity_state/);
    expect(statements[2]).toMatch(/records__customers/);
    expect(statements[2]).not.toMatch(/entity_state/);
  });

  it("another organization's connector and an unknown token cost the one statement, and answer 404 and 401", async () => {
    const stranger = await h.token('someone-else');
    const theirs = await statementsOf(id, { query: {} }, stranger);
    expect(theirs.status).toBe(404);
    expect(theirs.statements).toHaveLength(1);
    const forged = await statementsOf(id, { query: {} }, 'not-a-token');
    expect(forged.status).toBe(401);
    expect(forged.statements).toHaveLength(1);
  });
});
