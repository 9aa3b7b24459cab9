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
import { freshnessOf } from '../app/freshness.js';
import { entityFreshnessRows, runCountersSince, runsFinishedAfter, runStatusCounts } from '../store/admin-queries.js';
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

/**
 * How old each entity's synced copy is, and how many copies are stale (older than twice their
 * schedule). The age is per connector (what an operator alerts on); the stale count per
 * (connector type, entity) stays small whatever the number of connectors. Entities never synced
 * have no copy, so no age; they count as stale once overdue.
 */
function freshnessMetrics(deps: Deps, registry: Registry): void {
  // Both gauges are filled by one query per scrape: the registry collects them concurrently.
  let inFlight: Promise<void> | null = null;
  const collectBoth = (): Promise<void> =>
    (inFlight ??= (async () => {
      const now = Date.now();
      const stale = new Map<string, { connector_type: string; entity: string; n: number }>();
      const rows = await entityFreshnessRows(deps.db);
      // Connectors deleted since the last scrape must not linger with their last age.
      age.reset();
      staleCount.reset();
      for (const r of rows) {
        const f = freshnessOf(r, { replicationConfig: r.replication_config, createdAt: r.created_at }, now);
        if (f.age_seconds !== null) age.set({ connector_id: r.connector_id, connector_type: r.connector_type, entity: r.entity }, f.age_seconds);
        const key = `${r.connector_type}\u0000${r.entity}`;
        const entry = stale.get(key) ?? { connector_type: r.connector_type, entity: r.entity, n: 0 };
        stale.set(key, { ...entry, n: entry.n + (f.stale ? 1 : 0) });
      }
      for (const { n, ...labels } of stale.values()) staleCount.set(labels, n);
    })().finally(() => {
      inFlight = null;
    }));
  const age = new Gauge({ name: 'syncdex_entity_copy_age_seconds', help: "Seconds since the entity's last successful sync (its synced copy's age)", labelNames: ['connector_id', 'connector_type', 'entity'], registers: [registry], collect: collectBoth });
  const staleCount = new Gauge({ name: 'syncdex_entities_stale', help: 'Entities whose synced copy is older than twice their schedule (or never synced past that)', labelNames: ['connector_type', 'entity'], registers: [registry], collect: collectBoth });
}

/** Builds the registry: process defaults, run, queue and freshness gauges, and the search latency histogram. */
export function createApiMetrics(deps: Deps): ApiMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'syncdex_process_' });
  runMetrics(deps, registry);
  queueMetrics(deps, registry);
  freshnessMetrics(deps, registry);
  const searchLatency = new Histogram({
    name: 'syncdex_search_duration_seconds',
    help: 'Latency of search calls served by this process (validation, backend, paging)',
    labelNames: ['connector_type', 'entity', 'outcome'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return { registry, searchLatency };
}
