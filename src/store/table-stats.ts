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
 * its index once analyzed).
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from './db.js';
import type { Logger } from '../logger.js';

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

export async function recordsChurn(db: Kysely<DB>): Promise<TableChurn | null> {
  const { rows } = await sql<{ changed: string; rows: string }>`
    select s.n_mod_since_analyze::text as changed, greatest(c.reltuples, 0)::bigint::text as rows
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
     where s.relname = 'records' and s.schemaname = current_schema()`.execute(db);
  const r = rows[0];
  return r === undefined ? null : { changed: Number(r.changed), rows: Number(r.rows) };
}

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
async function someTenantStale(db: Kysely<DB>, written: Iterable<TenantWrites>): Promise<boolean> {
  for (const w of written) {
    // Stale by its last answer (none yet: past the minimum is enough to ask).
    if (!isTenantStale(w.rows, w.plannerRows ?? 0)) continue;
    w.plannerRows = await plannerTenantRows(db, w.tenant);
    if (isTenantStale(w.rows, w.plannerRows)) return true;
  }
  return false;
}

/**
 * Analyzes `records` if stale. `ownWrites`: rows this process changed since its last analysis,
 * which the statistics counters may not show yet (a backend reports them up to seconds after its
 * commit, so a run's last pages were often missing from them at its end); `tenants`: the same per
 * entity written. One analysis at a time across processes (a try-lock: a writer that finds
 * another analyzing skips, the result is the same); returns whether it ran one.
 */
export async function analyzeRecordsIfStale(db: Kysely<DB>, ownWrites = 0, flush = false, tenants: Iterable<TenantWrites> = []): Promise<boolean> {
  const churn = await recordsChurn(db);
  const stale = (churn !== null && isStale({ changed: Math.max(churn.changed, ownWrites), rows: churn.rows })) || (await someTenantStale(db, tenants));
  if (!stale && !flush) return false;
  return db.connection().execute(async (conn) => {
    const key = 'analyze/records';
    const { rows } = await sql<{ ok: boolean }>`select pg_try_advisory_lock(hashtextextended(${key}, 0)) as ok`.execute(conn);
    if (rows[0]?.ok !== true) return false;
    try {
      if (stale) await sql`analyze records`.execute(conn);
      await flushPendingLists(conn);
      return stale;
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended(${key}, 0))`.execute(conn);
    }
  });
}

/**
 * Moves the entries waiting in the text GINs' pending lists (fastupdate) into their trees. Every
 * search through such an index scans its whole pending list; autovacuum flushes it, on its own
 * schedule, and a manual ANALYZE does not. Missing indexes (an older schema) are skipped.
 */
async function flushPendingLists(db: Kysely<DB>): Promise<void> {
  await sql`select gin_clean_pending_list(c.oid) from pg_class c
    where c.relname in ('records_words_gin', 'records_text_trgm') and c.relnamespace = current_schema()::regnamespace`.execute(db);
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
  /** Rows this process changed since it last analyzed. */
  private written = 0;
  /** The same per tenant (`connector/entity`). */
  private tenants = new Map<string, TenantWrites>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly logger: Logger | undefined,
    private readonly everyMs = 2000,
  ) {}

  /** Counts rows a page write of this process inserted or changed, of `tenant` when given. */
  wrote(rows: number, tenant?: Tenant): void {
    this.written += rows;
    if (tenant === undefined) return;
    const key = `${tenant.connectorId}/${tenant.entity}`;
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
    const written = this.written;
    const tenantRows = new Map([...this.tenants].map(([k, t]) => [k, t.rows]));
    // After an analysis, or at a run's end, the pending lists are flushed too.
    this.running = analyzeRecordsIfStale(this.db, written, force, this.tenants.values())
      .then((ran) => {
        if (!ran) return;
        this.written -= written;
        this.forgetTenants(tenantRows);
        this.logger?.info({ ms: Date.now() - started }, 'records analyzed: the planner sees the synced rows');
      })
      .catch((e: unknown) => this.logger?.warn({ err: { message: (e as Error).message } }, 'analyzing records failed; autovacuum will'))
      .finally(() => {
        this.running = null;
        if (this.again) (this.again = false), this.poke(true);
      });
  }

  /** After an analysis: the rows written before it are known to the planner, and its estimates changed. */
  private forgetTenants(before: ReadonlyMap<string, number>): void {
    const left = new Map<string, TenantWrites>();
    for (const [k, t] of this.tenants) {
      const rows = t.rows - (before.get(k) ?? 0);
      if (rows > 0) left.set(k, { tenant: t.tenant, rows });
    }
    this.tenants = left;
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
