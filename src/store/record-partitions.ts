/**
 * The partitions of `records`, one per entity (migration 0014): a statement naming its entity is
 * pruned to its partition before the planner reads any index, so other entities' indexes cost it
 * nothing. Entities get theirs before their first run writes (sync-runner.ts) and before their
 * sort indexes are built (entity-indexes.ts); rows of an entity without one go to `records_default`.
 */
import { sql } from 'kysely';
import type { Db } from './db.js';

/** The partition that holds records of no partition of their own. */
export const DEFAULT_PARTITION = 'records_default';

/**
 * The partition of an entity's records, created (empty, then attached) when missing; an entity
 * whose rows the default partition already holds stays there ({@link DEFAULT_PARTITION}).
 */
export async function ensureRecordPartition(db: Db, entity: string): Promise<string> {
  const { rows } = await sql<{ name: string }>`select syncdex_records_partition(${entity}) as name`.execute(db);
  return rows[0]?.name ?? DEFAULT_PARTITION;
}
