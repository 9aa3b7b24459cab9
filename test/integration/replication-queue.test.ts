import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { triggerSync } from '../../src/app/operations.js';
import { getRun } from '../../src/store/runs-repo.js';
import { executeRun } from '../../src/worker/sync-runner.js';
import { expectStoreEqualsSandbox } from './helpers/compare.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { queueBackends } from './helpers/queue-backends.js';
import { redisServerBin, startRestartableRedis, type RestartableRedis } from './helpers/redis-process.js';

const backends = queueBackends('the queue tests');

describe.each(backends)('sync on the %s queue backend', (queue) => {
  let h: Harness;
  let token: string;
  let id: string;

  beforeAll(async () => {
    h = await startHarness({ queue });
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 1200 });
    token = await h.token();
    id = (await h.createConnector(token)).id;
  });
  afterAll(async () => h?.close());

  it('lands every record, and a second trigger while active is a conflict', async () => {
    const [run] = await h.runsOf(id);
    await expect(triggerSync(h.deps, id, { entity: 'customers' })).rejects.toMatchObject({ code: 'conflict' });
    expect((await h.waitRun(run!.id)).status).toBe('succeeded');
    await expectStoreEqualsSandbox(h, id, 'payments', 'customers');
  });

  it('creates the connector schedule once, however often it is upserted', async () => {
    const schedulers = await h.deps.scheduleQueue.getJobSchedulers();
    expect(schedulers.filter((s) => s.key === `connector:${id}` || s.id === `connector:${id}`)).toHaveLength(1);
  });

  it('two executions of one run never both write: the later claim fences the earlier one', async () => {
    h.sandbox.faults.arm({ kind: 'slow', delayMs: 15, count: -1 });
    await h.worker?.close();
    h.worker = null;
    const [run] = await triggerSync(h.deps, id, { entity: 'customers', mode: 'full' });
    const first = executeRun(h.deps, run!.id);
    await new Promise((r) => setTimeout(r, 150));
    const second = executeRun(h.deps, run!.id);
    const outcomes = (await Promise.all([first, second])).sort();
    h.sandbox.faults.clear();
    expect(outcomes).toEqual(['stopped', 'succeeded']);
    const final = await getRun(h.deps.db, run!.id);
    expect(final?.status).toBe('succeeded');
    expect(Number(final?.deleted)).toBe(0);
    await expectStoreEqualsSandbox(h, id, 'payments', 'customers');
  });
});

const redisBin = redisServerBin();
if (redisBin === null) console.warn('SKIPPING Redis restart test: redis-server is not installed');

describe.skipIf(redisBin === null)('a Redis restart during a run', () => {
  let redis: RestartableRedis;
  let h: Harness;

  beforeAll(async () => {
    redis = await startRestartableRedis(redisBin as string);
    h = await startHarness({ queue: 'redis', env: { REDIS_URL: redis.url } });
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 3000 });
    h.sandbox.faults.arm({ kind: 'slow', delayMs: 20, count: -1 });
  });
  afterAll(async () => {
    await h?.close();
    await redis?.stop();
  });

  it('loses no job: the running run and the queued ones all finish', async () => {
    const token = await h.token();
    const ids = [(await h.createConnector(token)).id, (await h.createConnector(token)).id, (await h.createConnector(token)).id];
    const runs = (await Promise.all(ids.map((c) => h.runsOf(c)))).flat();
    await vi.waitFor(async () => expect((await getRun(h.deps.db, runs[0]!.id))?.pages ?? 0).toBeGreaterThanOrEqual(3), { timeout: 60_000, interval: 25 });
    await redis.restart();
    h.sandbox.faults.clear();
    for (const r of runs) expect(await h.waitRun(r.id, 120_000)).toMatchObject({ status: 'succeeded', error: null });
    for (const c of ids) await expectStoreEqualsSandbox(h, c, 'payments', 'customers');
  }, 400_000);
});
