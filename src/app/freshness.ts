/**
 * How fresh an entity's synced copy is: its age (time since the last successful sync) against
 * the connector's schedule. A copy is stale once it is older than twice the schedule's interval:
 * one tick may be late or fail and be retried, two in a row means the copy is falling behind.
 * An entity never synced has no copy and no age; it is stale once its connector is that old.
 */
import { CronExpressionParser } from 'cron-parser';
import { DEFAULT_EVERY_MS, repeatOf } from '../worker/schedules.js';

/** An entity's freshness as the API, the dashboard and /metrics show it. */
export interface Freshness {
  /** Seconds since the last successful sync; null when it never synced. */
  readonly age_seconds: number | null;
  /** The connector's schedule (`1h` when its replication_config has none). */
  readonly schedule: string;
  /** Longest wait between two ticks of the schedule. */
  readonly interval_seconds: number;
  /** Age past which the copy is stale: twice the interval. */
  readonly stale_after_seconds: number;
  readonly stale: boolean;
}

const CRON_SAMPLES = 12;

/**
 * The longest gap between consecutive ticks of a schedule. For a cron expression it is measured
 * over its next ticks, so a weekdays-only schedule is not stale every Monday morning.
 */
export function scheduleIntervalMs(schedule: unknown, now = Date.now()): number {
  const repeat = repeatOf(schedule);
  if ('every' in repeat) return repeat.every;
  try {
    const it = CronExpressionParser.parse(repeat.pattern, { currentDate: new Date(now) });
    let prev = it.next().getTime();
    let longest = 0;
    for (let i = 0; i < CRON_SAMPLES; i++) {
      const next = it.next().getTime();
      longest = Math.max(longest, next - prev);
      prev = next;
    }
    return longest > 0 ? longest : DEFAULT_EVERY_MS;
  } catch {
    // Schedules are validated on the way in; an unreadable one falls back to the default.
    return DEFAULT_EVERY_MS;
  }
}

/** Freshness of one entity of a connector. */
export function freshnessOf(entity: { last_synced_at: Date | null }, connector: { replicationConfig: Record<string, unknown>; createdAt: Date }, now = Date.now()): Freshness {
  const schedule = typeof connector.replicationConfig.schedule === 'string' && connector.replicationConfig.schedule !== '' ? connector.replicationConfig.schedule : '1h';
  const interval = scheduleIntervalMs(schedule, now);
  const since = entity.last_synced_at ?? connector.createdAt;
  const overdueMs = Math.max(0, now - new Date(since).getTime());
  return {
    age_seconds: entity.last_synced_at === null ? null : Math.round(overdueMs / 1000),
    schedule,
    interval_seconds: Math.round(interval / 1000),
    stale_after_seconds: Math.round((2 * interval) / 1000),
    stale: overdueMs > 2 * interval,
  };
}
