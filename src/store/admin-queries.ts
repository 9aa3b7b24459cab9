/**
 * Read models of the admin API, the dashboard and /metrics: runs with filters and keyset pages,
 * a run's replay chain both ways, entity status of many connectors at once, run statistics.
 * Writes of the operator actions live in src/app/operations.ts.
 */
import { sql } from 'kysely';
import type { Db } from './db.js';
import type { EntityStateRow, RunStatus, SyncRunRow } from './schema.js';

/** Filters of the runs list; every field optional, all ANDed. */
export interface RunFilter {
  readonly connectorId?: string | undefined;
  readonly entity?: string | undefined;
  readonly statuses?: readonly RunStatus[] | undefined;
  /** Runs queued at or after this instant. */
  readonly since?: Date | undefined;
  /** Runs queued before this instant. */
  readonly until?: Date | undefined;
}

/** A run with what the list shows next to it: its connector and the entity's last record count. */
export interface RunListRow extends SyncRunRow {
  readonly connector_name: string;
  readonly connector_type: string;
  readonly organization_id: string;
  readonly entity_record_count: string | null;
}

/**
 * One page of runs, newest first (id desc). Keyset paging: `beforeId` is the last id of the
 * previous page, so concurrent inserts never shift or repeat rows the way OFFSET would.
 */
export async function listRuns(db: Db, filter: RunFilter, page: { beforeId?: string | undefined; limit: number }): Promise<RunListRow[]> {
  let q = db
    .selectFrom('sync_runs as r')
    .innerJoin('connectors as c', 'c.id', 'r.connector_id')
    .leftJoin('entity_state as s', (j) => j.onRef('s.connector_id', '=', 'r.connector_id').onRef('s.entity', '=', 'r.entity'))
    .selectAll('r')
    .select(['c.name as connector_name', 'c.connector_type', 'c.organization_id', 's.record_count as entity_record_count'])
    .orderBy('r.id', 'desc')
    .limit(page.limit);
  if (filter.connectorId !== undefined) q = q.where('r.connector_id', '=', filter.connectorId);
  if (filter.entity !== undefined) q = q.where('r.entity', '=', filter.entity);
  if (filter.statuses !== undefined && filter.statuses.length > 0) q = q.where('r.status', 'in', [...filter.statuses]);
  if (filter.since !== undefined) q = q.where('r.queued_at', '>=', filter.since);
  if (filter.until !== undefined) q = q.where('r.queued_at', '<', filter.until);
  if (page.beforeId !== undefined) q = q.where('r.id', '<', page.beforeId);
  return (await q.execute()) as RunListRow[];
}

/** One run with its connector columns, or null. */
export async function findRunRow(db: Db, id: string): Promise<RunListRow | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const rows = await db
    .selectFrom('sync_runs as r')
    .innerJoin('connectors as c', 'c.id', 'r.connector_id')
    .leftJoin('entity_state as s', (j) => j.onRef('s.connector_id', '=', 'r.connector_id').onRef('s.entity', '=', 'r.entity'))
    .selectAll('r')
    .select(['c.name as connector_name', 'c.connector_type', 'c.organization_id', 's.record_count as entity_record_count'])
    .where('r.id', '=', id)
    .execute();
  return (rows[0] as RunListRow | undefined) ?? null;
}

/** A run in a replay chain: enough to link to it. */
export interface ChainRun {
  readonly id: string;
  readonly replay_of: string | null;
  readonly status: RunStatus;
  readonly trigger: string;
  readonly queued_at: Date;
  readonly depth: number;
}

/**
 * The replay chain of a run: the runs it replays (original first) and every run that replays
 * it, directly or through other replays (oldest first). Depth is bounded so a corrupted cycle
 * cannot loop.
 */
export async function replayChain(db: Db, id: string): Promise<{ ancestors: ChainRun[]; replays: ChainRun[] }> {
  const up = await sql<ChainRun>`
    with recursive up as (
      select r.id, r.replay_of, r.status, r.trigger, r.queued_at, 1 as depth
        from sync_runs r where r.id = (select replay_of from sync_runs where id = ${id}::bigint)
      union all
      select r.id, r.replay_of, r.status, r.trigger, r.queued_at, up.depth + 1
        from sync_runs r join up on r.id = up.replay_of where up.depth < 100)
    select id::text as id, replay_of::text as replay_of, status, trigger, queued_at, depth from up order by depth desc`.execute(db);
  const down = await sql<ChainRun>`
    with recursive down as (
      select r.id, r.replay_of, r.status, r.trigger, r.queued_at, 1 as depth
        from sync_runs r where r.replay_of = ${id}::bigint
      union all
      select r.id, r.replay_of, r.status, r.trigger, r.queued_at, down.depth + 1
        from sync_runs r join down on r.replay_of = down.id where down.depth < 100)
    select id::text as id, replay_of::text as replay_of, status, trigger, queued_at, depth from down order by id`.execute(db);
  return { ancestors: up.rows, replays: down.rows };
}

/** Entity state rows of many connectors in one query, grouped by connector id. */
export async function entityStatesOf(db: Db, connectorIds: readonly string[]): Promise<Map<string, EntityStateRow[]>> {
  const out = new Map<string, EntityStateRow[]>();
  if (connectorIds.length === 0) return out;
  const rows = await db.selectFrom('entity_state').selectAll().where('connector_id', 'in', [...connectorIds]).orderBy('connector_id').orderBy('entity').execute();
  for (const r of rows) out.set(r.connector_id, [...(out.get(r.connector_id) ?? []), r]);
  return out;
}

/** Number of runs per status (for the runs gauge). */
export async function runStatusCounts(db: Db): Promise<Record<RunStatus, number>> {
  const rows = await db.selectFrom('sync_runs').select(['status', (eb) => eb.fn.countAll<string>().as('n')]).groupBy('status').execute();
  const out: Record<RunStatus, number> = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
  for (const r of rows) out[r.status] = Number(r.n);
  return out;
}

/**
 * The record counters of every run that may have changed since `since` (the active ones and
 * those finished after it), and the database's clock, which the next call's `since` comes from.
 */
export async function runCountersSince(db: Db, since: Date | null): Promise<{ now: Date; runs: { id: string; seen: number; inserted: number; updated: number; unchanged: number; deleted: number }[] }> {
  const { rows } = await sql<{ id: string; seen: string; inserted: string; updated: string; unchanged: string; deleted: string; now: Date }>`
    select r.id, r.seen, r.inserted, r.updated, r.unchanged, r.deleted, t.now
      from (select now() as now) t
      left join sync_runs r on r.status in ('queued', 'running') or r.finished_at >= ${since ?? new Date(0)}`.execute(db);
  // The left join yields one row even without runs: the clock always comes back.
  const now = rows[0]?.now ?? new Date();
  const runs = rows.filter((r) => r.id !== null).map((r) => ({ id: String(r.id), seen: Number(r.seen), inserted: Number(r.inserted), updated: Number(r.updated), unchanged: Number(r.unchanged), deleted: Number(r.deleted) }));
  return { now, runs };
}

/** Runs that finished after `after` (oldest first, capped): the duration histogram observes each once. */
export async function runsFinishedAfter(db: Db, after: Date, limit = 10_000): Promise<{ status: RunStatus; entity: string; seconds: number; finished_at: Date }[]> {
  const rows = await db
    .selectFrom('sync_runs')
    .select(['status', 'entity', 'finished_at', sql<string>`extract(epoch from finished_at - coalesce(started_at, queued_at))`.as('seconds')])
    .where('finished_at', '>', after)
    .orderBy('finished_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ status: r.status, entity: r.entity, seconds: Math.max(0, Number(r.seconds)), finished_at: r.finished_at as Date }));
}

/** Connector ids of a connector type that hold the entity (reindex ships each of them). */
export async function connectorIdsOfType(db: Db, connectorType: string): Promise<string[]> {
  const rows = await db.selectFrom('connectors').select('id').where('connector_type', '=', connectorType).orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** A batch of live records of one (connector, entity) after a record id, for recomputing text shadows. */
export async function recordBatch(db: Db, connectorId: string, entity: string, afterId: string | null, limit: number): Promise<{ record_id: string; data: Record<string, unknown> }[]> {
  let q = db
    .selectFrom('records')
    .select(['record_id', 'data'])
    .where('connector_id', '=', connectorId)
    .where('entity', '=', entity)
    .where('deleted_at', 'is', null)
    .orderBy('record_id')
    .limit(limit);
  if (afterId !== null) q = q.where('record_id', '>', afterId);
  return q.execute();
}

/**
 * Writes recomputed text shadows, lookup keys, search text and words (`words`: indexed, see
 * page-words.ts `indexWords`) in one statement; data and versions stay as they are.
 */
export async function writeShadows(db: Db, connectorId: string, entity: string, rows: readonly { id: string; shadow?: unknown; keys?: unknown; text?: string | null }[], words: readonly (number[] | null)[]): Promise<number> {
  if (rows.length === 0) return 0;
  const payload = JSON.stringify(rows.map((r, i) => ({ id: r.id, shadow: r.shadow ?? null, keys: r.keys ?? null, text: r.text ?? null, words: words[i] ?? null })));
  const res = await sql`
    update records r set shadow = p.shadow, keys = p.keys, text_lc = p.text, words = p.words
      from jsonb_to_recordset(${payload}::jsonb) as p(id text, shadow jsonb, keys jsonb, text text, words int4[])
     where r.connector_id = ${connectorId}::uuid and r.entity = ${entity} and r.record_id = p.id
       and (r.shadow is distinct from p.shadow or r.keys is distinct from p.keys or r.text_lc is distinct from p.text or r.words is distinct from p.words)`.execute(db);
  return Number(res.numAffectedRows ?? 0n);
}

/** An entity's sync times and its connector's schedule, for the freshness gauges. */
export interface EntityFreshnessRow {
  readonly connector_id: string;
  readonly connector_type: string;
  readonly entity: string;
  readonly last_synced_at: Date | null;
  readonly replication_config: Record<string, unknown>;
  readonly created_at: Date;
}

/** Every entity of every connector with what its freshness is computed from (one query per scrape). */
export async function entityFreshnessRows(db: Db): Promise<EntityFreshnessRow[]> {
  return db
    .selectFrom('entity_state as s')
    .innerJoin('connectors as c', 'c.id', 's.connector_id')
    .select(['s.connector_id', 'c.connector_type', 's.entity', 's.last_synced_at', 'c.replication_config', 'c.created_at'])
    .execute();
}
