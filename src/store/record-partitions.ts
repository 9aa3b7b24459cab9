/**
 * The partitions of `records`, one per entity (migration 0014): a statement naming its entity is
 * pruned to its partition before the planner reads any index, so other entities' indexes cost it
 * nothing. Entities get theirs before their first run writes (sync-runner.ts) and before their
 * sort indexes are built (entity-indexes.ts); rows of an entity without one go to `records_default`.
 */
import { sql } from 'kysely';
import type { Db } from './db.js';

/** The partitioned table: always right to read, pruned by the entity a statement names. */
export const PARENT_TABLE = 'records';

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

/** The entity's own partition, or null when it has none (its records, if any, are in the default one); takes no lock. */
export async function findRecordPartition(db: Db, entity: string): Promise<string | null> {
  const { rows } = await sql<{ name: string | null }>`select syncdex_find_records_partition(${entity}) as name`.execute(db);
  return rows[0]?.name ?? null;
}

/** How long an entity found without a partition of its own is read through the parent before asking again. */
const UNPARTITIONED_TTL_MS = 10_000;

/**
 * The table that holds each entity's records, per database handle: its partition once it has one
 * (partitions are never detached or dropped while syncdex runs, so that answer is kept), else the
 * parent `records`, which is always right, asked again after {@link UNPARTITIONED_TTL_MS}.
 */
export class RecordRelations {
  readonly #known = new WeakMap<object, Map<string, { readonly name: string; readonly until: number }>>();

  async of(db: Db, entity: string, now = Date.now()): Promise<string> {
    let byEntity = this.#known.get(db);
    if (byEntity === undefined) this.#known.set(db, (byEntity = new Map()));
    const hit = byEntity.get(entity);
    if (hit !== undefined && hit.until > now) return hit.name;
    const name = await findRecordPartition(db, entity);
    byEntity.set(entity, name === null ? { name: PARENT_TABLE, until: now + UNPARTITIONED_TTL_MS } : { name, until: Infinity });
    return name ?? PARENT_TABLE;
  }

  /** Forgets what is known of a handle's tables (a statement found one missing). */
  forget(db: Db): void {
    this.#known.delete(db);
  }
}
