import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayRun, triggerSync } from '../../src/app/operations.js';
import { expectIndexEqualsStore, expectStoreEqualsSandbox, storeRows } from './helpers/compare.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { realOpenSearch } from './helpers/real-opensearch.js';

const backends: ('postgres' | 'opensearch')[] = ['postgres'];
if (realOpenSearch('changes reaching the OpenSearch index') !== null) backends.push('opensearch');

describe.each(backends)('changes between runs: incremental, then full reconciles (search on %s)', (search) => {
  let h: Harness;
  let token: string;
  let id: string;
  let mutation: { created: unknown[]; updated: unknown[]; deleted: unknown[] };
  // The sandbox picks updates and deletions at random, possibly among the records it just created.
  let born: string[];
  let died: string[];
  let changed: string[];

  const run = async (mode: 'full' | 'incremental') => {
    const [r] = await triggerSync(h.deps, id, { entity: 'customers', mode });
    return h.waitRun(r!.id);
  };

  beforeAll(async () => {
    h = await startHarness({ search });
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 700 });
    token = await h.token();
    id = (await h.createConnector(token)).id;
    const [first] = await h.runsOf(id);
    expect((await h.waitRun(first!.id)).status).toBe('succeeded');
    mutation = h.sandbox.mutate('payments', 'customers', { create: 30, update: 40, delete: 25 });
    const created = new Set(mutation.created.map(String));
    const deleted = new Set(mutation.deleted.map(String));
    born = [...created].filter((x) => !deleted.has(x));
    died = [...deleted].filter((x) => !created.has(x));
    changed = [...new Set(mutation.updated.map(String))].filter((x) => !created.has(x) && !deleted.has(x));
  });
  afterAll(async () => h?.close());

  let updatedByIncremental = 0;

  it('an incremental run picks up new records from the saved cursor, and deletes nothing', async () => {
    const final = await run('incremental');
    // Updates inside the look-back window are re-read too; updates of older records wait for a full run.
    updatedByIncremental = Number(final.updated);
    expect(final.status).toBe('succeeded');
    expect(final.mode).toBe('incremental');
    expect(Number(final.inserted)).toBe(born.length);
    // The cursor minus the look-back window re-reads only the newest records, not all 700.
    expect(Number(final.seen)).toBeLessThan(200);
    const rows = await storeRows(h, id, 'customers');
    for (const x of born) expect(rows.get(x)?.deleted).toBe(false);
    for (const x of died) expect(rows.get(x)?.deleted).toBe(false);
  });

  it('a full run makes the store equal the sandbox: updates applied, deletions tombstoned', async () => {
    const final = await run('full');
    expect(final.status).toBe('succeeded');
    expect(Number(final.deleted)).toBe(died.length);
    expect(Number(final.updated) + updatedByIncremental).toBe(changed.length);
    expect(died.length + changed.length).toBeGreaterThan(40);
    await expectStoreEqualsSandbox(h, id, 'payments', 'customers');
    const rows = await storeRows(h, id, 'customers');
    for (const x of died) expect(rows.get(x)?.deleted).toBe(true);
    await expectIndexEqualsStore(h, token, id, 'customers');
  });

  it('tombstones are not resurrected by later runs, and an unchanged full run writes nothing', async () => {
    const before = await h.deps.db.selectFrom('records').select(['record_id', 'version']).where('connector_id', '=', id).orderBy('record_id').execute();
    const inc = await run('incremental');
    const full = await run('full');
    expect([inc.status, full.status]).toEqual(['succeeded', 'succeeded']);
    expect([Number(full.inserted), Number(full.updated), Number(full.deleted)]).toEqual([0, 0, 0]);
    const after = await h.deps.db.selectFrom('records').select(['record_id', 'version']).where('connector_id', '=', id).orderBy('record_id').execute();
    expect(after).toEqual(before);
    const rows = await storeRows(h, id, 'customers');
    for (const x of died) expect(rows.get(x)?.deleted).toBe(true);
    await expectIndexEqualsStore(h, token, id, 'customers');
  });

  it('a deleted record that comes back is revived with a new version', async () => {
    // Deleting in the sandbox is permanent there; a store-side check: reviving happens on upsert.
    const gone = died[0] as string;
    const row = await h.deps.db.selectFrom('records').select(['version', 'deleted_at']).where('connector_id', '=', id).where('record_id', '=', gone).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    const state = await h.deps.db.selectFrom('entity_state').selectAll().where('connector_id', '=', id).executeTakeFirstOrThrow();
    expect(Number(state.record_count)).toBe(700 + born.length - died.length);
  });
});

describe('a failed full run replayed from its checkpoint after other runs wrote', () => {
  let h: Harness;
  let id: string;

  beforeAll(async () => {
    h = await startHarness();
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 700 });
    id = (await h.createConnector(await h.token())).id;
    const [first] = await h.runsOf(id);
    expect((await h.waitRun(first!.id)).status).toBe('succeeded');
  });
  afterAll(async () => h?.close());

  it('does not tombstone records an incremental run stored after the original started', async () => {
    h.sandbox.faults.arm({ kind: 'status', status: 401, count: -1, afterCalls: 3 });
    const [full] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    expect(await h.waitRun(full!.id)).toMatchObject({ status: 'failed', pages: 3 });
    h.sandbox.faults.clear();
    // New records land on the first pages (newest first), which the failed run already read.
    const created = h.sandbox.mutate('payments', 'customers', { create: 30, update: 0, delete: 0 }).created.map(String);
    const [inc] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'incremental' });
    expect(await h.waitRun(inc!.id)).toMatchObject({ status: 'succeeded', inserted: expect.anything() });
    const replay = await replayRun(h.deps, full!.id);
    const final = await h.waitRun(replay.id);
    expect(final).toMatchObject({ status: 'succeeded', error: null });
    expect(Number(final.deleted)).toBe(0);
    const rows = await storeRows(h, id, 'customers');
    for (const x of created) expect(rows.get(x)?.deleted, x).toBe(false);
    await expectStoreEqualsSandbox(h, id, 'payments', 'customers');
    failedId = full!.id;
  });

  let failedId = '';

  it('drops the failed run\'s seen-set once a later full run succeeded; replaying it again starts over', async () => {
    const seen = await h.deps.db.selectFrom('sync_run_seen_batches').select('run_id').where('run_id', '=', failedId).execute();
    expect(seen).toEqual([]);
    const original = await h.deps.db.selectFrom('sync_runs').select(['status', 'seen_dropped_at']).where('id', '=', failedId).executeTakeFirstOrThrow();
    expect(original.status).toBe('failed');
    expect(original.seen_dropped_at).not.toBeNull();
    const callsBefore = h.sandbox.faults.callsFor('payments', 'customers');
    const replay = await replayRun(h.deps, failedId);
    expect(replay.checkpoint).toBeNull();
    const final = await h.waitRun(replay.id);
    expect([final.status, Number(final.deleted)]).toEqual(['succeeded', 0]);
    expect(h.sandbox.faults.callsFor('payments', 'customers') - callsBefore).toBe(final.pages);
    expect(final.pages).toBe(8); // 730 records from the first page on
    await expectStoreEqualsSandbox(h, id, 'payments', 'customers');
  });
});
