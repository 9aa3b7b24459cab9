/**
 * Schedules as operators see them: entities show when their connector ticks next from the moment
 * it is scheduled, and a worker start recreates schedulers the queue lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pauseConnector, resumeConnector } from '../../src/app/operations.js';
import { listEntityStates } from '../../src/store/entity-state-repo.js';
import { restoreSchedules } from '../../src/worker/restore-schedules.js';
import { nextTick, removeSchedule } from '../../src/worker/schedules.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { queueBackends } from './helpers/queue-backends.js';

const backends = queueBackends('the next-run test');

describe.each(backends)('next run on the %s queue backend', (queue) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ queue, worker: false });
  });
  afterAll(async () => h?.close());

  const nextRuns = async (id: string): Promise<(number | null)[]> => (await listEntityStates(h.deps.db, id)).map((s) => s.next_run_at?.getTime() ?? null);

  it('is set on create (the default hour, or the schedule given), cleared by pause and set again by resume', async () => {
    const before = Date.now();
    const hourly = (await h.createConnector(await h.token())).id;
    for (const at of await nextRuns(hourly)) {
      expect(at).not.toBeNull();
      expect(at! - before).toBeGreaterThanOrEqual(3_600_000 - 5_000);
      expect(at! - before).toBeLessThanOrEqual(3_600_000 + 60_000);
    }
    const quarter = (await h.createConnector(await h.token(), { replication_config: { entities: ['customers'], schedule: '15m' } })).id;
    const [q] = await nextRuns(quarter);
    expect(q! - before).toBeGreaterThanOrEqual(900_000 - 5_000);
    expect(q! - before).toBeLessThanOrEqual(900_000 + 60_000);

    await pauseConnector(h.deps, quarter);
    expect(await nextRuns(quarter)).toEqual([null]);
    await resumeConnector(h.deps, quarter);
    expect((await nextRuns(quarter))[0]).not.toBeNull();
  });

  it('a worker start recreates the schedulers of active connectors the queue lost, and leaves the others alone', async () => {
    const token = await h.token();
    const lost = (await h.createConnector(token)).id;
    const kept = (await h.createConnector(token)).id;
    const paused = (await h.createConnector(token)).id;
    await pauseConnector(h.deps, paused);
    await removeSchedule(h.deps.scheduleQueue, lost); // as a Redis restarted without its data would
    const keptTick = await nextTick(h.deps.scheduleQueue, kept);

    expect(await restoreSchedules(h.deps)).toBe(1);
    expect(await nextTick(h.deps.scheduleQueue, lost)).not.toBeNull();
    // An existing scheduler is not re-upserted: that would push its next tick back.
    expect(await nextTick(h.deps.scheduleQueue, kept)).toEqual(keptTick);
    expect(await nextTick(h.deps.scheduleQueue, paused)).toBeNull();
    expect(await restoreSchedules(h.deps)).toBe(0);
  });
});
