import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../../src/api/server.js';
import { startHarness, type Harness } from './helpers/harness.js';

type Run = { id: string; status: string; replay_of: string | null; mode: string; trigger: string; counters: Record<string, number>; error: { code: string; message: string } | null };
type Err = { error: { code: string; message: string; path?: string } };

describe('admin API (Postgres queue and search backend)', () => {
  let h: Harness;
  let admin: string;
  let user: string;
  let connectorId: string;
  let firstRunId: string;

  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, token = admin) =>
    h.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const trigger = async (body: Record<string, unknown> = { entity: 'customers' }): Promise<Run> => {
    const res = await call('POST', `/admin/api/connectors/${connectorId}/sync`, body);
    expect(res.statusCode, res.body).toBe(202);
    return (res.json() as { runs: Run[] }).runs[0]!;
  };
  const bad = async (url: string, path: string, code = 'invalid_request') => {
    const res = await call('GET', url);
    expect(res.statusCode, res.body).toBe(400);
    expect((res.json() as Err).error).toMatchObject({ code, path });
  };

  beforeAll(async () => {
    h = await startHarness();
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 450 });
    admin = await h.token('ops', true);
    user = await h.token('acme');
    connectorId = (await h.createConnector(user)).id;
    const [run] = await h.runsOf(connectorId);
    firstRunId = run!.id;
    expect((await h.waitRun(firstRunId)).status).toBe('succeeded');
  });
  afterAll(async () => h?.close());

  it('triggers runs and refuses a second active run of the same entity (409)', async () => {
    h.sandbox.faults.arm({ kind: 'slow', delayMs: 400, count: 3, connectorType: 'payments', entity: 'customers' });
    const run = await trigger({ entity: 'customers', mode: 'full' });
    expect(run).toMatchObject({ status: 'queued', trigger: 'manual', mode: 'full' });
    const again = await call('POST', `/admin/api/connectors/${connectorId}/sync`, { entity: 'customers' });
    expect(again.statusCode).toBe(409);
    expect((again.json() as Err).error.code).toBe('conflict');
    // Syncing every entity: the busy one keeps its run, returned in its place (nothing fails halfway).
    const all = await call('POST', `/admin/api/connectors/${connectorId}/sync`, {});
    expect(all.statusCode, all.body).toBe(202);
    expect((all.json() as { runs: Run[] }).runs.map((r) => r.id)).toEqual([run.id]);
    expect((await h.waitRun(run.id)).status).toBe('succeeded');
    h.sandbox.faults.clear();
  });

  it('validates trigger bodies with 400s naming the field', async () => {
    for (const [body, path] of [[{ mode: 'sometimes' }, 'mode'], [{ entity: 'nope' }, 'entity'], [{ entity: "x'; drop table records; --" }, 'entity'], [{ extra: 1 }, 'extra']] as const) {
      const res = await call('POST', `/admin/api/connectors/${connectorId}/sync`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect((res.json() as Err).error.path).toBe(path);
    }
    expect((await call('POST', '/admin/api/connectors/00000000-0000-0000-0000-000000000000/sync', {})).statusCode).toBe(404);
  });

  it('lists runs newest first, filters them and pages with a keyset cursor', async () => {
    await h.waitRun((await trigger()).id);
    const all = (await call('GET', `/admin/api/runs?connector_id=${connectorId}&limit=500`)).json() as { runs: Run[] };
    expect(all.runs.length).toBeGreaterThanOrEqual(3);
    const ids = all.runs.map((r) => Number(r.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await call('GET', `/admin/api/runs?connector_id=${connectorId}&limit=2${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(res.statusCode).toBe(200);
      const body = res.json() as { runs: Run[]; next_cursor: string | null };
      paged.push(...body.runs.map((r) => r.id));
      cursor = body.next_cursor;
    } while (cursor !== null);
    expect(paged).toEqual(all.runs.map((r) => r.id));
    const ok = (await call('GET', '/admin/api/runs?status=succeeded&entity=customers')).json() as { runs: Run[] };
    expect(ok.runs.length).toBe(all.runs.length);
    expect((await call('GET', '/admin/api/runs?status=failed,cancelled')).json()).toMatchObject({ runs: [] });
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await call('GET', `/admin/api/runs?since=${future}`)).json()).toMatchObject({ runs: [] });
    expect(((await call('GET', `/admin/api/runs?until=${future}`)).json() as { runs: Run[] }).runs.length).toBe(all.runs.length);
  });

  it('rejects bad list parameters with 400s naming them', async () => {
    await bad('/admin/api/runs?status=bogus', 'status');
    await bad('/admin/api/runs?limit=0', 'limit');
    await bad('/admin/api/runs?limit=abc', 'limit');
    await bad('/admin/api/runs?since=yesterday', 'since');
    await bad('/admin/api/runs?connector_id=1%20or%201=1', 'connector_id');
    await bad('/admin/api/runs?entity=%25', 'entity');
    await bad('/admin/api/runs?sort=id', 'sort');
    await bad('/admin/api/runs?cursor=garbage', 'cursor', 'invalid_cursor');
  });

  it('shows one run with counters, timings and checkpoint; unknown runs are 404', async () => {
    const res = await call('GET', `/admin/api/runs/${firstRunId}`);
    expect(res.statusCode).toBe(200);
    const run = res.json() as Run & { timings: Record<string, string | number | null>; checkpoint: unknown; replay_chain: unknown };
    expect(run.counters).toMatchObject({ seen: 450, inserted: 450, pages: 5 });
    expect(run.timings.started_at).not.toBeNull();
    expect(run.timings.duration_ms).toBeGreaterThanOrEqual(0);
    expect(run.replay_chain).toEqual({ ancestors: [], replays: [] });
    expect((await call('GET', '/admin/api/runs/99999999')).statusCode).toBe(404);
    expect((await call('GET', '/admin/api/runs/abc')).statusCode).toBe(404);
  });

  it('replays a failed run from its checkpoint and from the start; the chain shows both ways', async () => {
    // Two pages pass (slowly), then every call is refused: the run fails after its checkpoint.
    h.sandbox.faults.arm({ kind: 'slow', delayMs: 1, count: 2, connectorType: 'payments', entity: 'customers' });
    h.sandbox.faults.arm({ kind: 'status', status: 401, count: -1, connectorType: 'payments', entity: 'customers', message: 'token expired' });
    const failed = await h.waitRun((await trigger({ entity: 'customers', mode: 'full' })).id);
    h.sandbox.faults.clear();
    expect(failed.status).toBe('failed');
    expect(failed.checkpoint).not.toBeNull();
    // As a checkpoint written before `readFrom` existed: the replay must still cap at the original's start.
    await sql`update sync_runs set checkpoint = checkpoint - 'readFrom' where id = ${failed.id}::bigint`.execute(h.deps.db);
    const detail = (await call('GET', `/admin/api/runs/${failed.id}`)).json() as Run & { checkpoint: { partition: number } };
    expect(detail.error).toMatchObject({ message: expect.stringContaining('token expired') });
    const fromCp = await call('POST', `/admin/api/runs/${failed.id}/replay`, {});
    expect(fromCp.statusCode, fromCp.body).toBe(202);
    const replay = fromCp.json() as { run: Run; from_checkpoint: boolean };
    expect(replay).toMatchObject({ from_checkpoint: true, run: { replay_of: failed.id, trigger: 'replay' } });
    const done = await h.waitRun(replay.run.id);
    expect(done.status).toBe('succeeded');
    expect(Number(done.seen)).toBe(450 - Number(failed.seen));
    expect(Number(done.deleted)).toBe(0);
    // The replay's saved cursor is capped where the original began reading, not at its own start.
    const readFrom = Math.floor((failed.started_at as Date).getTime() / 1000);
    expect(failed.checkpoint?.readFrom).toBe(readFrom);
    expect(done.checkpoint?.readFrom).toBe(readFrom);
    expect((done.started_at as Date).getTime()).toBeGreaterThan((failed.started_at as Date).getTime());
    const fromStart = (await call('POST', `/admin/api/runs/${failed.id}/replay`, { from_start: true })).json() as { run: Run; from_checkpoint: boolean };
    expect(fromStart.from_checkpoint).toBe(false);
    expect(Number((await h.waitRun(fromStart.run.id)).seen)).toBe(450);
    const chain = ((await call('GET', `/admin/api/runs/${failed.id}`)).json() as { replay_chain: { replays: { id: string }[] } }).replay_chain;
    expect(chain.replays.map((r) => r.id)).toEqual([replay.run.id, fromStart.run.id]);
    const back = ((await call('GET', `/admin/api/runs/${replay.run.id}`)).json() as { replay_chain: { ancestors: { id: string }[] } }).replay_chain;
    expect(back.ancestors.map((r) => r.id)).toEqual([failed.id]);
    expect((await call('POST', `/admin/api/runs/${failed.id}/replay`, { from_start: 'yes' })).statusCode).toBe(400);
  });

  it('cancels an active run; cancelling or replaying in the wrong state is 409', async () => {
    h.sandbox.faults.arm({ kind: 'slow', delayMs: 1500, count: -1, connectorType: 'payments', entity: 'customers' });
    const run = await trigger();
    const busy = await call('POST', `/admin/api/runs/${run.id}/replay`, {});
    expect(busy.statusCode).toBe(409);
    const res = await call('POST', `/admin/api/runs/${run.id}/cancel`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { run: Run }).run.status).toBe('cancelled');
    expect((await call('POST', `/admin/api/runs/${run.id}/cancel`, {})).statusCode).toBe(409);
    h.sandbox.faults.clear();
  });

  it('pauses and resumes a connector', async () => {
    const paused = await call('POST', `/admin/api/connectors/${connectorId}/pause`, {});
    expect(paused.json()).toMatchObject({ status: 'paused', entities: [{ entity: 'customers', status: 'paused' }] });
    expect((await call('POST', `/admin/api/connectors/${connectorId}/sync`, {})).statusCode).toBe(409);
    const resumed = await call('POST', `/admin/api/connectors/${connectorId}/resume`, {});
    expect(resumed.json()).toMatchObject({ status: 'active', entities: [{ entity: 'customers', status: 'ready', record_count: 450 }] });
    // Resuming syncs at once rather than a whole schedule interval later.
    const runs = await h.runsOf(connectorId);
    const queued = runs.at(-1)!;
    expect(queued.trigger).toBe('schedule');
    expect((await h.waitRun(queued.id)).status).toBe('succeeded');
  });

  it('resyncs (cursor forgotten, data kept) and resets (tombstoned, then read again)', async () => {
    const resync = await call('POST', `/admin/api/connectors/${connectorId}/entities/customers/resync`, {});
    expect(resync.statusCode, resync.body).toBe(202);
    expect((resync.json() as { run: Run }).run.mode).toBe('full');
    expect((await h.waitRun((resync.json() as { run: Run }).run.id)).inserted).toBe('0');
    const reset = await call('POST', `/admin/api/connectors/${connectorId}/entities/customers/reset`, {});
    expect(reset.statusCode, reset.body).toBe(202);
    const body = reset.json() as { tombstoned: number; run: Run };
    expect(body.tombstoned).toBe(450);
    const done = await h.waitRun(body.run.id);
    expect(Number(done.updated) + Number(done.inserted)).toBe(450);
    const view = (await call('GET', `/admin/api/connectors/${connectorId}`)).json() as { entities: { record_count: number }[] };
    expect(view.entities[0]!.record_count).toBe(450);
    expect((await call('POST', `/admin/api/connectors/${connectorId}/entities/charges/reset`, {})).statusCode).toBe(400);
  });

  it('reindexes in place on Postgres: recomputes text shadows', async () => {
    await h.deps.db.updateTable('records').set({ shadow: null } as never).where('connector_id', '=', connectorId).where('record_id', 'in', h.deps.db.selectFrom('records').select('record_id').where('connector_id', '=', connectorId).orderBy('record_id').limit(7)).execute();
    const res = await call('POST', '/admin/api/reindex', { connector_type: 'payments', entity: 'customers' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ backend: 'postgres', reindexed: true, mode: 'in_place', connectors: 1, shadows_updated: 7 });
    expect((await call('POST', '/admin/api/reindex', { connector_type: 'payments', entity: 'customers' })).json()).toMatchObject({ shadows_updated: 0 });
    const missing = await call('POST', '/admin/api/reindex', { connector_type: 'payments' });
    expect((missing.json() as Err).error.path).toBe('entity');
    const unknown = await call('POST', '/admin/api/reindex', { connector_type: 'nope', entity: 'customers' });
    expect((unknown.json() as Err).error.path).toBe('connector_type');
  });

  it('lists connectors of every organization with entity status', async () => {
    const res = await call('GET', '/admin/api/connectors');
    const body = res.json() as { connectors: { id: string; organization_id: string; entities: { entity: string; record_count: number }[] }[] };
    expect(body.connectors.map((c) => c.id)).toContain(connectorId);
    expect(res.body).not.toContain('sk_test_123');
  });

  it('pages connector lists by keyset: every connector once, newest first, ties broken by id', async () => {
    const tenant = await h.token('paging');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await h.createConnector(tenant)).id);
    // Three created in the same microsecond: a cursor on the time alone would skip or repeat them.
    await sql`update connectors set created_at = '2020-01-01T00:00:00.123456Z' where id = any(${ids.slice(1, 4)}::uuid[])`.execute(h.deps.db);
    const walk = async (url: string, token: string) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await h.app.inject({ method: 'GET', url: `${url}?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`, headers: { authorization: `Bearer ${token}` } });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json() as { connectors: { id: string }[]; next_cursor: string | null };
        expect(body.connectors.length).toBeLessThanOrEqual(2);
        seen.push(...body.connectors.map((c) => c.id));
        if (cursor === null) await h.createConnector(tenant); // created mid-walk: newer than every page, so never seen
        cursor = body.next_cursor;
      } while (cursor !== null);
      return seen;
    };
    const expected = await h.deps.db.selectFrom('connectors').select('id').where('id', 'in', ids).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    expect(await walk('/api/v1/integrations/connectors', tenant)).toEqual(expected.map((r) => r.id));
    const all = await walk('/admin/api/connectors', admin);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual(expect.arrayContaining([...ids, connectorId]));
    await bad('/admin/api/connectors?cursor=garbage', 'cursor', 'invalid_cursor');
    await bad('/admin/api/connectors?limit=0', 'limit');
  });

  it('serves Prometheus metrics and the OpenAPI document without a token', async () => {
    await h.app.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${connectorId}/execute`, headers: { authorization: `Bearer ${user}` }, payload: { entity: 'customers', action: 'search', params: { query: {} } } });
    const metrics = await h.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.headers['content-type']).toContain('text/plain');
    for (const line of ['syncdex_runs{status="succeeded"}', 'syncdex_runs{status="failed"} 1', 'syncdex_records_synced_total{outcome="seen"}', 'syncdex_sync_duration_seconds_bucket', 'syncdex_search_duration_seconds_count{connector_type="payments",entity="customers",outcome="ok"} 1', 'syncdex_queue_jobs{queue="syncdex-sync",state="waiting"}']) {
      expect(metrics.body).toContain(line);
    }
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/admin/api/runs', '/admin/api/runs/{id}/replay', '/api/v1/integrations/connectors/{id}/execute', '/metrics']));
  });

  it('mounts bull-board behind the admin session cookie', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/admin/queues' })).statusCode).toBe(401);
    expect((await call('POST', '/admin/api/session', {}, user)).statusCode).toBe(403);
    const session = await call('POST', '/admin/api/session', {});
    expect(session.statusCode).toBe(200);
    const cookie = String(session.headers['set-cookie']);
    expect(cookie).toMatch(/^sdx_admin=[^;]+; Path=\/admin\/queues; HttpOnly; SameSite=Strict; Max-Age=900/);
    const jar = cookie.split(';')[0]!;
    const page = await h.app.inject({ method: 'GET', url: '/admin/queues', headers: { cookie: jar } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const queues = await h.app.inject({ method: 'GET', url: '/admin/queues/api/queues', headers: { cookie: jar } });
    expect(queues.statusCode, queues.body.slice(0, 300)).toBe(200);
    expect(queues.body).toContain('syncdex-sync');
    expect(queues.body).toContain('syncdex-schedule');
    const forged = `${jar.slice(0, -3)}abc`;
    expect((await h.app.inject({ method: 'GET', url: '/admin/queues/api/queues', headers: { cookie: forged } })).statusCode).toBe(401);
    expect(cookie).not.toContain('Secure'); // plain http in development
  });

  it('marks the session cookie Secure in production, and over https seen through a trusted proxy', async () => {
    const prod = buildApi({ ...h.deps, config: { ...h.deps.config, env: 'production' } });
    const proxied = buildApi({ ...h.deps, config: { ...h.deps.config, trustProxy: true } });
    try {
      const headers = { authorization: `Bearer ${admin}` };
      const a = await prod.inject({ method: 'POST', url: '/admin/api/session', headers, payload: {} });
      expect(String(a.headers['set-cookie'])).toContain('; Secure');
      const b = await proxied.inject({ method: 'POST', url: '/admin/api/session', headers: { ...headers, 'x-forwarded-proto': 'https' }, payload: {} });
      expect(String(b.headers['set-cookie'])).toContain('; Secure');
      const c = await h.app.inject({ method: 'POST', url: '/admin/api/session', headers: { ...headers, 'x-forwarded-proto': 'https' }, payload: {} });
      expect(String(c.headers['set-cookie'])).not.toContain('Secure'); // untrusted header ignored
    } finally {
      await prod.close();
      await proxied.close();
    }
  });
});
