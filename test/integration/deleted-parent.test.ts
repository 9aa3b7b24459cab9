/**
 * A parent deleted while a run reads its children (issue 24, item 1): the child list's 404 is an
 * empty partition, the run succeeds and tombstones the deleted parent's children; a 404 for a list
 * that should exist still fails the run, clearly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorRuntime } from '../../src/connectors/runtime-client.js';
import { countLive } from '../../src/store/records-repo.js';
import { createRun, getRun } from '../../src/store/runs-repo.js';
import { failRun } from '../../src/worker/run-failure.js';
import { executeRun } from '../../src/worker/sync-runner.js';
import { expectStoreEqualsSandbox } from './helpers/compare.js';
import { startHarness, type Harness } from './helpers/harness.js';

const TYPE = 'table_platform';

describe('a parent deleted during a run', () => {
  let h: Harness;
  let id: string;

  /** Runs a full run of `entity` here (no worker); a run that throws is failed as the job would. */
  async function fullRun(entity: string, runtime = h.deps.runtime): Promise<{ id: string; outcome: string | Error }> {
    const run = await createRun(h.deps.db, { connectorId: id, entity, trigger: 'manual', mode: 'full' });
    try {
      return { id: run.id, outcome: await executeRun({ ...h.deps, runtime }, run.id) };
    } catch (e) {
      await failRun(h.deps, { id: run.id, connectorId: id, entity }, e);
      return { id: run.id, outcome: e as Error };
    }
  }

  beforeAll(async () => {
    h = await startHarness({ worker: false, sandboxSize: 6 });
    const body = { connector_type: TYPE, name: 'Tables', credentials: { api_key: 'k' }, replication_config: { entities: ['bases', 'tables'] } };
    id = (await h.createConnector(await h.token(), body)).id;
    for (const run of await h.runsOf(id)) expect(await executeRun(h.deps, run.id)).toBe('succeeded');
  });
  afterAll(async () => h?.close());

  it('a base deleted after the run read its partition list: its tables answer 404, the run succeeds and tombstones them', async () => {
    const stored = await countLive(h.deps.db, id, 'tables');
    expect(stored).toBe(h.sandbox.records(TYPE, 'tables').count);
    let deleted: unknown[] = [];
    // The first tables call comes after the run resolved (and saved) its partitions from the bases.
    const deleting: ConnectorRuntime = {
      execute: async (call, signal) => {
        if (call.entity === 'tables' && deleted.length === 0) deleted = h.sandbox.mutate(TYPE, 'bases', { delete: 1 }).deleted;
        return h.deps.runtime.execute(call, signal);
      },
    };
    const { id: runId, outcome } = await fullRun('tables', deleting);
    expect(outcome).toBe('succeeded');
    const run = await getRun(h.deps.db, runId);
    expect(deleted).toHaveLength(1);
    expect(run?.checkpoint?.partitions?.map((p) => p.base_id)).toContain(deleted[0]);
    const orphans = stored - h.sandbox.records(TYPE, 'tables').count;
    expect(orphans).toBeGreaterThan(0);
    expect(Number(run?.deleted)).toBe(orphans);
    await expectStoreEqualsSandbox(h, id, TYPE, 'tables');
    expect(h.logs.join('')).toContain('its parent is no longer listed');
  });

  it('a tables 404 while its base is still listed fails the run, saying the list itself is missing; nothing is tombstoned', async () => {
    const stored = await countLive(h.deps.db, id, 'tables');
    h.sandbox.faults.arm({ kind: 'status', status: 404, count: 1, connectorType: TYPE, entity: 'tables', message: 'no such route' });
    const { id: runId, outcome } = await fullRun('tables');
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toMatch(/no such route.*still listed/);
    expect(await getRun(h.deps.db, runId)).toMatchObject({ status: 'failed', deleted: '0' });
    expect(await countLive(h.deps.db, id, 'tables')).toBe(stored);
  });

  it('a 404 from a top-level list (bases) fails the run', async () => {
    h.sandbox.faults.arm({ kind: 'status', status: 404, count: 1, connectorType: TYPE, entity: 'bases', message: 'no such list' });
    const { id: runId, outcome } = await fullRun('bases');
    expect((outcome as Error).message).toContain('no such list');
    expect(await getRun(h.deps.db, runId)).toMatchObject({ status: 'failed', deleted: '0' });
  });
});
