/**
 * Keeps the planner's statistics of `records` current while syncs fill it. Autovacuum analyzes a
 * table after 10 % of it changed, on its own schedule (a minute's nap, then its turn): until then
 * a freshly synced entity is planned as if the table were empty, and a lookup on an indexed email
 * walked 20,000 rows through a sort index (15 ms, 0.12 ms after ANALYZE). Searches are promised
 * as soon as pages commit, so writers check after their pages and analyze when the table changed
 * by more than a tenth since its last analysis (autovacuum's own rule, without its wait), or when
 * an entity they wrote grew past twice what the planner believes it holds: a new connector's
 * thousand records beside a million others are no tenth of the table, and planned as one row
 * they were scanned through the primary key (3.3 ms for an `eq` on a lookup email; 0.23 ms on
 * its index once analyzed). `records` is partitioned by entity (migration 0014): a search is
 * planned on its entity's partition's statistics, so only partitions that changed are analyzed.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from './db.js';
import type { Logger } from '../logger.js';
import { DEFAULT_PARTITION } from './record-partitions.js';

/** Changed rows since the last analysis, and the rows the planner believes the table has. */
export interface TableChurn {
  readonly changed: number;
  readonly rows: number;
}

/** Autovacuum's default rule (50 rows + 10 %), applied at once. */
export function isStale(c: TableChurn): boolean {
  return c.changed > 50 + 0.1 * Math.max(c.rows, 0);
}

/** An entity's rows in `records` (a tenant of the shared table). */
export interface Tenant {
  readonly connectorId: string;
  readonly entity: string;
}

/** Below this many rows written, a tenant's scan through the primary key is cheap whatever the planner believes. */
export const TENANT_MIN_ROWS = 500;

/** A tenant is planned on stale statistics once it wrote more rows than the planner believes it has (it more than doubled). */
export function isTenantStale(written: number, plannerRows: number): boolean {
  return written >= TENANT_MIN_ROWS && written > plannerRows;
}

/** The rows the planner estimates a tenant has (its statistics, not a count). */
export async function plannerTenantRows(db: Kysely<DB>, t: Tenant): Promise<number> {
  const { rows } = await sql<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>`
    explain (format json) select 1 from records where connector_id = ${t.connectorId}::uuid and entity = ${t.entity}`.execute(db);
  return rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0;
}

/** A partition of `records` (migration 0014) and its churn. */
export interface PartitionChurn extends TableChurn {
  readonly partition: string;
}

/** The churn of every partition of `records`, from the catalog and the statistics views alone (no table is opened or locked). */
export async function partitionsChurn(db: Kysely<DB>): Promise<PartitionChurn[]> {
  const { rows } = await sql<{ partition: string; changed: string; rows: string }>`
    select c.relname as partition, s.n_mod_since_analyze::text as changed, greatest(c.reltuples, 0)::bigint::text as rows
      from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_stat_user_tables s on s.relid = c.oid
     where i.inhparent = 'records'::regclass`.execute(db);
  return rows.map((r) => ({ partition: r.partition, changed: Number(r.changed), rows: Number(r.rows) }));
}

/** The partition holding each entity's records (the default one for an entity without its own), found by name without locks. */
async function partitionsOf(db: Kysely<DB>, entities: readonly string[]): Promise<Map<string, string>> {
  if (entities.length === 0) return new Map();
  const { rows } = await sql<{ entity: string; partition: string | null }>`
    select e as entity, syncdex_find_records_partition(e) as partition from unnest(${entities}::text[]) as e`.execute(db);
  return new Map(rows.map((r) => [r.entity, r.partition ?? DEFAULT_PARTITION]));
}

const tenantKey = (t: Tenant): string => `${t.connectorId}/${t.entity}`;

/** Rows a process wrote to a tenant since its last analysis, and what the planner believed the tenant held when last asked. */
export interface TenantWrites {
  readonly tenant: Tenant;
  rows: number;
  plannerRows?: number;
}

/**
 * Whether some tenant this process wrote to is stale ({@link isTenantStale}). The planner is asked
 * only about a tenant past the minimum that outgrew its last answer (estimates only change with
 * an analysis, after which the writes start over): about once per doubling.
 */
async function someTenantStale(db: Kysely<DB>, written: readonly TenantWrites[]): Promise<boolean> {
  for (const w of written) {
    // Stale by its last answer (none yet: past the minimum is enough to ask).
    if (!isTenantStale(w.rows, w.plannerRows ?? 0)) continue;
    w.plannerRows = await plannerTenantRows(db, w.tenant);
    if (isTenantStale(w.rows, w.plannerRows)) return true;
  }
  return false;
}

/** A partition due for an analysis, with the tenants of this process it holds. */
interface StalePartition {
  readonly partition: string;
  readonly tenants: readonly TenantWrites[];
}

/**
 * The partitions due for an analysis: changed by more than a tenth ({@link isStale}), counting the
 * rows this process wrote to their entities (`tenants`), which the statistics counters may not
 * show yet (a backend reports them up to seconds after its commit, so a run's last pages were
 * often missing from them at its end); or holding a tenant this process wrote that is stale.
 */
async function stalePartitions(db: Kysely<DB>, tenants: readonly TenantWrites[]): Promise<StalePartition[]> {
  const parts = await partitionsChurn(db);
  const homes = await partitionsOf(db, [...new Set(tenants.map((t) => t.tenant.entity))]);
  const out: StalePartition[] = [];
  for (const p of parts) {
    const mine = tenants.filter((t) => homes.get(t.tenant.entity) === p.partition);
    const written = mine.reduce((n, t) => n + t.rows, 0);
    if (isStale({ changed: Math.max(p.changed, written), rows: p.rows }) || (await someTenantStale(db, mine))) out.push({ partition: p.partition, tenants: mine });
  }
  return out;
}

/**
 * Analyzes the partitions of `records` that are stale; `tenants`: the rows this process wrote per
 * tenant since its last analysis. One analysis at a time across processes. A periodic check
 * (`atRunEnd` false) takes the lock only when something is due and skips when another process
 * holds it (that one's analysis sees the same rows). A run's end waits for the lock and decides
 * under it: another process's analysis may have sampled the partition before this run's last
 * pages, and the run must not be reported done before the planner knows them. It also flushes
 * the text indexes' pending lists. Returns the tenants whose partitions were analyzed, or null.
 */
export async function analyzeRecordsIfStale(db: Kysely<DB>, atRunEnd = false, tenants: readonly TenantWrites[] = [], lockWaitMs = RUN_END_LOCK_WAIT_MS): Promise<readonly TenantWrites[] | null> {
  // A periodic check decides before the lock; a run's end, which may have waited, under it.
  const due = atRunEnd ? null : await stalePartitions(db, tenants);
  if (due?.length === 0) return null;
  return db.connection().execute(async (conn) => {
    if (!(await takeAnalyzeLock(conn, atRunEnd ? lockWaitMs : 0))) return null;
    try {
      const stale = due ?? (await stalePartitions(conn, tenants));
      // The partitions alone: a statement naming its entity is planned on its partition's statistics.
      for (const p of stale) await sql`analyze ${sql.id(p.partition)}`.execute(conn);
      if (stale.length > 0 || atRunEnd) await flushPendingLists(conn);
      return stale.length === 0 ? null : stale.flatMap((p) => p.tenants);
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended(${ANALYZE_LOCK}, 0))`.execute(conn);
    }
  });
}

/** The advisory lock (hashed) that one process at a time holds while it analyzes `records`. */
export const ANALYZE_LOCK = 'analyze/records';

/** How long a run's end waits for another process's analysis before it gives up (logged; autovacuum will analyze). */
export const RUN_END_LOCK_WAIT_MS = 60_000;

/**
 * Takes the analysis lock on `conn`: at once or not at all when `waitMs` is 0, else waiting up to
 * `waitMs` (a lock timeout, which throws): a hung analysis elsewhere must not hold a run's end forever.
 */
async function takeAnalyzeLock(conn: Kysely<DB>, waitMs: number): Promise<boolean> {
  if (waitMs === 0) {
    const { rows } = await sql<{ ok: boolean }>`select pg_try_advisory_lock(hashtextextended(${ANALYZE_LOCK}, 0)) as ok`.execute(conn);
    return rows[0]?.ok === true;
  }
  await sql`select set_config('lock_timeout', ${`${waitMs}ms`}, false)`.execute(conn);
  try {
    await sql`select pg_advisory_lock(hashtextextended(${ANALYZE_LOCK}, 0))`.execute(conn);
    return true;
  } finally {
    // A pooled connection: the next user gets the server's default again.
    await sql`reset lock_timeout`.execute(conn);
  }
}

/**
 * Moves the entries waiting in the text GINs' pending lists (fastupdate) into their trees, on
 * every partition. Every search through such an index scans its whole pending list; autovacuum
 * flushes it, on its own schedule, and a manual ANALYZE does not. Missing indexes (an older
 * schema) are skipped.
 */
async function flushPendingLists(db: Kysely<DB>): Promise<void> {
  await sql`select gin_clean_pending_list(i.inhrelid) from pg_inherits i
    where i.inhparent in (select c.oid from pg_class c where c.relname in ('records_words_gin', 'records_text_trgm') and c.relnamespace = current_schema()::regnamespace)`.execute(db);
}

/**
 * A process's single-flight checker: `poke()` after a page write starts a check (and an analysis
 * when due) in the background, at most every `everyMs`; failures are logged, never thrown into a
 * run. The statistics counters lag commits by up to a second, which the interval absorbs.
 */
export class StatsKeeper {
  private running: Promise<void> | null = null;
  private lastCheck = 0;
  /** A forced check that arrived during another: it runs when that one ends. */
  private again = false;
  /** Rows this process inserted or changed since their partition was last analyzed, per tenant (`connector/entity`). */
  private tenants = new Map<string, TenantWrites>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly logger: Logger | undefined,
    private readonly everyMs = 2000,
  ) {}

  /** Counts rows a page write of this process inserted or changed. */
  wrote(rows: number, tenant: Tenant): void {
    const key = tenantKey(tenant);
    const t = this.tenants.get(key);
    if (t === undefined) this.tenants.set(key, { tenant, rows });
    else t.rows += rows;
  }

  /** `force`: check even inside the interval (a run's end: its last pages must count). */
  poke(force = false, now = Date.now()): void {
    if (this.running !== null) {
      this.again ||= force;
      return;
    }
    if (!force && now - this.lastCheck < this.everyMs) return;
    this.lastCheck = now;
    const started = Date.now();
    const before = new Map([...this.tenants.values()].map((t) => [t, t.rows]));
    // After an analysis, or at a run's end, the pending lists are flushed too.
    this.running = analyzeRecordsIfStale(this.db, force, [...this.tenants.values()])
      .then((analyzed) => {
        if (analyzed === null) return;
        this.forget(analyzed, before);
        this.logger?.info({ ms: Date.now() - started }, 'records analyzed: the planner sees the synced rows');
      })
      .catch((e: unknown) => this.logger?.warn({ err: { message: (e as Error).message } }, 'analyzing records failed; autovacuum will'))
      .finally(() => {
        this.running = null;
        if (this.again) (this.again = false), this.poke(true);
      });
  }

  /** After an analysis: the rows those tenants wrote before it are known to the planner, and its estimates changed. */
  private forget(analyzed: readonly TenantWrites[], before: ReadonlyMap<TenantWrites, number>): void {
    for (const t of analyzed) {
      const key = tenantKey(t.tenant);
      const rows = t.rows - (before.get(t) ?? 0);
      if (rows > 0) this.tenants.set(key, { tenant: t.tenant, rows });
      else this.tenants.delete(key);
    }
  }

  /**
   * A forced check, awaited: at a run's end, before the run is reported done, so that a search
   * right after it is planned on statistics that hold its rows. Failures are logged, as in `poke`.
   */
  async current(): Promise<void> {
    this.poke(true);
    await this.settle();
  }

  /** Waits until no check is in flight or due (shutdown, tests). */
  async settle(): Promise<void> {
    while (this.running !== null) await this.running;
  }
}

const keepers = new WeakMap<Kysely<DB>, StatsKeeper>();

/** The keeper of a database handle (one per process and pool). */
export function statsKeeper(db: Kysely<DB>, logger?: Logger): StatsKeeper {
  let k = keepers.get(db);
  if (k === undefined) keepers.set(db, (k = new StatsKeeper(db, logger)));
  return k;
}
