/** Mutations between runs, the union view over partitions, and the HTTP controls and faults. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from '../../../src/sandbox/sandbox.js';
import { startSandboxServer } from '../../../src/sandbox/server.js';
import { call } from './helpers.js';

describe('mutations', () => {
  it('create adds newest records, update bumps a record, delete removes it from lists', () => {
    const sb = new Sandbox({ defaultSize: 5 });
    const before = call(sb, 'payments', 'customers').data;
    const m = sb.mutate('payments', 'customers', { create: 2, update: 1, delete: 1 });
    expect(m.created).toHaveLength(2);
    const after = call(sb, 'payments', 'customers').data;
    expect(after).toHaveLength(6);
    expect(after.slice(0, 2).map((r) => r.id)).toEqual([...m.created].reverse());
    expect(after.map((r) => r.id)).not.toContain(m.deleted[0]);
    const updated = after.find((r) => r.id === m.updated[0]);
    const original = before.find((r) => r.id === m.updated[0]);
    if (updated !== undefined) expect(updated).not.toEqual(original);
    expect((after[0]?.created as number) > (before[0]?.created as number)).toBe(true);
  });

  it('paging continues correctly past deleted and created records', () => {
    const sb = new Sandbox({ defaultSize: 30 });
    sb.mutate('payments', 'customers', { create: 3, delete: 5 });
    const seen: unknown[] = [];
    let after: unknown;
    for (;;) {
      const page = call(sb, 'payments', 'customers', { limit: 7, ...(after === undefined ? {} : { starting_after: after }) });
      seen.push(...page.data.map((r) => r.id));
      if (page.meta.has_more !== true) break;
      after = page.data[page.data.length - 1]?.id;
    }
    expect(seen).toEqual(sb.records('payments', 'customers').data.map((r) => r.id));
    expect(seen).toHaveLength(28);
  });

  it('mutating a partition shows in the union; mutating a parent changes the children’s partitions', () => {
    const sb = new Sandbox({ defaultSize: 3, nestedSize: 2 });
    const parts = sb.partitions('table_platform', 'tables');
    const total = sb.records('table_platform', 'tables').count;
    sb.mutate('table_platform', 'tables', { create: 4 }, parts[0]?.scope ?? '');
    expect(sb.records('table_platform', 'tables').count).toBe(total + 4);
    sb.mutate('table_platform', 'bases', { create: 1 });
    expect(sb.partitions('table_platform', 'tables')).toHaveLength(parts.length + 1);
  });

  it('configured sizes are exact for every partition; nested ones vary per parent up to nestedSize', () => {
    const sb = new Sandbox({ defaultSize: 6, nestedSize: 4 });
    const sizes = sb.partitions('table_platform', 'tables').map((p) => sb.dataset('table_platform', 'tables', p.scope).liveCount);
    expect(sizes).toHaveLength(6);
    for (const n of sizes) expect(n >= 2 && n <= 4).toBe(true);
    sb.configure({ connectorType: 'table_platform', entity: 'tables', size: 3 });
    expect(sb.records('table_platform', 'tables').count).toBe(18);
  });
});

describe('HTTP controls and faults', () => {
  let srv: Awaited<ReturnType<typeof startSandboxServer>>;
  const post = (path: string, body: unknown): Promise<Response> => fetch(`${srv.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const exec = (entity: string, params: Record<string, unknown> = {}, type = 'payments'): Promise<Response> =>
    post('/v1/execute', { connector_type: type, credentials: { api_key: 'k' }, entity, action: 'list', params });

  beforeAll(async () => {
    srv = await startSandboxServer({ port: 0, sandbox: new Sandbox({ defaultSize: 4 }) });
  });
  afterAll(async () => srv.close());

  it('records without a scope is the union over partitions; config partitions from query params', async () => {
    await post('/v1/control/configure', { default_size: 3, nested_size: 2 });
    const tables = (await (await fetch(`${srv.url}/v1/control/records?connector_type=table_platform&entity=tables`)).json()) as { count: number; partitions: unknown[] };
    expect(tables.partitions).toHaveLength(3);
    expect(tables.count).toBeGreaterThanOrEqual(3);
    const ads = (await (await fetch(`${srv.url}/v1/control/records?connector_type=ad_platform_marketing&entity=campaigns&account_ids=1,2`)).json()) as { count: number };
    expect(ads.count).toBe(6);
    const one = (await (await fetch(`${srv.url}/v1/control/records?connector_type=ad_platform_marketing&entity=campaigns&scope=1`)).json()) as { count: number };
    expect(one.count).toBe(3);
  });

  it('configure and mutate work over HTTP', async () => {
    await post('/v1/control/configure', { connector_type: 'payments', entity: 'customers', size: 12 });
    const m = (await (await post('/v1/control/mutate', { connector_type: 'payments', entity: 'customers', delete: 2 })).json()) as { deleted: unknown[] };
    expect(m.deleted).toHaveLength(2);
    const rec = (await (await fetch(`${srv.url}/v1/control/records?connector_type=payments&entity=customers`)).json()) as { count: number };
    expect(rec.count).toBe(10);
  });

  it('400s carry the param in message and path; missing credentials are 401', async () => {
    const res = await exec('customers', { limit: 101 });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'invalid_request', message: 'limit must be an integer between 1 and 100', path: 'params.limit' } });
    const anon = await post('/v1/execute', { connector_type: 'payments', entity: 'customers', action: 'list' });
    expect(anon.status).toBe(401);
    expect((await exec('tables', { base_id: 'nope' }, 'table_platform')).status).toBe(404);
  });

  it('injects 429 with Retry-After, 5xx, truncated bodies and slow pages, one call each', async () => {
    await post('/v1/control/faults', { kind: 'status', status: 429, retryAfterSec: 3, entity: 'customers' });
    await post('/v1/control/faults', { kind: 'status', status: 503, entity: 'customers' });
    await post('/v1/control/faults', { kind: 'truncated', entity: 'customers' });
    await post('/v1/control/faults', { kind: 'slow', delayMs: 120, entity: 'customers' });
    const r429 = await exec('customers');
    expect([r429.status, r429.headers.get('retry-after')]).toEqual([429, '3']);
    expect((await exec('customers')).status).toBe(503);
    await expect((await exec('customers')).json()).rejects.toThrow();
    const t0 = Date.now();
    expect((await exec('customers')).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
    expect((await exec('customers')).status).toBe(200);
  });
});
