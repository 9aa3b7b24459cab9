/**
 * Prometheus metrics of an API process (prom-client, one registry per app: no global state).
 *
 * Runs are executed by worker processes, which expose no HTTP port, so run metrics are derived
 * at scrape time from `sync_runs` (the source of truth every process shares) instead of being
 * counted in the worker: any API replica sees the same runs (aggregate rates with `max`, not
 * `sum`). The sync duration histogram observes each run once per API process, as it
 * first sees it finished. Search latency is measured where searches run: in this process.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Deps } from '../app/deps.js';
import { runCountersSince, runsFinishedAfter, runStatusCounts } from '../store/admin-queries.js';
import { OUTCOMES, RunTally } from './run-tally.js';

/** The metrics of one API app. */
export interface ApiMetrics {
  readonly registry: Registry;
  readonly searchLatency: Histogram<'connector_type' | 'entity' | 'outcome'>;
}

/**
 * How long a finished run is still re-read for late changes: `finished_at` is when its final
 * transaction began, and that transaction (tombstoning a large entity) can outlast a scrape.
 */
const FINISHED_GRACE_MS = 60 * 60_000;

const JOB_STATES = ['waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized', 'waiting-children'] as const;

function runMetrics(deps: Deps, registry: Registry): void {
  new Gauge({
    name: 'syncdex_runs',
    help: 'Sync runs by status (from sync_runs)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const counts = await runStatusCounts(deps.db);
      for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
    },
  });
  // Counts from this process's first scrape on: each scrape adds the runs' growth since the last
  // one, run by run (RunTally), so pruning old runs never makes it go back.
  const tally = new RunTally();
  let since: Date | null = null;
  new Counter({
    name: 'syncdex_records_synced_total',
    help: 'Records read by sync runs since this process started counting, by write outcome (seen = read; inserted/updated/unchanged/deleted)',
    labelNames: ['outcome'],
    registers: [registry],
    async collect() {
      const { now, runs } = await runCountersSince(deps.db, since);
      const growth = tally.advance(runs);
      for (const outcome of OUTCOMES) this.inc({ outcome }, growth[outcome]);
      // A run's last page may commit a moment after a scrape's clock reading: keep showing
      // finished runs for a while, where a repeat adds nothing.
      since = new Date(now.getTime() - FINISHED_GRACE_MS);
    },
  });
  let seenUntil = new Date(0);
  new Histogram({
    name: 'syncdex_sync_duration_seconds',
    help: 'Duration of finished sync runs, from start to end (each run observed once per API process)',
    labelNames: ['status', 'entity'],
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 4 * 3600],
    registers: [registry],
    async collect() {
      for (const r of await runsFinishedAfter(deps.db, seenUntil)) {
        this.observe({ status: r.status, entity: r.entity }, r.seconds);
        if (r.finished_at > seenUntil) seenUntil = r.finished_at;
      }
    },
  });
}

function queueMetrics(deps: Deps, registry: Registry): void {
  new Gauge({
    name: 'syncdex_queue_jobs',
    help: 'BullMQ jobs by queue and state (getJobCounts)',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      for (const q of [deps.syncQueue, deps.scheduleQueue]) {
        const counts = await q.getJobCounts(...JOB_STATES);
        for (const state of JOB_STATES) this.set({ queue: q.name, state }, counts[state] ?? 0);
      }
    },
  });
}

/** Builds the registry: process defaults, run and queue gauges, and the search latency histogram. */
export function createApiMetrics(deps: Deps): ApiMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'syncdex_process_' });
  runMetrics(deps, registry);
  queueMetrics(deps, registry);
  const searchLatency = new Histogram({
    name: 'syncdex_search_duration_seconds',
    help: 'Latency of search calls served by this process (validation, backend, paging)',
    labelNames: ['connector_type', 'entity', 'outcome'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return { registry, searchLatency };
}
