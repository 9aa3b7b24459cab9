import { sql } from 'kysely';
import type { Db } from './db.js';
import { executeStatement } from './prepared-statements.js';
import type { EntityStateRow, EntityStatus } from './schema.js';

/** Creates the state row of each entity (initializing) if missing. */
export async function ensureEntityStates(db: Db, connectorId: string, entities: readonly string[]): Promise<void> {
  if (entities.length === 0) return;
  await db
    .insertInto('entity_state')
    .values(entities.map((entity) => ({ connector_id: connectorId, entity })))
    .onConflict((oc) => oc.columns(['connector_id', 'entity']).doNothing())
    .execute();
}

/**
 * The status of an entity no run is working on (after a cancel or a resume): an error stays until
 * a run succeeds (that clears `last_error`), and an entity never synced is `initializing`.
 */
export const IDLE_STATUS = sql<EntityStatus>`case when last_error is not null then 'error' when last_synced_at is null then 'initializing' else 'ready' end`;

/** A run started: an entity synced before becomes `updating`; one never synced is `initializing`. */
export async function markRunStarted(db: Db, connectorId: string, entity: string, runId: string): Promise<void> {
  await db
    .updateTable('entity_state')
    .set({
      status: sql<EntityStatus>`case when status = 'paused' then status when last_synced_at is null then 'initializing' else 'updating' end`,
      last_run_id: runId,
      updated_at: sql<Date>`now()`,
    })
    .where('connector_id', '=', connectorId)
    .where('entity', '=', entity)
    .execute();
}

/**
 * The cursor to save: never behind a numeric one already saved. A replay that resumed a days-old
 * checkpoint ends with that old cursor, while later runs may have moved it on; going back would
 * only make the next incremental run re-read those days.
 */
function laterCursor(cursor: unknown) {
  if (typeof cursor !== 'number') return JSON.stringify(cursor);
  return sql<string>`case when jsonb_typeof(sync_cursor) = 'number' and (sync_cursor)::numeric > ${cursor} then sync_cursor else ${JSON.stringify(cursor)}::jsonb end`;
}

/** Records were written without `text_lc`: searches of the entity must not rely on the trigram index. */
export async function markTextIncomplete(db: Db, connectorId: string, entity: string): Promise<void> {
  await db.updateTable('entity_state').set({ text_complete: false }).where('connector_id', '=', connectorId).where('entity', '=', entity).where('text_complete', '=', true).execute();
}

/** Whether every live record of the entity has `text_lc`; an entity without a state row (records loaded directly) counts as complete. */
export async function textComplete(db: Db, connectorId: string, entity: string): Promise<boolean> {
  return (await searchState(db, connectorId, entity)).textComplete;
}

/**
 * {@link searchState}'s two answers as SQL values, for a statement that reads them beside its own
 * work (one round trip less); an entity without a state row counts as complete, of unknown size.
 */
export const textCompleteSql = (connectorId: string, entity: string) =>
  sql<boolean>`coalesce((select e.text_complete from entity_state e where e.connector_id = ${connectorId}::uuid and e.entity = ${entity}), true)`;
export const recordCountSql = (connectorId: string, entity: string) =>
  sql<string | null>`(select e.record_count from entity_state e where e.connector_id = ${connectorId}::uuid and e.entity = ${entity})`;

/** What a search plan needs of an entity's state: whether its search text is complete, and its live records (null: unknown). */
export async function searchState(db: Db, connectorId: string, entity: string): Promise<{ textComplete: boolean; records: number | null }> {
  const row = await db.selectFrom('entity_state').select(['text_complete', 'record_count']).where('connector_id', '=', connectorId).where('entity', '=', entity).executeTakeFirst();
  return { textComplete: row?.text_complete ?? true, records: row === undefined ? null : Number(row.record_count) };
}

/** After a reindex recomputed every record's text (under the entity lock). */
export async function markTextComplete(db: Db, connectorId: string, entity: string): Promise<void> {
  await db.updateTable('entity_state').set({ text_complete: true }).where('connector_id', '=', connectorId).where('entity', '=', entity).execute();
}

/**
 * A run ended: refresh status, last sync time and, on success, the incremental cursor and the
 * record count (`recordCount` when the caller counted, e.g. a full run; else minus `tombstoned`).
 */
export async function markRunEnded(
  db: Db,
  connectorId: string,
  entity: string,
  outcome: { ok: boolean; recordCount?: number; tombstoned?: number; error?: string; cursor?: unknown },
): Promise<void> {
  await db
    .updateTable('entity_state')
    .set({
      // A pause made while the run ended stays: only resume lifts it.
      status: sql<EntityStatus>`case when status = 'paused' then 'paused' else ${outcome.ok ? 'ready' : 'error'} end`,
      record_count: outcome.recordCount ?? sql<number>`greatest(record_count - ${outcome.tombstoned ?? 0}, 0)`,
      last_error: outcome.ok ? null : (outcome.error ?? 'failed'),
      ...(outcome.ok ? { last_synced_at: sql<Date>`now()` } : {}),
      ...(outcome.ok && outcome.cursor !== undefined ? { sync_cursor: laterCursor(outcome.cursor) } : {}),
      updated_at: sql<Date>`now()`,
    })
    .where('connector_id', '=', connectorId)
    .where('entity', '=', entity)
    .execute();
}

export async function listEntityStates(db: Db, connectorId: string): Promise<EntityStateRow[]> {
  return db.selectFrom('entity_state').selectAll().where('connector_id', '=', connectorId).orderBy('entity').execute();
}

export async function getEntityState(db: Db, connectorId: string, entity: string): Promise<EntityStateRow | null> {
  return (await db.selectFrom('entity_state').selectAll().where('connector_id', '=', connectorId).where('entity', '=', entity).executeTakeFirst()) ?? null;
}

/** Records when the connector's schedule ticks next, on each of its entities (null: not scheduled). */
export async function setNextRun(db: Db, connectorId: string, at: Date | null): Promise<void> {
  await db.updateTable('entity_state').set({ next_run_at: at }).where('connector_id', '=', connectorId).execute();
}
