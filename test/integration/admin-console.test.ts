/**
 * The search console's routes: an entity's searchable fields, and execute in the admin scope.
 * An operator reaches another organization's connector there, and only there (the tenant route
 * still answers 404 to an admin token of another organization); user tokens get 403; every
 * operator search is logged with the token id and the organization read, never the filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSyncedHarness, type Harness } from './helpers/harness.js';

describe('search console routes', () => {
  let h: Harness;
  let id: string;
  let user: string;
  let admin: string;
  const body = { entity: 'customers', action: 'search', params: { query: { filter: { like: { email: '%example%' } } }, limit: 5 } };
  const call = (method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) => h.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload }) });

  beforeAll(async () => {
    ({ h, id } = await startSyncedHarness(20));
    user = await h.token();
    admin = await h.token('ops', true);
  });
  afterAll(async () => h?.close());

  it("searches another organization's connector through the admin scope only, with the agents' answer", async () => {
    const tenant = await call('POST', `/api/v1/integrations/connectors/${id}/execute`, user, body);
    const console_ = await call('POST', `/admin/api/connectors/${id}/execute`, admin, body);
    expect(console_.statusCode).toBe(200);
    const ids = (r: Awaited<ReturnType<typeof call>>) => (r.json() as { hits: { id: string }[] }).hits.map((x) => x.id);
    expect(ids(console_)).toEqual(ids(tenant));
    expect(ids(console_)).toHaveLength(5);
    expect((await call('POST', `/api/v1/integrations/connectors/${id}/execute`, admin, body)).statusCode).toBe(404);
    expect((await call('POST', `/admin/api/connectors/${id}/execute`, user, body)).statusCode).toBe(403);
    expect((await call('GET', `/admin/api/connectors/${id}/search-fields`, user)).statusCode).toBe(403);
    const audit = h.logs.filter((l) => l.includes('operator search')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ connector: id, entity: 'customers' });
    expect(audit[0]?.operatorTokenId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(audit)).not.toContain('%example%');
  });

  it('answers errors in the one shape, with the path of the offending part', async () => {
    const res = await call('POST', `/admin/api/connectors/${id}/execute`, admin, { ...body, params: { query: { filter: { and: [{ eq: { nmae: 'x' } }] } } } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 'unknown_field', message: expect.stringContaining('nmae'), path: 'query.filter.and[0].eq.nmae' } });
  });

  it('lists the searchable fields of the replicated entities with types and operators', async () => {
    const res = await call('GET', `/admin/api/connectors/${id}/search-fields`, admin);
    const { entities } = res.json() as { entities: { entity: string; fields: { path: string; type: string; operators: string[]; sortable: boolean; items: string | null }[] }[] };
    expect(entities.map((e) => e.entity)).toEqual(['customers']);
    const field = (p: string) => entities[0]?.fields.find((f) => f.path === p);
    expect(field('name')).toMatchObject({ type: 'string', sortable: true });
    expect(field('name')?.operators).toEqual(expect.arrayContaining(['eq', 'like', 'fuzzy', 'keyword']));
    expect(field('delinquent')?.operators).toEqual(['eq', 'neq', 'in']);
    expect(field('preferred_locales')).toMatchObject({ type: 'array', items: 'string', sortable: false });
  });
});
