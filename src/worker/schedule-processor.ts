/** The scheduled tick of a connector: one run per replicated entity, never piling up. */
import type { Job } from 'bullmq';
import { replicatedEntities } from '../app/connector-service.js';
import type { Deps } from '../app/deps.js';
import { findConnector, type Connector } from '../store/connectors-repo.js';
import { setNextRun } from '../store/entity-state-repo.js';
import { pruneRuns } from '../store/runs-repo.js';
import { requestSync } from './request-sync.js';
import { nextTick, removeSchedule, scheduleJobSchema, scheduledMode, skipConflicts, type ScheduleJob } from './schedules.js';

/** Queues one run per replicated entity, as a tick does (an entity with an active run keeps it); returns how many. */
export async function syncAsScheduled(deps: Deps, connector: Connector): Promise<number> {
  let started = 0;
  for (const entity of replicatedEntities(connector)) {
    const mode = await scheduledMode(deps.db, connector.id, entity);
    const run = await skipConflicts(() => requestSync(deps, connector, { entity, trigger: 'schedule', mode }));
    if (run !== null) started++;
  }
  return started;
}

export function scheduleProcessor(deps: Deps) {
  return async (job: Job<ScheduleJob>): Promise<number> => {
    const { connectorId } = scheduleJobSchema.parse(job.data);
    const connector = await findConnector(deps.db, connectorId);
    if (connector === null) {
      // The connector was deleted: its scheduler must not keep ticking.
      await removeSchedule(deps.scheduleQueue, connectorId);
      return 0;
    }
    if (connector.status === 'paused') return 0;
    const started = await syncAsScheduled(deps, connector);
    const pruned = await pruneRuns(deps.db, connector.id, deps.config.runRetentionDays);
    if (pruned > 0) deps.logger.info({ connector: connector.id, pruned }, 'old runs pruned');
    const next = await nextTick(deps.scheduleQueue, connector.id);
    if (next !== null) await setNextRun(deps.db, connector.id, next);
    return started;
  };
}
