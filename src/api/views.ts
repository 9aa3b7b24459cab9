/** JSON shapes of the admin API: runs (summary and detail) and connectors with entity status. */
import { freshnessOf } from '../app/freshness.js';
import type { ChainRun, RunListRow } from '../store/admin-queries.js';
import type { Connector } from '../store/connectors-repo.js';
import type { EntityStateRow, SyncRunRow } from '../store/schema.js';

const iso = (d: Date | null | undefined): string | null => (d == null ? null : new Date(d).toISOString());

/** Milliseconds a run has taken (so far, for an active one). */
function durationMs(run: SyncRunRow, now: number): number | null {
  if (run.started_at === null) return null;
  const end = run.finished_at === null ? now : new Date(run.finished_at).getTime();
  return Math.max(0, end - new Date(run.started_at).getTime());
}

/**
 * Progress of a run as far as it can be known: records seen against the total the runtime
 * reports, else the entity's record count of the previous sync (null on a first sync of a list
 * without a reported total).
 */
function progress(run: SyncRunRow, expected: number | null): { seen: number; expected: number | null; ratio: number | null } {
  const seen = Number(run.seen);
  if (run.status === 'succeeded') return { seen, expected, ratio: 1 };
  const ratio = expected !== null && expected > 0 ? Math.min(0.99, seen / expected) : null;
  return { seen, expected, ratio };
}

/** A run as the runs list shows it. */
export function runSummary(run: SyncRunRow | RunListRow, now = Date.now()) {
  const r = run as Partial<RunListRow> & SyncRunRow;
  // What the runtime reports the list holds, else the entity's count from the previous sync.
  const expected = run.checkpoint?.reportedTotal ?? (r.entity_record_count == null ? null : Number(r.entity_record_count));
  return {
    id: run.id,
    connector_id: run.connector_id,
    connector_name: r.connector_name ?? null,
    connector_type: r.connector_type ?? null,
    entity: run.entity,
    trigger: run.trigger,
    mode: run.mode,
    status: run.status,
    replay_of: run.replay_of,
    attempts: run.attempts,
    counters: {
      pages: run.pages,
      seen: Number(run.seen),
      inserted: Number(run.inserted),
      updated: Number(run.updated),
      unchanged: Number(run.unchanged),
      deleted: Number(run.deleted),
    },
    progress: progress(run, expected),
    timings: {
      queued_at: iso(run.queued_at),
      started_at: iso(run.started_at),
      finished_at: iso(run.finished_at),
      heartbeat_at: iso(run.heartbeat_at),
      duration_ms: durationMs(run, now),
    },
    error: run.error,
  };
}

const chainView = (c: ChainRun) => ({ id: c.id, replay_of: c.replay_of, status: c.status, trigger: c.trigger, queued_at: iso(c.queued_at) });

/**
 * One run in full: the summary plus the job id, the checkpoint (the partitions list is reduced
 * to its length: it can be long and is an implementation detail), and the replay chain.
 */
export function runDetail(run: RunListRow, chain: { ancestors: ChainRun[]; replays: ChainRun[] }) {
  const cp = run.checkpoint;
  return {
    ...runSummary(run),
    job_id: run.job_id,
    checkpoint: cp === null ? null : { partition: cp.partition, page: cp.page, max_cursor: cp.maxCursor ?? null, partitions: cp.partitions?.length ?? null, reported_total: cp.reportedTotal ?? null },
    replay_chain: { ancestors: chain.ancestors.map(chainView), replays: chain.replays.map(chainView) },
  };
}

/** An entity's replication status, with how fresh its copy is against the connector's schedule. */
export function entityView(s: EntityStateRow, c: Connector, now = Date.now()) {
  return {
    entity: s.entity,
    status: s.status,
    record_count: Number(s.record_count),
    last_synced_at: iso(s.last_synced_at),
    next_run_at: iso(s.next_run_at),
    last_run_id: s.last_run_id,
    last_error: s.last_error,
    freshness: freshnessOf(s, c, now),
  };
}

/** A connector as the admin API lists it: never credentials. */
export function adminConnectorView(c: Connector, states: readonly EntityStateRow[]) {
  return {
    id: c.id,
    organization_id: c.organizationId,
    external_user_id: c.externalUserId,
    connector_type: c.connectorType,
    name: c.name,
    auth_method: c.authMethod,
    status: c.status,
    created_at: iso(c.createdAt),
    entities: states.map((s) => entityView(s, c)),
  };
}
