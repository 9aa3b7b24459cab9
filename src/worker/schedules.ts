/**
 * Per-connector schedules as BullMQ job schedulers (idempotent upserts), and the scheduled tick
 * that turns into one run per replicated entity: incremental when possible, full when the last
 * full run is older than the reconcile interval (deletions are only found by full runs).
 */
import type { Queue } from 'bullmq';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { isAppError } from '../errors.js';
import type { Connector } from '../store/connectors-repo.js';
import type { DB } from '../store/db.js';
import type { RunMode } from '../store/schema.js';

export const SCHEDULE_QUEUE = 'syncdex-schedule';
export const scheduleJobSchema = z.object({ connectorId: z.string().uuid() });
export type ScheduleJob = z.infer<typeof scheduleJobSchema>;

/** Default schedule when replication_config has none. */
export const DEFAULT_EVERY_MS = 60 * 60 * 1000;
/** A scheduled run is full when the entity's last successful full run is older than this. */
export const FULL_RECONCILE_MS = 24 * 60 * 60 * 1000;

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `15m` / `1h` / `1d` → { every }, a 5-field cron → { pattern }. */
export function repeatOf(schedule: unknown): { every: number } | { pattern: string } {
  if (typeof schedule !== 'string' || schedule === '') return { every: DEFAULT_EVERY_MS };
  const m = /^(\d+)([mhd])$/.exec(schedule);
  if (m !== null) return { every: Number(m[1]) * (UNIT_MS[m[2] as string] as number) };
  return { pattern: schedule };
}

export const schedulerId = (connectorId: string): string => `connector:${connectorId}`;

/** Creates or updates the connector's scheduler (safe to call any number of times); returns when it ticks next, if the queue says. */
export async function upsertSchedule(queue: Queue<ScheduleJob>, connector: Connector, now = Date.now()): Promise<Date | null> {
  const repeat = repeatOf(connector.replicationConfig.schedule);
  // An interval scheduler would tick at once; creation and resume already start what is needed.
  const opts = 'every' in repeat ? { ...repeat, startDate: now + repeat.every } : repeat;
  await queue.upsertJobScheduler(schedulerId(connector.id), opts, {
    name: 'schedule',
    data: { connectorId: connector.id },
    opts: { removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
  });
  return nextTick(queue, connector.id);
}

/** When the connector's scheduler ticks next; null when it has none. */
export async function nextTick(queue: Queue<ScheduleJob>, connectorId: string): Promise<Date | null> {
  const next = (await queue.getJobScheduler(schedulerId(connectorId)))?.next;
  return next === undefined || next === null ? null : new Date(next);
}

export async function removeSchedule(queue: Queue<ScheduleJob>, connectorId: string): Promise<void> {
  await queue.removeJobScheduler(schedulerId(connectorId));
}

/** Mode of a scheduled run: full when no full run succeeded within the reconcile interval. */
export async function scheduledMode(db: Kysely<DB>, connectorId: string, entity: string, now = Date.now()): Promise<RunMode | 'auto'> {
  const lastFull = await db
    .selectFrom('sync_runs')
    .select('finished_at')
    .where('connector_id', '=', connectorId)
    .where('entity', '=', entity)
    .where('mode', '=', 'full')
    .where('status', '=', 'succeeded')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const at = lastFull?.finished_at?.getTime();
  return at === undefined || now - at > FULL_RECONCILE_MS ? 'full' : 'auto';
}

/** Runs `fn`, treating "already queued or running" as done: a tick must not pile up runs. */
export async function skipConflicts<T>(fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn();
  } catch (e) {
    if (isAppError(e) && e.code === 'conflict') return null;
    throw e;
  }
}

