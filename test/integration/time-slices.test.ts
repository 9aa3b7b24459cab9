/**
 * Full reads of one long list split into time slices (payments `created.lt`), read as parallel
 * chains: the store must come out exactly as with one chain, deletions included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triggerSync } from '../../src/app/operations.js';
import { expectStoreEqualsSandbox, storeRows } from './helpers/compare.js';
import { startHarness, type Harness } from './helpers/harness.js';

describe('full runs in time slices', () => {
  let h: Harness;
  let token: string;
  let id: string;

  const full = async (connectorId = id) => {
    const [r] = await triggerSync(h.deps, connectorId, { entity: 'customers', mode: 'full' });
    return h.waitRun(r!.id);
  };

  beforeAll(async () => {
    h = await startHarness({ env: { SYNC_TIME_SLICES: '6' } });
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 2500 });
    token = await h.token();
    id = (await h.createConnector(token)).id;
  });
  afterAll(async () => h?.close());

  it('splits the first full read into disjoint slices and lands exactly the sandbox', async () => {
    const [first] = await h.runsOf(id);
    const final = await h.waitRun(first!.id);
    expect(final).toMatchObject({ status: 'succeeded', error: null });
    const slices = final.checkpoint?.partitions as Record<string, number>[];
    expect(slices).toHaveLength(6);
    // Newest first, contiguous: each slice's lower bound is the next one's upper bound.
    for (let i = 0; i + 1 < slices.length; i++) expect(slices[i]!['created.gte']).toBe(slices[i + 1]!['created.lt']);
    expect(Number(final.inserted)).toBe(2500);
    expect(final.pages).toBeGreaterThan(25); // six chains, each ending on a part page
    await expectStoreEqualsSandbox(h, id, 'payments', 'customers');
  });

  it('a re-sync of unchanged data writes nothing and deletes nothing', async () => {
    const final = await full();
    expect([final.status, Number(final.inserted), Number(final.updated), Number(final.deleted), Number(final.unchanged)]).toEqual(['succeeded', 0, 0, 0, 2500]);
  });

  it('after creates, updates and deletes, a sliced full run equals the sandbox and tombstones exactly the deleted', async () => {
    const m = h.sandbox.mutate('payments', 'customers', { create: 40, update: 60, delete: 35 });
    const created = new Set(m.created.map(String));
    const died = m.deleted.map(String).filter((x) => !created.has(x));
    const final = await full();
    expect(final.status).toBe('succeeded');
    expect(Number(final.deleted)).toBe(died.length);
    await expectStoreEqualsSandbox(h, id, 'payments', 'customers');
    const rows = await storeRows(h, id, 'customers');
    for (const x of died) expect(rows.get(x)?.deleted, x).toBe(true);
  });

  it('does not slice a list that fits in one page', async () => {
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 60 });
    const small = (await h.createConnector(token)).id;
    const [run] = await h.runsOf(small);
    const final = await h.waitRun(run!.id);
    expect(final.status).toBe('succeeded');
    expect(final.checkpoint?.partitions).toEqual([{}]);
    await expectStoreEqualsSandbox(h, small, 'payments', 'customers');
  });
});
