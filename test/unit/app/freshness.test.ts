import { describe, expect, it } from 'vitest';
import { freshnessOf, scheduleIntervalMs } from '../../../src/app/freshness.js';

const NOW = Date.parse('2026-03-02T12:00:00Z'); // a Monday
const H = 3_600_000;
const connector = (schedule?: string, createdAt = new Date(NOW - 10 * H)) => ({ replicationConfig: schedule === undefined ? {} : { schedule }, createdAt });

describe('freshness of a synced copy', () => {
  it('measures schedules: intervals, the default hour, and the longest gap of a cron expression', () => {
    expect(scheduleIntervalMs('15m')).toBe(15 * 60_000);
    expect(scheduleIntervalMs(undefined)).toBe(H);
    expect(scheduleIntervalMs('*/10 * * * *', NOW)).toBe(10 * 60_000);
    // Weekdays at 09:00: the weekend gap (Friday to Monday) is the interval.
    expect(scheduleIntervalMs('0 9 * * 1-5', NOW)).toBe(72 * H);
  });

  it('is stale past twice the schedule, and ages from the last successful sync', () => {
    const fresh = freshnessOf({ last_synced_at: new Date(NOW - 90 * 60_000) }, connector(), NOW);
    expect(fresh).toEqual({ age_seconds: 5400, schedule: '1h', interval_seconds: 3600, stale_after_seconds: 7200, stale: false });
    expect(freshnessOf({ last_synced_at: new Date(NOW - 2 * H - 1000) }, connector(), NOW).stale).toBe(true);
    expect(freshnessOf({ last_synced_at: new Date(NOW - 2 * H - 1000) }, connector('6h'), NOW).stale).toBe(false);
  });

  it('has no age before a first sync, and is stale once the connector is older than twice its schedule', () => {
    expect(freshnessOf({ last_synced_at: null }, connector('1h', new Date(NOW - 30 * 60_000)), NOW)).toMatchObject({ age_seconds: null, stale: false });
    expect(freshnessOf({ last_synced_at: null }, connector('1h', new Date(NOW - 3 * H)), NOW)).toMatchObject({ age_seconds: null, stale: true });
  });
});
