import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/api/dashboard/dom.js';
import { buildApi } from '../../src/api/server.js';
import { startHarness, type Harness } from './helpers/harness.js';

type Route = { method: 'GET' | 'POST' | 'DELETE'; url: string };
type Err = { error: { code: string; path?: string } };

const SECRET = `sk_live_${randomBytes(12).toString('hex')}`;
const OAUTH_SECRET_ID = `oauth_${randomBytes(12).toString('hex')}`;
const DASHBOARD_DIR = new URL('../../src/api/dashboard/', import.meta.url);

describe('security: auth, tenancy, secrets, injection', () => {
  let h: Harness;
  let admin: string;
  let user: string;
  let other: string;
  let connectorId: string;
  let runId: string;
  let routes: Route[];
  const responses: string[] = [];

  const call = async (method: Route['method'], url: string, token: string | null, payload?: unknown) => {
    const res = await h.app.inject({ method, url, headers: token === null ? {} : { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
    responses.push(res.body, JSON.stringify(res.headers));
    return res;
  };
  const search = (params: unknown, entity = 'customers') => call('POST', `/api/v1/integrations/connectors/${connectorId}/execute`, user, { entity, action: 'search', params });

  /** Every documented route with its path parameters filled in. */
  async function documentedRoutes(): Promise<Route[]> {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const out: Route[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      const url = path.replace('{id}', path.startsWith('/admin/api/runs') ? runId : connectorId).replace('{entity}', 'customers');
      for (const method of Object.keys(ops)) out.push({ method: method.toUpperCase() as Route['method'], url });
    }
    return out;
  }

  beforeAll(async () => {
    h = await startHarness();
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 120 });
    admin = await h.token('ops', true);
    user = await h.token('acme');
    other = await h.token('globex');
    const created = await call('POST', '/api/v1/integrations/connectors', user, { external_user_id: 'u1', connector_type: 'payments', name: 'Payments', credentials: { api_key: SECRET }, replication_config: { entities: ['customers'] } });
    expect(created.statusCode, created.body).toBe(201);
    connectorId = (created.json() as { id: string }).id;
    runId = (await h.runsOf(connectorId))[0]!.id;
    expect((await h.waitRun(runId)).status).toBe('succeeded');
    routes = await documentedRoutes();
  });
  afterAll(async () => h?.close());

  it('documents every route it protects, and /admin/queues on top', () => {
    expect(routes.length).toBeGreaterThanOrEqual(18);
    expect(routes.filter((r) => r.url.startsWith('/admin/api/')).length).toBeGreaterThanOrEqual(13);
  });

  it('answers 401 without a token (or with a forged one) on every non-public route', async () => {
    const open = new Set(['/healthz', '/readyz', '/metrics', '/openapi.json']);
    const guarded = [...routes.filter((r) => !open.has(r.url)), { method: 'GET', url: '/admin/queues' }, { method: 'GET', url: '/admin/queues/api/queues' }] as Route[];
    for (const r of guarded) {
      for (const token of [null, 'sdx_forged']) {
        const res = await call(r.method, r.url, token, r.method === 'POST' ? {} : undefined);
        expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
      }
    }
    for (const url of open) expect((await call('GET', url, null)).statusCode, url).toBe(200);
  });

  it("hides another organization's connector: 404 on every connector route, absent from its list", async () => {
    for (const r of routes.filter((x) => x.url.startsWith(`/api/v1/integrations/connectors/${connectorId}`))) {
      const res = await call(r.method, r.url, other, { entity: 'customers', action: 'search', params: {} });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(404);
      expect((res.json() as Err).error.code).toBe('not_found');
    }
    expect((await call('GET', '/api/v1/integrations/connectors', other)).json()).toEqual({ connectors: [], next_cursor: null });
    // An admin token is a token of its own organization on the tenant routes (DESIGN §6).
    for (const r of routes.filter((x) => x.url.startsWith(`/api/v1/integrations/connectors/${connectorId}`))) {
      const res = await call(r.method, r.url, admin, { entity: 'customers', action: 'search', params: {} });
      expect(res.statusCode, `admin ${r.method} ${r.url}`).toBe(404);
    }
    expect((await call('GET', `/admin/api/connectors/${connectorId}`, admin)).statusCode).toBe(200);
    expect(((await call('GET', '/api/v1/integrations/connectors', user)).json() as { connectors: { id: string }[] }).connectors.map((c) => c.id)).toEqual([connectorId]);
  });

  it('answers 403 to a user token on every admin route', async () => {
    const adminRoutes = [...routes.filter((r) => r.url.startsWith('/admin/')), { method: 'GET', url: '/admin/queues' }] as Route[];
    for (const r of adminRoutes) {
      const res = await call(r.method, r.url, user, r.method === 'POST' ? {} : undefined);
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect((res.json() as Err).error.code).toBe('forbidden');
    }
    expect((await call('GET', '/admin/api/runs', admin)).statusCode).toBe(200);
  });

  it('judges access by the route matched, so a percent-encoded path cannot reach the queues board with a user token', async () => {
    for (const url of ['/admin/%71ueues/api/queues', '/admin/%71ueues', '/%61dmin/queues/api/queues']) {
      const res = await call('GET', url, user);
      expect(res.statusCode, url).toBe(403);
      expect((await h.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
    const pause = await h.app.inject({ method: 'PUT', url: '/admin/%71ueues/api/queues/syncdex-sync/pause', headers: { authorization: `Bearer ${user}` } });
    expect(pause.statusCode).toBe(403);
    expect(await h.deps.syncQueue.isPaused()).toBe(false);
  });

  it('accepts server_side_oauth_secret_id instead of credentials, and never returns either', async () => {
    const res = await call('POST', '/api/v1/integrations/connectors', user, { external_user_id: 'u2', connector_type: 'payments', name: 'OAuth one', server_side_oauth_secret_id: OAUTH_SECRET_ID, replication_config: { entities: ['customers'] } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ auth_method: 'oauth_secret' });
    const both = await call('POST', '/api/v1/integrations/connectors', user, { external_user_id: 'u2', connector_type: 'payments', name: 'x', server_side_oauth_secret_id: 'a', credentials: { api_key: 'b' }, replication_config: {} });
    expect(both.statusCode).toBe(400);
  });

  it('answers OAuth initiate (overview 5.3) with where it runs, behind the same token check', async () => {
    const body = { external_user_id: 'u2', connector_type: 'crm', redirect_url: 'https://app.example.com/cb' };
    expect((await call('POST', '/api/v1/integrations/connectors/oauth/initiate', null, body)).statusCode).toBe(401);
    const res = await call('POST', '/api/v1/integrations/connectors/oauth/initiate', user, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'action_not_supported', message: expect.stringContaining('server_side_oauth_secret_id') });
  });

  it('never lets a credential reach a response, a log line or the stored ciphertext in plaintext', async () => {
    expect((await search({ query: { filter: { like: { email: '%a%' } } }, limit: 5 })).statusCode).toBe(200);
    await call('GET', `/api/v1/integrations/connectors/${connectorId}`, user);
    await call('GET', '/admin/api/connectors', admin);
    await call('GET', `/admin/api/runs/${runId}`, admin);
    await h.waitRun((await call('POST', `/admin/api/connectors/${connectorId}/sync`, admin, {})).json().runs[0].id);
    // A retried 5xx and a failing 401 too: error paths must not echo the call they made.
    h.sandbox.faults.arm({ kind: 'status', status: 503, count: 1, connectorType: 'payments', entity: 'customers' });
    h.sandbox.faults.arm({ kind: 'status', status: 401, count: -1, connectorType: 'payments', entity: 'customers' });
    const failing = (await call('POST', `/admin/api/connectors/${connectorId}/sync`, admin, { mode: 'full' })).json().runs[0].id as string;
    expect((await h.waitRun(failing)).status).toBe('failed');
    h.sandbox.faults.clear();
    await call('GET', `/admin/api/runs/${failing}`, admin);
    const everything = [...responses, ...h.logs].join('\n');
    expect(h.logs.length).toBeGreaterThan(10);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(OAUTH_SECRET_ID);
    expect(everything).not.toContain(user);
    const rows = await h.deps.db.selectFrom('connectors').select(['secret_ciphertext']).execute();
    for (const r of rows) {
      expect(r.secret_ciphertext.includes(Buffer.from(SECRET))).toBe(false);
      expect(r.secret_ciphertext.includes(Buffer.from(OAUTH_SECRET_ID))).toBe(false);
    }
  });

  it('stores hostile connector names verbatim as data, changing nothing else', async () => {
    const count = () => h.deps.db.selectFrom('records').select((eb) => eb.fn.countAll<string>().as('n')).where('connector_id', '=', connectorId).executeTakeFirstOrThrow();
    const before = await count();
    const connectors = async () => (await h.deps.db.selectFrom('connectors').select('id').execute()).length;
    const nConnectors = await connectors();
    for (const name of ["x'; drop table records; --", '<script>alert(1)</script>', '<img src=x onerror="window.__xss=1">', 'Robert"); DELETE FROM connectors;--']) {
      const res = await call('POST', '/api/v1/integrations/connectors', user, { external_user_id: name, connector_type: 'payments', name, credentials: { api_key: 'k' }, replication_config: { entities: ['customers'] } });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ name, external_user_id: name });
    }
    expect((await count()).n).toBe(before.n);
    expect(await connectors()).toBe(nConnectors + 4);
  });

  it('rejects injection attempts in types, entities, paths and filters with 4xx, never 500', async () => {
    const create = await call('POST', '/api/v1/integrations/connectors', user, { external_user_id: 'u', connector_type: "payments'; drop table records; --", name: 'n', credentials: { api_key: 'k' }, replication_config: {} });
    expect((create.json() as Err).error.path).toBe('connector_type');
    for (const entity of ["customers'; drop table records; --", '__proto__', 'constructor', 'toString']) {
      expect((await search({ query: {} }, entity)).statusCode, entity).toBe(400);
    }
    for (const path of ['__proto__', 'constructor', 'constructor.name', "email') or 1=1 --", 'email"; drop table records; --']) {
      const res = await search({ query: { filter: { eq: { [path]: 'x' } } } });
      expect(res.statusCode, path).toBe(400);
    }
    // Inside an object field any key is data (DSL §6): such keys match nothing and pollute nothing.
    for (const path of ['metadata.__proto__.x', 'metadata.constructor', "metadata.a'); drop table records; --"]) {
      const res = await search({ query: { filter: { eq: { [path]: 'x' } } } });
      expect(res.statusCode, path).toBe(200);
      expect((res.json() as { hits: unknown[] }).hits, path).toEqual([]);
    }
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    const proto = await search(JSON.parse('{"query":{"filter":{"__proto__":{"eq":{"email":"x"}}}}}'));
    expect(proto.statusCode).toBe(400);
    for (const url of [`/api/v1/integrations/connectors/'%3B%20drop%20table%20records%3B--`, '/api/v1/integrations/connectors/%27%20or%201%3D1']) {
      expect((await call('GET', url, user)).statusCode).toBe(404);
    }
    for (const url of ['/admin/api/runs?entity=%27%3B%20drop%20table%20records', '/admin/api/runs?connector_id=%27%20or%201%3D1', '/admin/api/runs?status=failed%27--']) {
      expect((await call('GET', url, admin)).statusCode, url).toBe(400);
    }
    expect((await call('POST', `/admin/api/connectors/${connectorId}/entities/${encodeURIComponent("customers'--")}/resync`, admin, {})).statusCode).toBe(400);
  });

  it('answers inputs Postgres cannot hold, and malformed URLs and cookies, with 4xx in the one error shape', async () => {
    const nul = await search({ query: { filter: { eq: { email: 'a\u0000b' } } } });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toMatchObject({ error: { code: 'invalid_query', path: 'query.filter.eq.email', message: expect.stringContaining('NUL') } });
    // Outside `params` it is the request that is wrong, as for any other flaw in `entity`.
    const entityNul = await call('POST', `/api/v1/integrations/connectors/${connectorId}/execute`, user, { entity: 'cust\u0000', action: 'search', params: {} });
    expect(entityNul.json()).toMatchObject({ error: { code: 'invalid_request', path: 'entity' } });
    const create = await call('POST', '/api/v1/integrations/connectors', user, { external_user_id: 'u', connector_type: 'payments', name: 'n\u0000', credentials: { api_key: 'k' }, replication_config: {} });
    expect(create.json()).toMatchObject({ error: { code: 'invalid_request', path: 'name' } });
    // A lone UTF-16 surrogate: valid JSON, but no text Postgres can hold.
    const lone = await search({ query: { filter: { eq: { email: 'a\ud800b' } } } });
    expect(lone.statusCode).toBe(400);
    expect(lone.json()).toMatchObject({ error: { code: 'invalid_query', path: 'query.filter.eq.email', message: expect.stringContaining('surrogate') } });
    const ads = await call('POST', '/api/v1/integrations/connectors', user, { external_user_id: 'u', connector_type: 'ad_platform_marketing', name: 'n', credentials: { access_token: 't' }, replication_config: { account_ids: ['\udc00'] } });
    expect(ads.statusCode).toBe(400);
    expect(ads.json()).toMatchObject({ error: { code: 'invalid_request', path: 'replication_config.account_ids[0]' } });
    // 36 characters of hex or dashes, but not a uuid.
    for (const id of ['0'.repeat(36), '-'.repeat(36)]) expect((await call('GET', `/api/v1/integrations/connectors/${id}`, user)).statusCode, id).toBe(404);
    const badUrl = await call('GET', '/api/v1/integrations/connectors/%E0%A4%A', user);
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toMatchObject({ error: { code: 'invalid_request' } });
    const hugeKey = 'k'.repeat(200_000);
    const huge = await search({ query: { filter: { [hugeKey]: {} } } });
    expect(huge.statusCode).toBe(400);
    expect(huge.body.length).toBeLessThan(2_000);
    const cookie = await h.app.inject({ method: 'GET', url: '/admin/api/runs', headers: { cookie: 'sdx_admin=%' } });
    expect(cookie.statusCode).toBe(401);
    expect(cookie.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it('readyz says which dependency is down, never why (hosts and users stay in the log)', async () => {
    const backend = Object.create(h.deps.backend, { ping: { value: async () => { throw new Error('connect ECONNREFUSED 10.9.8.7:9200 as user "indexer"'); } } });
    const app = buildApi({ ...h.deps, backend });
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ ok: false, checks: { store: 'ok', queue: 'ok', index: 'error' } });
      expect(res.body).not.toContain('10.9.8.7');
      expect(h.logs.join('')).toContain('10.9.8.7');
    } finally {
      await app.close();
    }
  });

  it('treats LIKE metacharacters and quotes as pattern text, not SQL', async () => {
    const all = (await search({ query: {}, limit: 10000 })).json() as { hits: unknown[] };
    const withEmail = h.sandbox.dataset('payments', 'customers').all().filter((c) => typeof c.email === 'string').length;
    const pct = (await search({ query: { filter: { like: { email: '%' } } }, limit: 10000 })).json() as { hits: unknown[] };
    expect(pct.hits.length).toBe(withEmail);
    for (const pattern of ["%' or '1'='1", "\\%'; drop table records; --", '%\\', '[a-z]%', "_%' union select 1 --"]) {
      const res = await search({ query: { filter: { like: { email: pattern } } } });
      expect(res.statusCode, pattern).toBeLessThan(500);
      if (res.statusCode === 200) expect((res.json() as { hits: unknown[] }).hits.length, pattern).toBe(0);
    }
    expect((await search({ query: {}, limit: 10000 })).json()).toMatchObject({ hits: { length: all.hits.length } });
  });

  it('serves the dashboard with a strict CSP and code that never parses API strings as HTML', async () => {
    const page = await h.app.inject({ method: 'GET', url: '/admin' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
    for (const name of readdirSync(DASHBOARD_DIR).filter((f) => f.endsWith('.js'))) {
      const code = readFileSync(new URL(name, DASHBOARD_DIR), 'utf8');
      expect(code, name).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/);
    }
    expect(escapeHtml('<img src=x onerror="a(\'b\')">&')).toBe('&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;');
    for (const url of ['/admin/assets/..%2Fserver.ts', '/admin/assets/%2e%2e%2f%2e%2e%2fpackage.json', '/admin/assets/dom.d.ts', '/admin/assets/index.html']) {
      expect((await h.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });
});
