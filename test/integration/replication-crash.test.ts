import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRun } from '../../src/store/runs-repo.js';
import { expectIndexEqualsStore, expectStoreEqualsSandbox } from './helpers/compare.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { realOpenSearch } from './helpers/real-opensearch.js';
import { spawnWorker, type WorkerProcess } from './helpers/worker-process.js';

// Kill points go by progress (below), so the run need not be long to be cut five times: 150
// pages of 8 parallel time slices leave each kill a band of 21 pages.
const SIZE = 15_000;
const PAGES = SIZE / 100;
const KILLS = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Kill points by progress, not by wall time: kill k lands once the run has written a random
 * number of pages inside its own band of the run's first 70 %, so every kill happens mid-run
 * however fast the machine, and at a moment no page boundary predicts (pages are polled while
 * other pages are in flight).
 */
function killAtPages(k: number): number {
  const band = (0.7 * PAGES) / KILLS;
  return Math.floor(k * band + 1 + Math.random() * (band - 1));
}

const backends: ('postgres' | 'opensearch')[] = ['postgres'];
if (realOpenSearch('crash-resume with the OpenSearch index') !== null) backends.push('opensearch');

describe.each(backends)('crash-resume: a full sync survives workers killed with SIGKILL (search on %s)', (search) => {
  let h: Harness;
  let token: string;
  let id: string;
  let env: Record<string, string>;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    // Time slices on (the default outside tests): five crashes land in the middle of parallel chains.
    env = { CREDENTIALS_KEY: `k1:${randomBytes(32).toString('base64')}`, CURSOR_SECRET: randomBytes(24).toString('hex'), WORKER_LOCK_MS: '2000', SYNC_TIME_SLICES: '8' };
    h = await startHarness({ worker: false, env, search });
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: SIZE });
    token = await h.token();
    id = (await h.createConnector(token)).id;
  });
  afterAll(async () => {
    for (const w of workers) await w.kill('SIGKILL');
    await h?.close();
  });

  it(`killed ${KILLS} times at random points of progress, the run ends with the store (and index) equal to the sandbox`, async () => {
    const [run] = await h.runsOf(id);
    const runId = run!.id;
    let lastPages = 0;
    let lastAttempts = (await getRun(h.deps.db, runId))?.attempts ?? 0;
    for (let k = 0; k < KILLS; k++) {
      const w = spawnWorker({ ...h.env, ...env });
      workers.push(w);
      // Wait until this worker has claimed the run and written pages past its kill point (a dead
      // worker's last commit alone must not count), then kill it with its next pages in flight.
      const target = Math.max(killAtPages(k), lastPages + 1);
      const deadline = Date.now() + 120_000;
      for (;;) {
        const cur = await getRun(h.deps.db, runId);
        if ((cur?.attempts ?? 0) > lastAttempts && (cur?.pages ?? 0) >= target) break;
        if (Date.now() > deadline) throw new Error(`worker ${k + 1} made no progress in 120 s: ${w.output.join('').slice(-1000)}`);
        await sleep(10);
      }
      expect(await w.kill('SIGKILL')).toBeNull();
      const cur = await getRun(h.deps.db, runId);
      expect(cur?.status, `run ended before kill ${k + 1}`).toBe('running');
      lastPages = cur?.pages ?? 0;
      lastAttempts = cur?.attempts ?? lastAttempts;
    }
    const survivor = spawnWorker({ ...h.env, ...env });
    workers.push(survivor);
    const final = await h.waitRun(runId, 240_000);
    expect(final.status, survivor.output.join('')).toBe('succeeded');
    expect(final.id).toBe(runId);
    expect(final.attempts).toBeGreaterThanOrEqual(KILLS + 1);
    expect(final.pages).toBeGreaterThanOrEqual(SIZE / 100);
    expect(Number(final.deleted)).toBe(0);
    expect(final.checkpoint?.partitions).toHaveLength(8);
    const total = await h.deps.db.selectFrom('records').select((eb) => eb.fn.countAll<string>().as('n')).where('connector_id', '=', id).executeTakeFirstOrThrow();
    expect(Number(total.n)).toBe(SIZE);
    // The entity's count is kept page by page: no killed page may have counted, nor a resumed one twice.
    const state = await h.deps.db.selectFrom('entity_state').select('record_count').where('connector_id', '=', id).where('entity', '=', 'customers').executeTakeFirstOrThrow();
    expect(Number(state.record_count)).toBe(SIZE);
    await expectStoreEqualsSandbox(h, id, 'payments', 'customers');
    await expectIndexEqualsStore(h, token, id, 'customers');
    expect(await survivor.kill('SIGTERM')).toBe(0);
  }, 300_000);

  it('SIGTERM finishes the current page, saves the checkpoint, exits 0; another worker resumes the same run', async () => {
    const second = (await h.createConnector(token)).id;
    const [run] = await h.runsOf(second);
    // A long job lock: SIGTERM hands the job back at once, and a loaded machine stalling past a
    // short lock must not add a redelivery of its own to the attempts counted below.
    const calm = { ...env, WORKER_LOCK_MS: '60000' };
    const w = spawnWorker({ ...h.env, ...calm });
    workers.push(w);
    const deadline = Date.now() + 120_000;
    while (((await getRun(h.deps.db, run!.id))?.pages ?? 0) < 20) {
      if (Date.now() > deadline) throw new Error(`no 20 pages in 120 s: ${w.output.join('').slice(-1000)}`);
      await sleep(50);
    }
    expect(await w.kill('SIGTERM')).toBe(0);
    const paused = await getRun(h.deps.db, run!.id);
    expect(paused?.status).toBe('running');
    expect(paused?.pages).toBeGreaterThanOrEqual(20);
    expect(paused?.checkpoint?.page).toMatchObject({ starting_after: expect.stringMatching(/^cus_/) });
    const next = spawnWorker({ ...h.env, ...calm });
    workers.push(next);
    const final = await h.waitRun(run!.id, 240_000).catch(async (e: Error) => {
      const activity = await sql<{ s: string }>`select state || ' ' || coalesce(wait_event_type, '') || ':' || coalesce(wait_event, '') || ' ' || left(query, 120) as s from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(h.deps.db);
      const inFlight = h.sandbox.faults.maxInFlight('payments', 'customers');
      throw new Error(`${e.message}; sandbox calls ${h.sandbox.faults.callsFor('payments', 'customers')} (max in flight ${inFlight}); db: ${activity.rows.map((r) => r.s).join(' | ')}; resuming worker said: ${next.output.join('').slice(-2000)}`);
    });
    expect(final.status).toBe('succeeded');
    expect(final.attempts).toBe(2);
    await expectStoreEqualsSandbox(h, second, 'payments', 'customers');
  }, 300_000);
});
