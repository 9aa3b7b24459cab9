/**
 * Records and pages the entity reference allows (its `T?`: may be null) but the worker choked on
 * (issue 24, item 5), against the sandbox serving exactly those shapes: a paging cursor that
 * comes back null on a page whose own flag says more remain, and agent timeline rows whose
 * `start_time`, half of their composed id, is null.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getConnectorDef, getEntityDef } from '../../src/connectors/catalog/index.js';
import { withDerivedFields } from '../../src/connectors/planner.js';
import { countLive } from '../../src/store/records-repo.js';
import { createRun, getRun } from '../../src/store/runs-repo.js';
import { DEFAULT_RETRY } from '../../src/worker/fetch-page.js';
import { readPartition } from '../../src/worker/parent-values.js';
import { failRun } from '../../src/worker/run-failure.js';
import { executeRun, type SyncDeps } from '../../src/worker/sync-runner.js';
import { expectStoreEqualsSandbox } from './helpers/compare.js';
import { startHarness, type Harness } from './helpers/harness.js';

/** A full run executed here (no worker); one that throws is failed as the job would. */
async function fullRun(h: Harness, deps: SyncDeps, connectorId: string, entity: string): Promise<{ id: string; outcome: string | Error }> {
  const run = await createRun(h.deps.db, { connectorId, entity, trigger: 'manual', mode: 'full' });
  try {
    return { id: run.id, outcome: await executeRun(deps, run.id) };
  } catch (e) {
    await failRun(h.deps, { id: run.id, connectorId, entity }, e);
    return { id: run.id, outcome: e as Error };
  }
}

describe('a null cursor on a page whose flag says more remain (task tracker: hasNextPage true, endCursor null)', () => {
  const SIZE = 1_000; // 4 pages of 250
  let h: Harness;
  let id: string;
  let fast: SyncDeps;

  beforeAll(async () => {
    h = await startHarness({ worker: false });
    h.sandbox.configure({ connectorType: 'task_tracker', entity: 'issues', size: SIZE });
    id = (await h.createConnector(await h.token(), { connector_type: 'task_tracker', name: 'Tracker', credentials: { api_key: 'k' }, replication_config: { entities: ['issues'] } })).id;
    const [first] = await h.runsOf(id);
    expect(await executeRun(h.deps, first!.id)).toBe('succeeded');
    fast = { ...h.deps, retryPolicy: { ...DEFAULT_RETRY, baseDelayMs: 10, maxDelayMs: 50 } };
  });
  afterAll(async () => h?.close());

  it('is not the end of the list: the page is asked again, and the full run stores every record and tombstones none', async () => {
    h.sandbox.faults.arm({ kind: 'null_cursor', count: 1, afterCalls: 1, connectorType: 'task_tracker', entity: 'issues' });
    const { id: runId, outcome } = await fullRun(h, fast, id, 'issues');
    expect(outcome).toBe('succeeded');
    expect(await getRun(h.deps.db, runId)).toMatchObject({ pages: SIZE / 250, deleted: '0' });
    await expectStoreEqualsSandbox(h, id, 'task_tracker', 'issues');
  });

  it('an upstream that keeps answering so fails the run, naming both meta values, and tombstones nothing', async () => {
    h.sandbox.faults.arm({ kind: 'null_cursor', count: -1, afterCalls: 1, connectorType: 'task_tracker', entity: 'issues' });
    try {
      const { id: runId, outcome } = await fullRun(h, fast, id, 'issues');
      expect((outcome as Error).message).toMatch(/meta\.hasNextPage.*meta\.endCursor/);
      expect(await getRun(h.deps.db, runId)).toMatchObject({ status: 'failed', pages: 1, deleted: '0' });
      expect(await countLive(h.deps.db, id, 'issues')).toBe(SIZE);
    } finally {
      h.sandbox.faults.clear();
    }
  });
});

describe('agent timeline rows with a null start_time, half of their composed id', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ worker: false });
    h.sandbox.configure({ connectorType: 'live_chat_support', entity: 'agent_timeline', size: 2_500 });
  });
  afterAll(async () => h?.close());

  /**
   * The ids the worker gives the rows of a full read of the export, read as a run reads it: the
   * HTTP runtime client, the export's paging. The timeline lists no `search`, so no connector
   * replicates it (a run of it is refused before reading); this is the read and the id a run uses.
   */
  async function readIds(): Promise<{ ids: unknown[]; undated: number }> {
    const kind = getConnectorDef('live_chat_support');
    const entity = getEntityDef(kind, 'agent_timeline');
    const rows: Record<string, unknown>[] = [];
    for await (const page of readPartition({ runtime: h.deps.runtime, connector: kind, credentials: { access_token: 't' }, config: {} }, entity, {})) rows.push(...page);
    expect(rows.length).toBe(2_500);
    // As the reference shows the rows: no id of their own.
    expect(rows.every((r) => r.id === undefined)).toBe(true);
    return { ids: rows.map((r) => withDerivedFields(entity, r).id), undated: rows.filter((r) => r.start_time === null).length };
  }

  it('each get an id (a digest of the row standing in for the missing part), distinct, and the same at every read', async () => {
    const first = await readIds();
    expect(first.undated).toBeGreaterThan(100);
    expect(first.ids.filter((x) => x === undefined)).toHaveLength(0);
    expect(new Set(first.ids).size).toBe(first.ids.length);
    expect(first.ids.filter((x) => /^\d+\|~[0-9a-f]{16}$/.test(String(x)))).toHaveLength(first.undated);
    expect((await readIds()).ids).toEqual(first.ids);
  });
});
