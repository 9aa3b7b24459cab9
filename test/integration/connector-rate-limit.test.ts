/**
 * Rate limits per upstream account (issue 24, item 3): a Retry-After one run of a connector gets
 * holds back every run of that connector, on every worker, until it expires; other connectors go
 * on. Runs on two workers: a `syncdex worker` process and one in this process.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultSpec } from '../../src/sandbox/faults.js';
import { startWorker, type RunningWorker } from '../../src/worker/start-worker.js';
import { expectStoreEqualsSandbox } from './helpers/compare.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { spawnWorker, type WorkerProcess } from './helpers/worker-process.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** Every call is answered 100 ms late, so each run spans the whole 3 s hold. */
const PACE: FaultSpec[] = [
  { kind: 'slow', delayMs: 100, count: -1, connectorType: 'payments', entity: 'customers' },
  { kind: 'slow', delayMs: 100, count: -1, connectorType: 'payments', entity: 'invoices' },
  { kind: 'slow', delayMs: 100, count: -1, connectorType: 'usage_billing', entity: 'customers' },
];
/** Calls already sent when the 429 was answered may still arrive just after it. */
const IN_FLIGHT_MS = 150;

describe('a Retry-After holds back every run of its connector, across workers; other connectors go on', () => {
  let h: Harness;
  let child: WorkerProcess | null = null;
  let local: RunningWorker | null = null;
  const arrivals: { key: string; at: number; status: number | undefined }[] = [];

  beforeAll(async () => {
    const env = { CREDENTIALS_KEY: `k1:${randomBytes(32).toString('base64')}`, CURSOR_SECRET: randomBytes(24).toString('hex') };
    h = await startHarness({ worker: false, env });
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 3_000 });
    h.sandbox.configure({ connectorType: 'payments', entity: 'invoices', size: 3_000 });
    h.sandbox.configure({ connectorType: 'usage_billing', entity: 'customers', size: 8_000 });
    const faults = h.sandbox.faults;
    const take = faults.take.bind(faults);
    faults.take = (type, entity) => {
      const f = take(type, entity);
      arrivals.push({ key: `${type}/${entity}`, at: Date.now(), status: f?.status });
      return f;
    };
    for (const f of PACE) faults.arm(f);
  });
  afterAll(async () => {
    await child?.kill('SIGKILL');
    await local?.close();
    await h?.close();
  });

  const callsOf = (key: string): number => arrivals.filter((a) => a.key === key).length;

  it('two entities of one connector synced at once, one gets a 429 with Retry-After: 3: no call of either reaches the runtime for 3 s; another connector’s calls continue', async () => {
    const token = await h.token();
    const payments = (await h.createConnector(token, { replication_config: { entities: ['customers', 'invoices'] } })).id;
    // One slot: the child takes one payments run, the local worker the other and the billing run.
    child = spawnWorker(h.env, 1);
    while (callsOf('payments/customers') + callsOf('payments/invoices') === 0) await sleep(20);
    local = startWorker(h.deps, { concurrency: 2 });
    const billing = (await h.createConnector(token, { connector_type: 'usage_billing', name: 'Billing', credentials: { api_key: 'k' }, replication_config: { entities: ['customers'] } })).id;
    while (['payments/customers', 'payments/invoices', 'usage_billing/customers'].some((k) => callsOf(k) < 2)) await sleep(20);

    // All three runs are reading: the next customers call gets the 429.
    h.sandbox.faults.clear();
    h.sandbox.faults.arm({ kind: 'status', status: 429, retryAfterSec: 3, count: 1, connectorType: 'payments', entity: 'customers' });
    for (const f of PACE) h.sandbox.faults.arm(f);
    while (!arrivals.some((a) => a.status === 429)) await sleep(20);
    const limitedAt = arrivals.find((a) => a.status === 429)!.at;
    await sleep(4_000);

    const within = (from: number, to: number) => arrivals.filter((a) => a.at > limitedAt + from && a.at < limitedAt + to);
    const held = within(IN_FLIGHT_MS, 2_900).filter((a) => a.key.startsWith('payments/'));
    expect(held.map((a) => `${a.key} +${a.at - limitedAt} ms`)).toEqual([]);
    expect(within(IN_FLIGHT_MS, 2_900).filter((a) => a.key === 'usage_billing/customers').length).toBeGreaterThan(10);
    // Both payments runs went on once the hold expired.
    for (const key of ['payments/customers', 'payments/invoices']) expect(within(2_900, 4_000).some((a) => a.key === key), key).toBe(true);

    const runs = [...(await h.runsOf(payments)), ...(await h.runsOf(billing))];
    for (const run of runs) expect((await h.waitRun(run.id, 60_000)).status, run.entity).toBe('succeeded');
    await expectStoreEqualsSandbox(h, payments, 'payments', 'customers');
    await expectStoreEqualsSandbox(h, payments, 'payments', 'invoices');
    await expectStoreEqualsSandbox(h, billing, 'usage_billing', 'customers');
  });
});
