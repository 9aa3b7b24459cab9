/**
 * A redelivered job and the stale execution it superseded can both be writing pages of one run.
 * Each keeps two page writes in flight, and a later write holds its rows while it waits for the
 * one before it; if that wait were invisible to Postgres, the two executions could each hold
 * rows the other's earlier write needs, and nothing but the 10-minute idle timeout would end it.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { triggerSync } from '../../src/app/operations.js';
import { claimRun, getRun } from '../../src/store/runs-repo.js';
import type { PageRecord } from '../../src/store/records-repo.js';
import type { LockTurn } from '../../src/worker/batch-writer.js';
import { writePage, type PageRun } from '../../src/worker/page-writer.js';
import { startSyncedHarness, type Harness } from './helpers/harness.js';
import { failIfStalled } from './helpers/stall-watchdog.js';

/** Writes whose records include a gated id pause before their upsert until the gate opens. */
const gate = vi.hoisted(() => {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { ids: new Set<string>(), opened, open };
});

vi.mock('../../src/store/records-repo.js', async (importOriginal) => {
  const repo = await importOriginal<typeof import('../../src/store/records-repo.js')>();
  return {
    ...repo,
    liveHashes: async (...args: Parameters<typeof repo.liveHashes>) => {
      if (args[3].some((id) => gate.ids.has(id))) await gate.opened;
      return repo.liveHashes(...args);
    },
  };
});

const recs = (...ids: string[]): PageRecord[] => ids.map((id) => ({ id, data: { id, v: 1 } }));

/** A write's turn as BatchWriter hands it out: after `before` took its locks, with its key and the one it follows. */
function turn(key: string, after: string | null, before: Promise<void>): LockTurn & { locked: Promise<void> } {
  let taken!: () => void;
  const locked = new Promise<void>((r) => (taken = r));
  return { before, taken, key, after, locked };
}

describe('superseded and live executions of one run', () => {
  let h: Harness;
  let id: string;

  beforeAll(async () => {
    ({ h, id } = await startSyncedHarness(20));
  });
  afterAll(async () => h?.close());

  it('overlapping on the same records, they cannot stall each other: Postgres sees every wait and breaks the cycle', async () => {
    const [run] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    await claimRun(h.deps.db, run!.id, 2, 120);
    // The job was redelivered while its first execution still ran: attempt 2 owns the run now.
    await claimRun(h.deps.db, run!.id, 2, 120);
    const base = { id: run!.id, connectorId: id, entity: 'customers', mode: 'full' as const, overlapWrites: true };
    const stale: PageRun = { ...base, attempt: 1 };
    const live: PageRun = { ...base, attempt: 2 };
    gate.ids.add('stale_1').add('live_1');
    const cp = (p: string) => ({ partition: 0, page: { p } });

    // Each execution's first write has taken its locks but not yet written (gated); its second
    // write then stores the record the other execution's first write is about to store.
    const s1Turn = turn('stale/1', null, Promise.resolve());
    const s1 = writePage(h.deps.db, stale, recs('stale_1', 'shared_b'), cp('s1'), 1, Promise.resolve(), s1Turn);
    const l1Turn = turn('live/1', null, Promise.resolve());
    const l1 = writePage(h.deps.db, live, recs('live_1', 'shared_a'), cp('l1'), 1, Promise.resolve(), l1Turn);
    const s2 = writePage(h.deps.db, stale, recs('shared_a'), cp('s2'), 1, s1, turn('stale/2', 'stale/1', s1Turn.locked));
    const l2 = writePage(h.deps.db, live, recs('shared_b'), cp('l2'), 1, l1, turn('live/2', 'live/1', l1Turn.locked));
    const writes = [s1, l1, s2, l2];
    writes.forEach((w) => w.catch(() => undefined));
    await waitForRowsHeld(2);
    gate.open();

    const outcomes = await failIfStalled(Promise.allSettled(writes), {
      ms: 20_000,
      db: h.deps.db,
      terminate: sql`select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = 'syncdex' and state = 'idle in transaction' and pid <> pg_backend_pid()`,
      stalled: 'the two executions stalled each other',
    });
    const reasons = outcomes.flatMap((o) => (o.status === 'rejected' ? [errorCode(o.reason)] : []));
    expect(reasons).toContain('40P01');
    // Whatever the deadlock detector chose, the stale execution committed nothing.
    expect(outcomes[0]!.status).toBe('rejected');
    expect(outcomes[2]!.status).toBe('rejected');
    const stored = await h.deps.db.selectFrom('records').select('record_id').where('record_id', '=', 'stale_1').execute();
    expect(stored).toEqual([]);
    expect((await getRun(h.deps.db, run!.id))?.checkpoint).not.toMatchObject({ page: { p: 's1' } });
  }, 40_000);

  /** Waits until `n` page transactions sit idle holding rows (the second writes, waiting on the first). */
  async function waitForRowsHeld(n: number): Promise<void> {
    for (let i = 0; i < 100; i++) {
      const { rows } = await sql<{ n: string }>`select count(*)::text as n from pg_stat_activity
        where application_name = 'syncdex' and pid <> pg_backend_pid()
          and (state = 'idle in transaction' or wait_event_type = 'Lock') and backend_xid is not null`.execute(h.deps.db);
      if (Number(rows[0]?.n) >= n) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`fewer than ${n} page writes got to hold their rows`);
  }
});

/** The Postgres error code of a failure, looking through AppError causes. */
function errorCode(e: unknown): string | undefined {
  for (let x = e as { code?: unknown; cause?: unknown } | undefined, i = 0; x !== undefined && i < 5; x = x.cause as typeof x, i++) {
    if (typeof x.code === 'string' && /^[0-9A-Z]{5}$/.test(x.code)) return x.code;
  }
  return undefined;
}
