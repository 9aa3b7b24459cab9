import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PostgresSearchBackend } from '../../src/search/postgres/postgres-backend.js';
import { runSearch } from '../../src/search/search-service.js';
import { projectDoc } from '../../src/search/reference/project.js';
import { evaluateSearch } from '../../src/search/reference/evaluate.js';
import { parseSearchParams } from '../../src/search/dsl/parse.js';
import { searchTarget } from '../../src/search/target.js';
import { createDb } from '../../src/store/db.js';
import { startHarness, type Harness } from './helpers/harness.js';

type Hit = { id: string; score: number; data: Record<string, unknown> };
type SearchBody = { hits: Hit[]; next_cursor: string | null; took_ms: number };

describe('search through the execute endpoint (Postgres backend)', () => {
  let h: Harness;
  let token: string;
  let connectorId: string;
  let customers: Record<string, unknown>[];

  const search = async (params: unknown, auth: string | null = token) =>
    h.app.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${connectorId}/execute`,
      headers: auth === null ? {} : { authorization: `Bearer ${auth}` },
      payload: { entity: 'customers', action: 'search', params },
    });

  beforeAll(async () => {
    h = await startHarness();
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 600 });
    token = await h.token();
    connectorId = (await h.createConnector(token)).id;
    const [run] = await h.runsOf(connectorId);
    const done = await h.waitRun(run!.id);
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    customers = h.sandbox.dataset('payments', 'customers').all();
  });
  afterAll(async () => h?.close());

  it('eq returns exactly the matching records', async () => {
    const target = customers.find((c) => c.currency === 'eur');
    const expected = customers.filter((c) => c.currency === 'eur').map((c) => String(c.id)).sort();
    const res = await search({ query: { filter: { eq: { currency: target!.currency } } }, limit: 10000 });
    expect(res.statusCode).toBe(200);
    const body = res.json() as SearchBody;
    expect(body.hits.map((x) => x.id)).toEqual(expected);
    expect(body.next_cursor).toBeNull();
    expect(body.took_ms).toBeGreaterThanOrEqual(0);
    expect(body.hits.every((x) => x.score === 1 && x.data.currency === 'eur')).toBe(true);
  });

  it("answers each hit's fields as the reference projects them, over HTTP and in process alike, paging past a sort field it leaves out", async () => {
    const target = searchTarget('payments', 'customers');
    const byId = new Map(customers.map((c) => [String(c.id), c]));
    // Sandbox customers hold fields that are not searchable (business_name, cash_balance, ...): never answered.
    expect(customers.some((c) => Object.keys(c).some((k) => !(k in target.searchable)))).toBe(true);
    const cases: { fields?: string[]; sort?: unknown[] }[] = [{}, { fields: ['id', 'email'] }, { fields: ['metadata.region', 'name', 'metadata'] }, { fields: ['id'], sort: [{ created: 'desc' }] }, { fields: ['address.city'], sort: [{ balance: 'asc' }] }];
    for (const c of cases) {
      const params = { query: { filter: { eq: { currency: 'eur' } }, ...(c.sort === undefined ? {} : { sort: c.sort }) }, ...(c.fields === undefined ? {} : { fields: c.fields }), limit: 7 };
      const fields = c.fields === undefined ? null : c.fields.map((f) => f.split('.'));
      const expected = evaluateSearch(target, parseSearchParams(target, params), customers.map((d) => ({ id: String(d.id), doc: d }))).slice(0, 21).map((x) => x.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 3; page++) {
        const paged: Record<string, unknown> = cursor === null ? params : { ...params, cursor };
        const res = await search(paged);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        const body = res.json() as SearchBody;
        const local = await runSearch(h.deps, { id: connectorId, connectorType: 'payments' }, 'customers', paged);
        expect(body.hits, JSON.stringify(c)).toEqual(local.hits);
        expect(body.next_cursor).toBe(local.next_cursor);
        for (const hit of body.hits) expect(hit.data, JSON.stringify(c)).toEqual(projectDoc(target, fields, byId.get(hit.id) ?? {}));
        expect(body.hits).toHaveLength(7);
        seen.push(...body.hits.map((x) => x.id));
        cursor = body.next_cursor;
      }
      expect(seen, JSON.stringify(c)).toEqual(expected);
    }
  });

  it('and of eq filters matches the intersection', async () => {
    const expected = customers.filter((c) => c.currency === 'usd' && c.delinquent === true).map((c) => String(c.id)).sort();
    const res = await search({ query: { filter: { and: [{ eq: { currency: 'usd' } }, { eq: { delinquent: true } }] } } });
    expect((res.json() as SearchBody).hits.map((x) => x.id)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });

  it('paging with next_cursor returns each record once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await search({ query: {}, limit: 97, ...(cursor === null ? {} : { cursor }) });
      expect(res.statusCode).toBe(200);
      const body = res.json() as SearchBody;
      seen.push(...body.hits.map((x) => x.id));
      cursor = body.next_cursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(Math.ceil(600 / 97));
    expect(seen).toEqual(customers.map((c) => String(c.id)).sort());
  });

  it('a malformed filter is a 400 naming the path', async () => {
    const res = await search({ query: { filter: { and: [{ eq: { currency: 'usd' } }, { eq: { nope: 1 } }] } } });
    expect(res.statusCode).toBe(400);
    const err = (res.json() as { error: { code: string; message: string; path: string } }).error;
    expect(err.code).toBe('unknown_field');
    expect(err.path).toBe('query.filter.and[1].eq.nope');
    expect(err.message).toContain('email');
  });

  it('a wrongly typed value is a type_mismatch with its path', async () => {
    const res = await search({ query: { filter: { eq: { balance: 'lots' } } } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'type_mismatch', path: 'query.filter.eq.balance' } });
  });

  it('a tampered cursor is invalid_cursor', async () => {
    const first = (await search({ query: {}, limit: 5 })).json() as SearchBody;
    const res = await search({ query: {}, limit: 5, cursor: `${first.next_cursor!.slice(0, -2)}xx` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'invalid_cursor', path: 'cursor' } });
  });

  it('requests without a token get 401, with an unknown token too', async () => {
    expect((await search({ query: {} }, null)).statusCode).toBe(401);
    expect((await search({ query: {} }, 'sdx_forged')).statusCode).toBe(401);
  });

  it("another organization's connector is 404, not 403", async () => {
    const other = await h.token('other-org');
    const res = await search({ query: {} }, other);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('other actions are action_not_supported, naming the execution service', async () => {
    const res = await h.app.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${connectorId}/execute`, headers: { authorization: `Bearer ${token}` }, payload: { entity: 'customers', action: 'list' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'action_not_supported', path: 'action' } });
    expect(res.body).toContain('execution service');
  });

  it('answers 503 unavailable with Retry-After when the database connection dies under a search', async () => {
    // Hold the search on a lock, then kill its connection: what a failover does to a request.
    const blocker = new pg.Client({ connectionString: h.env.DATABASE_URL, application_name: 'test-blocker' });
    await blocker.connect();
    try {
      await blocker.query('begin; lock table records in access exclusive mode');
      const pending = search({ query: { filter: { eq: { currency: 'eur' } } } });
      const waiting = sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where application_name = 'syncdex' and wait_event_type = 'Lock'`;
      await vi.waitFor(async () => expect((await waiting.execute(h.deps.db)).rows[0]!.n).toBeGreaterThan(0), { timeout: 20_000, interval: 25 });
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'syncdex' and wait_event_type = 'Lock'`.execute(h.deps.db);
      const res = await pending;
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toEqual({ error: { code: 'unavailable', message: 'the database is unavailable; try again' } });
    } finally {
      await blocker.query('rollback');
      await blocker.end();
    }
    expect((await search({ query: { filter: { eq: { currency: 'eur' } } } })).statusCode).toBe(200);
  });

  it('runs the largest in-lists the contract allows: 40 lists of 1,000 values under one or (each list is one parameter)', async () => {
    const emails = (k: number) => Array.from({ length: 1000 }, (_, i) => `u${k}_${i}@example.com`);
    const first = (await search({ query: {}, limit: 2 })).json() as { hits: { id: string; data: { email: string } }[] };
    const wanted = first.hits.map((x) => x.data.email);
    const filter = { or: Array.from({ length: 40 }, (_, k) => ({ in: { email: k === 39 ? [...wanted, ...emails(k).slice(2)] : emails(k) } })) };
    const res = await search({ query: { filter } });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { hits: { id: string }[] }).hits.map((x) => x.id)).toEqual(first.hits.map((x) => x.id));
    const ids = { or: Array.from({ length: 40 }, (_, k) => ({ in: { id: k === 0 ? first.hits.map((x) => x.id) : emails(k) } })) };
    const byId = await search({ query: { filter: ids } });
    expect(byId.statusCode, byId.body).toBe(200);
    expect((byId.json() as { hits: { id: string }[] }).hits.map((x) => x.id)).toEqual(first.hits.map((x) => x.id));
  });

  it('runs searches on their own pool, whose connections carry SEARCH_TIMEOUT_MS (default 30 s)', async () => {
    const show = async (db: typeof h.deps.db) => (await sql<{ statement_timeout: string }>`show statement_timeout`.execute(db)).rows[0]?.statement_timeout;
    expect(await show(h.deps.searchDb)).toBe('30s');
    expect(await show(h.deps.db)).toBe('0');
  });

  it('stops a search that runs past the statement timeout and says how to narrow it', async () => {
    // What deps.ts builds from SEARCH_TIMEOUT_MS, at 200 ms: the pool enforces it, the backend words it.
    const backend = new PostgresSearchBackend({ timeoutMs: 200 });
    const searchDb = createDb(h.env.DATABASE_URL as string, 2, { statementTimeoutMs: 200 }).db;
    const connector = { id: connectorId, connectorType: 'payments' };
    // Stalled on a lock, the search would wait for as long as the lock is held.
    const blocker = new pg.Client({ connectionString: h.env.DATABASE_URL, application_name: 'test-blocker' });
    await blocker.connect();
    try {
      await blocker.query('begin; lock table records in access exclusive mode');
      const e = await runSearch({ ...h.deps, backend, searchDb }, connector, 'customers', { query: { filter: { eq: { currency: 'eur' } } } }).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'invalid_query', path: 'query.filter' });
      expect((e as Error).message).toContain('0.2 s');
    } finally {
      await blocker.query('rollback');
      await blocker.end();
    }
    const ok = await runSearch({ ...h.deps, backend, searchDb }, connector, 'customers', { query: { filter: { eq: { currency: 'eur' } } } });
    expect(ok.hits.length).toBeGreaterThan(0);
    await searchDb.destroy();
  });

  it('says an entity is not replicated by this connector instead of answering an empty page', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${connectorId}/execute`,
      headers: { authorization: `Bearer ${token}` },
      payload: { entity: 'invoices', action: 'search', params: { query: {} } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'entity_not_searchable', path: 'entity', message: expect.stringContaining('replication_config.entities') } });
  });
});
