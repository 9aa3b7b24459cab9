/**
 * One connector per kind against the sandbox (Postgres queue backend): every replicated entity
 * lands exactly the sandbox's live records (union over partitions, parents resolved at run time),
 * every run succeeds, and a resumed run keeps the partition list it started with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replicatedEntities } from '../../src/app/connector-service.js';
import { triggerSync } from '../../src/app/operations.js';
import { catalog } from '../../src/connectors/catalog/index.js';
import type { ConnectorDef } from '../../src/connectors/catalog/types.js';
import type { ConnectorRuntime } from '../../src/connectors/runtime-client.js';
import { findConnector } from '../../src/store/connectors-repo.js';
import { ensureEntityStates } from '../../src/store/entity-state-repo.js';
import { countLive } from '../../src/store/records-repo.js';
import { createRun, getRun } from '../../src/store/runs-repo.js';
import type { SyncRunRow } from '../../src/store/schema.js';
import { executeRun } from '../../src/worker/sync-runner.js';
import { startHarness, type Harness } from './helpers/harness.js';

/** replication_config per kind as sent, and the partition config the sandbox needs for its union. */
const REPLICATION: Record<string, Record<string, unknown>> = {
  ad_platform_marketing: { account_ids: 'act_111,222' },
  file_storage_drive: { folder_url: 'https://drive.example.com/drive/folders/abc', streams: 'documents' },
};
const SANDBOX_CONFIG = { account_ids: '111,222' };

/** Sizes above the smallest page maxima, so those entities need two or more pages. */
const SIZES: [string, string, number][] = [
  ['payments', 'customers', 101],
  ['issue_tracker', 'users', 51],
  ['customer_messaging', 'companies', 61],
  ['crm', 'contacts', 101],
  ['email_marketing', 'profiles', 101],
  ['live_chat_support', 'agents', 101],
  ['team_chat', 'users', 201],
  ['task_tracker', 'issues', 251],
  ['applicant_tracking', 'candidates', 501],
  ['sales_call_intelligence', 'calls', 101],
];

/** The first credential method of a kind, its required fields filled. */
function credentialsFor(kind: ConnectorDef): Record<string, string> {
  const method = kind.credentialMethods[0];
  return Object.fromEntries(Object.entries(method?.fields ?? {}).filter(([, f]) => f.required).map(([k]) => [k, `test-${k}`]));
}

async function waitAll(h: Harness, connectorIds: string[], timeoutMs: number): Promise<SyncRunRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const runs = await h.deps.db.selectFrom('sync_runs').selectAll().where('connector_id', 'in', connectorIds).execute();
    if (runs.every((r) => !['queued', 'running'].includes(r.status))) return runs;
    if (Date.now() > deadline) throw new Error(`${runs.filter((r) => ['queued', 'running'].includes(r.status)).length} runs still active`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('sync of every entity of every connector kind', () => {
  let h: Harness;
  const connectors = new Map<string, string>();
  let runs: SyncRunRow[] = [];
  let token = '';

  beforeAll(async () => {
    h = await startHarness({ sandboxSize: 5 });
    h.sandbox.configure({ nestedSize: 3 });
    for (const [type, entity, size] of SIZES) h.sandbox.configure({ connectorType: type, entity, size });
    token = await h.token();
    for (const kind of Object.values(catalog)) {
      const body = { connector_type: kind.key, name: kind.title, credentials: credentialsFor(kind), replication_config: REPLICATION[kind.key] ?? {} };
      connectors.set(kind.key, (await h.createConnector(token, body)).id);
    }
    runs = await waitAll(h, [...connectors.values()], 90_000);
  });
  afterAll(async () => h?.close());

  it('creates one connector per kind and runs every replicated entity once; the drive has none', async () => {
    expect(connectors.size).toBe(17);
    for (const [type, id] of connectors) {
      const connector = await findConnector(h.deps.db, id);
      const expected = connector === null ? [] : replicatedEntities(connector);
      expect(runs.filter((r) => r.connector_id === id).map((r) => r.entity).sort(), type).toEqual([...expected].sort());
    }
    expect(runs.filter((r) => r.connector_id === connectors.get('file_storage_drive'))).toEqual([]);
    const all = [...connectors.keys()].map((k) => Object.values(catalog[k]?.entities ?? {}).filter((e) => e.actions.includes('search') && e.read !== undefined).length);
    expect(runs.length).toBe(all.reduce((a, b) => a + b, 0));
  });

  it('every run succeeded', () => {
    const failed = runs.filter((r) => r.status !== 'succeeded').map((r) => `${r.entity}: ${r.status} ${JSON.stringify(r.error)}`);
    expect(failed).toEqual([]);
  });

  it('stores exactly the sandbox’s live records of every entity, with the partitions the sandbox has', async () => {
    for (const run of runs) {
      const type = [...connectors].find(([, id]) => id === run.connector_id)?.[0] ?? '';
      const truth = h.sandbox.records(type, run.entity, { config: SANDBOX_CONFIG });
      const key = `${type}.${run.entity}`;
      expect(truth.count, key).toBeGreaterThan(0);
      expect(await countLive(h.deps.db, run.connector_id, run.entity), key).toBe(truth.count);
      expect(run.checkpoint?.partitions?.length, key).toBe(truth.partitions.length);
    }
  });

  it('searches what a record keeps below its top level under the searchable name (issue tracker, email marketing)', async () => {
    const search = async (type: string, entity: string, filter: unknown) => {
      const res = await h.app.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${connectors.get(type)}/execute`, headers: { authorization: `Bearer ${token}` }, payload: { entity, action: 'search', params: { query: { filter }, limit: 100 } } });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { hits: { data: Record<string, unknown> }[] }).hits;
    };
    const issues = h.sandbox.records('issue_tracker', 'issues').data as { id: string; fields: { created: string; project: { key: string } } }[];
    const key = issues[0]!.fields.project.key;
    const inProject = await search('issue_tracker', 'issues', { eq: { projectKey: key } });
    expect(inProject.map((x) => x.data.id).sort()).toEqual(issues.filter((i) => i.fields.project.key === key).map((i) => i.id).sort());
    expect(inProject[0]?.data).toMatchObject({ projectKey: key, fields: { project: { key } } });
    const newest = [...issues].sort((a, b) => b.fields.created.localeCompare(a.fields.created))[0]!.fields.created;
    expect((await search('issue_tracker', 'issues', { gte: { created: newest } })).length).toBe(issues.filter((i) => i.fields.created >= newest).length);
    const profiles = h.sandbox.records('email_marketing', 'profiles').data;
    expect((await search('email_marketing', 'profiles', { gte: { updated: '1970-01-01T00:00:00Z' } })).length).toBe(Math.min(100, profiles.length));
  });

  it('replicates ad_account with one get per configured account id (no list exists)', async () => {
    const res = await h.app.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${connectors.get('ad_platform_marketing')}/execute`, headers: { authorization: `Bearer ${token}` }, payload: { entity: 'ad_account', action: 'search', params: { query: { sort: [{ account_id: 'asc' }] } } } });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { hits: { data: { account_id: string } }[] }).hits.map((x) => x.data.account_id)).toEqual(['111', '222']);
  });

  it('a configured ad account that is gone (its get answers 404) is tombstoned by the next full run, not a failed run', async () => {
    const id = connectors.get('ad_platform_marketing')!;
    const scope = h.sandbox.partitions('ad_platform_marketing', 'ad_account', SANDBOX_CONFIG).find((p) => p.params.account_id === '222')?.scope;
    h.sandbox.mutate('ad_platform_marketing', 'ad_account', { delete: 1 }, scope);
    const run = await createRun(h.deps.db, { connectorId: id, entity: 'ad_account', trigger: 'manual', mode: 'full' });
    expect(await executeRun(h.deps, run.id)).toBe('succeeded');
    expect(await getRun(h.deps.db, run.id)).toMatchObject({ status: 'succeeded', deleted: '1' });
    expect(await countLive(h.deps.db, id, 'ad_account')).toBe(1);
  });

  it('pages where the data exceeds the largest page', () => {
    for (const [type, entity, size] of SIZES) {
      const run = runs.find((r) => r.connector_id === connectors.get(type) && r.entity === entity);
      expect(run?.pages, `${type}.${entity}`).toBeGreaterThanOrEqual(2);
      expect(Number(run?.inserted), `${type}.${entity}`).toBe(size);
    }
  });

  it('reads partitions in parallel, never more at once than partitionConcurrency', async () => {
    const { id } = await h.createConnector(await h.token(), { connector_type: 'table_platform', name: 'Parallel', credentials: { api_key: 'k' }, replication_config: { entities: ['bases'] } });
    await waitAll(h, [id], 90_000);
    await ensureEntityStates(h.deps.db, id, ['tables']);
    const run = await createRun(h.deps.db, { connectorId: id, entity: 'tables', trigger: 'manual', mode: 'full' });
    let inFlight = 0;
    let peak = 0;
    const slow: ConnectorRuntime = {
      execute: async (call, signal) => {
        if (call.entity !== 'tables') return h.deps.runtime.execute(call, signal);
        peak = Math.max(peak, ++inFlight);
        try {
          // Hold each call until three are in flight (or a second passed): the peak then shows
          // the bound, not how fast this machine happens to start the chains.
          for (let t = 0; t < 200 && inFlight < 3 && peak < 3; t++) await new Promise((r) => setTimeout(r, 5));
          return await h.deps.runtime.execute(call, signal);
        } finally {
          inFlight--;
        }
      },
    };
    expect(h.sandbox.partitions('table_platform', 'tables').length).toBeGreaterThan(3);
    expect(await executeRun({ ...h.deps, runtime: slow, partitionConcurrency: 3 }, run.id)).toBe('succeeded');
    expect(peak).toBe(3);
    const expected = h.sandbox.partitions('table_platform', 'tables').reduce((n, p) => n + h.sandbox.dataset('table_platform', 'tables', p.scope).liveCount, 0);
    const stored = await h.deps.db.selectFrom('records').select((eb) => eb.fn.countAll<string>().as('n')).where('connector_id', '=', id).where('entity', '=', 'tables').where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(expected);
  });

  it('a resumed run keeps its partition list even when the parents changed meanwhile', async () => {
    const { id } = await h.createConnector(await h.token(), { connector_type: 'table_platform', name: 'Tables', credentials: { api_key: 'k' }, replication_config: { entities: ['bases'] } });
    await waitAll(h, [id], 90_000);
    await ensureEntityStates(h.deps.db, id, ['tables']);
    const run = await createRun(h.deps.db, { connectorId: id, entity: 'tables', trigger: 'manual', mode: 'full' });
    // The worker is told to shut down right after the first page of a partition: the run stops at its checkpoint.
    const shutdown = new AbortController();
    const stopping: ConnectorRuntime = {
      execute: async (call, signal) => {
        const page = await h.deps.runtime.execute(call, signal);
        if (call.entity === 'tables') shutdown.abort();
        return page;
      },
    };
    await expect(executeRun({ ...h.deps, runtime: stopping }, run.id, shutdown.signal)).rejects.toThrow(/resumes from its checkpoint/);
    const paused = await getRun(h.deps.db, run.id);
    const before = h.sandbox.partitions('table_platform', 'tables');
    // Partitions are read four at a time: each chain stops after the page in hand; what is left
    // is either open (with its next page) or not started.
    const cp = paused?.checkpoint;
    expect((cp?.open ?? []).length > 0 || (cp?.next ?? 0) < before.length).toBe(true);
    expect(paused?.checkpoint?.partitions).toEqual(before.map((p) => p.params));

    h.sandbox.mutate('table_platform', 'bases', { create: 1 });
    expect(h.sandbox.partitions('table_platform', 'tables')).toHaveLength(before.length + 1);
    expect(await executeRun(h.deps, run.id)).toBe('succeeded');
    const done = await getRun(h.deps.db, run.id);
    expect(done?.checkpoint?.partitions).toEqual(paused?.checkpoint?.partitions);
    const expected = before.reduce((n, p) => n + h.sandbox.dataset('table_platform', 'tables', p.scope).liveCount, 0);
    expect(await countLive(h.deps.db, id, 'tables')).toBe(expected);
  });

  it('compact work-management tasks (no modified_at in the list record): the next incremental run reads only what changed after the last one began', async () => {
    const id = connectors.get('work_management') as string;
    const full = runs.find((r) => r.connector_id === id && r.entity === 'tasks');
    const state = await h.deps.db.selectFrom('entity_state').select('sync_cursor').where('connector_id', '=', id).where('entity', '=', 'tasks').executeTakeFirstOrThrow();
    // No record carried the field: the cursor is where the full run began reading.
    expect(state.sync_cursor).toBe(Math.floor((full?.started_at as Date).getTime() / 1000));
    const before = await countLive(h.deps.db, id, 'tasks');
    const [project] = h.sandbox.partitions('work_management', 'tasks');
    h.sandbox.mutate('work_management', 'tasks', { create: 2 }, project?.scope);
    const [inc] = await triggerSync(h.deps, id, { entity: 'tasks', mode: 'incremental' });
    const done = await h.waitRun(inc!.id);
    expect(done.status).toBe('succeeded');
    expect(before).toBeGreaterThan(4);
    expect([Number(done.seen), Number(done.inserted)]).toEqual([2, 2]);
    expect(await countLive(h.deps.db, id, 'tasks')).toBe(before + 2);
  });
});
