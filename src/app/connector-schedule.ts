/**
 * Keeps a connector's BullMQ job scheduler in line with its committed status. Pause and resume
 * change the status in Postgres and the schedule in the queue, two stores no transaction spans:
 * a pause removing the schedule after a racing resume had added it would leave an active
 * connector that never ticks again. So each of them, after committing, applies the status it
 * then reads under the connector's row lock, and status changes take that lock too: the last
 * application follows the last change and reads it.
 */
import { within } from '../within.js';
import { lockConnectorStatus, type Connector } from '../store/connectors-repo.js';
import { removeSchedule } from '../worker/schedules.js';
import { scheduleConnector } from './connector-service.js';
import type { Deps } from './deps.js';

/** How long a best-effort queue call may take once an operation's change has committed. */
export const QUEUE_CALL_MS = 5_000;

/** What {@link applySchedule} did: the schedule now exists, was removed, or the connector is gone. */
export type ScheduleApplied = 'scheduled' | 'removed' | 'gone';

/** Upserts (active) or removes (paused) the connector's schedule, as its committed status says. */
export async function applySchedule(deps: Deps, connector: Connector): Promise<ScheduleApplied> {
  return deps.db.transaction().execute(async (tx) => {
    const status = await lockConnectorStatus(tx, connector.id, 'update');
    if (status === null) return 'gone';
    if (status === 'active') {
      await scheduleConnector(deps, { ...connector, status });
      return 'scheduled';
    }
    await within(removeSchedule(deps.scheduleQueue, connector.id), QUEUE_CALL_MS, () => new Error(`the schedule queue did not answer within ${QUEUE_CALL_MS / 1000} s`));
    return 'removed';
  });
}
