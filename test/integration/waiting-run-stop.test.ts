/**
 * Cancel and pause stop a run that is waiting (issue 24, item 2): a run waiting out a 429's
 * Retry-After or a 503's backoff inside the worker ends within a couple of seconds of a cancel or
 * a pause, calls the upstream no more, and writes nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelRun, pauseConnector, triggerSync } from '../../src/app/operations.js';
import { getRun } from '../../src/store/runs-repo.js';
import { syncJobId } from '../../src/worker/jobs.js';
import { startHarness, type Harness } from './helpers/harness.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const calls = (h: Harness): number => h.sandbox.faults.callsFor('payments', 'customers');

describe('cancel and pause stop a run that is waiting', () => {
  let h: Harness;

  beforeAll(async () => {
    // The harness's worker waits out Retry-Afters of up to 10 minutes in process (DEFAULT_RETRY).
    h = await startHarness({ worker: true });
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 500 });
  });
  afterAll(async () => h?.close());

  /** A connector whose first run is done, and a full run of it waiting after its first page on `status` with `Retry-After: 30`. */
  async function waitingRun(name: string, status: 429 | 503): Promise<{ connectorId: string; runId: string }> {
    const connectorId = (await h.createConnector(await h.token(), { name })).id;
    const [first] = await h.runsOf(connectorId);
    expect((await h.waitRun(first!.id)).status).toBe('succeeded');
    const before = calls(h);
    h.sandbox.faults.arm({ kind: 'status', status, retryAfterSec: 30, count: 1, afterCalls: 1, connectorType: 'payments', entity: 'customers' });
    const [run] = await triggerSync(h.deps, connectorId, { entity: 'customers', mode: 'full' });
    while (calls(h) < before + 2) await sleep(20);
    // Past the answer: the worker is in its 30 s wait now.
    await sleep(500);
    expect(await jobActive(run!.id)).toBe(true);
    return { connectorId, runId: run!.id };
  }

  const jobActive = async (runId: string): Promise<boolean> => (await (await h.deps.syncQueue.getJob(syncJobId(runId)))?.getState()) === 'active';

  /** Milliseconds until the run's job is no longer being processed, up to `limitMs`. */
  async function msUntilJobEnds(runId: string, limitMs: number): Promise<number> {
    const t0 = Date.now();
    while (Date.now() - t0 < limitMs && (await jobActive(runId))) await sleep(50);
    return Date.now() - t0;
  }

  it('a cancel during a 429 Retry-After wait ends the job within 2 s; no call reaches the upstream after it, nothing is written', async () => {
    const { runId } = await waitingRun('Cancelled', 429);
    const pages = (await getRun(h.deps.db, runId))?.pages;
    const callsAtCancel = calls(h);
    await cancelRun(h.deps, runId);
    expect(await msUntilJobEnds(runId, 5_000)).toBeLessThan(2_500);
    await sleep(1_000);
    expect(calls(h)).toBe(callsAtCancel);
    expect(await getRun(h.deps.db, runId)).toMatchObject({ status: 'cancelled', pages });
  });

  it('a pause during a 503 backoff (Retry-After: 30) ends the job within 2 s; no call reaches the upstream after it, nothing is written', async () => {
    const { connectorId, runId } = await waitingRun('Paused', 503);
    const pages = (await getRun(h.deps.db, runId))?.pages;
    const callsAtPause = calls(h);
    await pauseConnector(h.deps, connectorId);
    expect(await msUntilJobEnds(runId, 5_000)).toBeLessThan(2_500);
    await sleep(1_000);
    expect(calls(h)).toBe(callsAtPause);
    expect(await getRun(h.deps.db, runId)).toMatchObject({ status: 'cancelled', pages });
  });
});
