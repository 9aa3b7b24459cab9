/**
 * A list whose paging reports its size (issue-tracker users: offset paging with `total`) gives a
 * run's progress a total from its first page on, even on a first sync: the checkpoint keeps it,
 * the admin API measures progress against it, and `--wait` draws its bar with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers/harness.js';
import { executeRun } from '../../src/worker/sync-runner.js';
import { getRun } from '../../src/store/runs-repo.js';

describe('totals reported by the runtime', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ worker: false });
    h.sandbox.configure({ connectorType: 'issue_tracker', entity: 'users', size: 130 });
  });
  afterAll(async () => h?.close());

  it('keeps the reported total in the checkpoint and measures progress against it', async () => {
    const user = await h.token();
    const { id } = await h.createConnector(user, { connector_type: 'issue_tracker', name: 'Tracker', credentials: { email: 'a@example.com', api_token: 't0k', domain: 'acme.example.com' }, replication_config: { entities: ['users'] } });
    const [run] = await h.runsOf(id);
    expect(await executeRun(h.deps, run!.id)).toBe('succeeded');
    const done = await getRun(h.deps.db, run!.id);
    expect(done?.pages).toBeGreaterThan(1);
    expect(done?.checkpoint?.reportedTotal).toBe(130);
    // An unfinished run on the same checkpoint: progress of a first sync, against the runtime's total.
    await h.deps.db.updateTable('sync_runs').set({ status: 'running', seen: 65, finished_at: null }).where('id', '=', run!.id).execute();
    await h.deps.db.updateTable('entity_state').set({ record_count: 0, last_synced_at: null }).where('connector_id', '=', id).execute();
    const res = await h.app.inject({ method: 'GET', url: `/admin/api/runs/${run!.id}`, headers: { authorization: `Bearer ${await h.token('ops', true)}` } });
    expect((res.json() as { progress: unknown }).progress).toEqual({ seen: 65, expected: 130, ratio: 0.5 });
  });
});
