/**
 * Operator actions that race each other or a status they read: pause against resume, a reset
 * against a pause committing under it, resume of a connector that is not paused, and a manual
 * sync of every entity in a mode one of them cannot run. No worker runs: queued runs stay queued.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelRun, pauseConnector, resetEntity, resumeConnector, triggerSync } from '../../src/app/operations.js';
import { schedulerId } from '../../src/worker/schedules.js';
import { startSyncedHarness, type Harness } from './helpers/harness.js';

describe('operator actions racing', () => {
  let h: Harness;
  let id: string;

  const status = async () => (await h.deps.db.selectFrom('connectors').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  const scheduled = async () => (await h.deps.scheduleQueue.getJobScheduler(schedulerId(id))) != null;
  const runCount = async (connectorId: string) => Number((await h.deps.db.selectFrom('sync_runs').select((eb) => eb.fn.countAll<string>().as('n')).where('connector_id', '=', connectorId).executeTakeFirstOrThrow()).n);
  const cancelActiveRuns = async (connectorId: string) => {
    const active = await h.deps.db.selectFrom('sync_runs').select('id').where('connector_id', '=', connectorId).where('status', 'in', ['queued', 'running']).execute();
    for (const r of active) await cancelRun(h.deps, r.id);
  };

  beforeAll(async () => {
    ({ h, id } = await startSyncedHarness(200));
  });
  afterAll(async () => h?.close());

  it('a pause and a resume racing end whole: active with its schedule, or paused without one', async () => {
    const outcomes = new Set<string>();
    for (let i = 0; i < 12; i++) {
      await pauseConnector(h.deps, id);
      const race = i % 2 === 0 ? [resumeConnector(h.deps, id), pauseConnector(h.deps, id)] : [pauseConnector(h.deps, id), resumeConnector(h.deps, id)];
      await Promise.all(race);
      const [s, sched] = [await status(), await scheduled()];
      outcomes.add(s);
      expect(sched, `round ${i}: connector ${s}, schedule ${sched ? 'present' : 'absent'}`).toBe(s === 'active');
    }
    await resumeConnector(h.deps, id);
    expect([await status(), await scheduled()]).toEqual(['active', true]);
    await cancelActiveRuns(id);
  });

  it('resuming a connector that is not paused changes nothing: a running entity keeps saying updating, the next tick stays', async () => {
    await sql`update entity_state set status = 'updating' where connector_id = ${id}::uuid`.execute(h.deps.db);
    const before = await h.deps.scheduleQueue.getJobScheduler(schedulerId(id));
    const runs = await runCount(id);
    await resumeConnector(h.deps, id);
    const state = await h.deps.db.selectFrom('entity_state').select('status').where('connector_id', '=', id).executeTakeFirstOrThrow();
    expect(state.status).toBe('updating');
    expect((await h.deps.scheduleQueue.getJobScheduler(schedulerId(id)))?.next).toBe(before?.next);
    expect(await runCount(id)).toBe(runs);
    await sql`update entity_state set status = 'ready' where connector_id = ${id}::uuid`.execute(h.deps.db);
  });

  it('a reset that read the connector active while a pause was committing refuses, tombstoning nothing', async () => {
    const live = async () => Number((await h.deps.db.selectFrom('records').select((eb) => eb.fn.countAll<string>().as('n')).where('connector_id', '=', id).where('deleted_at', 'is', null).executeTakeFirstOrThrow()).n);
    await cancelActiveRuns(id);
    expect(await live()).toBe(200);
    let reset: Promise<unknown> | null = null;
    await h.deps.db.transaction().execute(async (tx) => {
      // A pause in the middle of its transaction: the row locked, the new status not yet committed.
      await sql`select 1 from connectors where id = ${id}::uuid for no key update`.execute(tx);
      await sql`update connectors set status = 'paused' where id = ${id}::uuid`.execute(tx);
      let done = false;
      reset = resetEntity(h.deps, id, 'customers').catch((e: unknown) => e).finally(() => (done = true));
      // Until the reset waits on the row (fixed), or is done already (it trusted a stale status).
      for (let i = 0; i < 100 && !done; i++) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%connectors%'`.execute(h.deps.db);
        if (rows[0]!.n > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    expect(await reset).toMatchObject({ code: 'conflict', path: 'connector_id' });
    expect(await live()).toBe(200);
    await sql`update connectors set status = 'active' where id = ${id}::uuid`.execute(h.deps.db);
  });

  it('a manual incremental sync of every entity, one of which has no incremental filter, queues nothing', async () => {
    const { id: wm } = await h.createConnector(await h.token(), { connector_type: 'work_management', name: 'WM', credentials: { personal_access_token: 'pat' }, replication_config: { entities: ['projects', 'tasks'] } });
    await cancelActiveRuns(wm);
    const before = await runCount(wm);
    await expect(triggerSync(h.deps, wm, { mode: 'incremental' })).rejects.toMatchObject({ code: 'invalid_request', path: 'mode', message: expect.stringContaining('projects') });
    expect(await runCount(wm)).toBe(before);
  });
});
