/**
 * Recreates the schedulers of active connectors that the schedule queue no longer has: a Redis
 * that restarted without its data (or was replaced) would otherwise leave every connector
 * without ticks, silently. Only missing ones: re-upserting an interval scheduler would push its
 * next tick back by a whole interval on every worker start.
 */
import pLimit from 'p-limit';
import type { Deps } from '../app/deps.js';
import { scheduleConnector } from '../app/connector-service.js';
import { listConnectors, type ConnectorsKey } from '../store/connectors-repo.js';
import { schedulerId } from './schedules.js';

const PAGE = 500;

/** Restores missing schedulers of active connectors; returns how many it recreated. */
export async function restoreSchedules(deps: Deps, concurrency = 8): Promise<number> {
  const limit = pLimit(concurrency);
  let restored = 0;
  let after: ConnectorsKey | undefined;
  for (;;) {
    const { connectors, next } = await listConnectors(deps.db, { limit: PAGE, after });
    const active = connectors.filter((c) => c.status === 'active');
    await Promise.all(
      active.map((c) =>
        limit(async () => {
          if ((await deps.scheduleQueue.getJobScheduler(schedulerId(c.id))) !== undefined) return;
          await scheduleConnector(deps, c);
          restored += 1;
        }),
      ),
    );
    if (next === null) return restored;
    after = next;
  }
}
