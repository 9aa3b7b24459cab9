/**
 * Per-entity indexes of the Postgres search backend on the records table. Kept few on purpose,
 * because every index is paid for on every page write:
 * - one GIN over every record's `keys` (lookup-index.ts) answers eq, in and contains on lookup
 *   fields; other fields are filtered on the rows the rest of the query selects;
 * - here, for the entity's time fields (the usual sort and range keys), one btree per direction
 *   over exactly the five sort components the compiler orders by, so `sort` + `limit` walks an
 *   index instead of sorting every match.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../store/db.js';
import type { SearchTarget } from '../dsl/ast.js';
import { DEFAULT_PARTITION, ensureRecordPartition } from '../../store/record-partitions.js';
import { fieldParts } from './compile-sort.js';
import { sortIndexFields } from './sort-index-fields.js';

/** Per partition too: an entity that later leaves the default partition gets its indexes built anew. */
function indexName(target: SearchTarget, field: string, dir: 'asc' | 'desc', partition: string): string {
  const h = createHash('sha1').update(`${partition}/${target.connectorType}/${target.entity}/${field}/${dir}`).digest('hex').slice(0, 10);
  return `records_sort_${h}`;
}

/**
 * DDL of the sort index of `field` in `dir` on the entity's partition (exported for tests): the
 * partition holds the entity alone, so only the default partition's indexes name the entity.
 */
export function sortIndexDdl(target: SearchTarget, field: string, dir: 'asc' | 'desc', partition: string, concurrently = false): RawBuilder<unknown> {
  const p = fieldParts(sql.ref('data'), { field, sub: [], type: target.searchable[field] ?? 'dynamic' });
  const d = dir === 'asc' ? sql`asc` : sql`desc`;
  const entity = partition === DEFAULT_PARTITION ? sql`entity = ${sql.lit(target.entity)} and ` : sql``;
  return sql`create index ${concurrently ? sql`concurrently` : sql``} if not exists ${sql.id(indexName(target, field, dir, partition))} on ${sql.id(partition)}
    (connector_id, ${p.missing} asc, ${p.rank} ${d}, ${p.num} ${d}, ${p.str} ${d}, ${p.bool} ${d}, record_id asc)
    where ${entity}deleted_at is null`;
}

interface WantedIndex {
  readonly name: string;
  readonly field: string;
  readonly dir: 'asc' | 'desc';
}

/** The wanted indexes that do not exist, or exist but are invalid (a concurrent build that died). */
async function missingIndexes(db: Db, wanted: readonly WantedIndex[]): Promise<WantedIndex[]> {
  const { rows } = await sql<{ n: string; valid: boolean }>`
    select c.relname as n, i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
     where c.relname = any(${wanted.map((w) => w.name)})`.execute(db);
  return wanted.filter((w) => rows.find((r) => r.n === w.name)?.valid !== true);
}

/**
 * Creates the entity's sort indexes if missing. On the shared records table a plain CREATE INDEX
 * would block every tenant's page writes for the whole build, so it is built CONCURRENTLY, which
 * cannot run in a transaction: builders, of any entity, take a session advisory lock instead.
 * Waiters poll with pg_try_advisory_lock, because a statement blocked on the lock would hold a
 * snapshot the concurrent build waits for. Inside a caller's transaction, a plain build under a transaction
 * lock is the only option.
 */
export async function ensureEntityIndexes(db: Db, target: SearchTarget): Promise<void> {
  const partition = await ensureRecordPartition(db, target.entity);
  const wanted = sortIndexFields(target).flatMap((field) => (['asc', 'desc'] as const).map((dir) => ({ name: indexName(target, field, dir, partition), field, dir })));
  if (wanted.length === 0 || (await missingIndexes(db, wanted)).length === 0) return;
  // One key for the table, not per entity: two concurrent builds on `records` deadlock (the one
  // blocked on the table holds a snapshot the other's build waits out), so every build takes turns.
  const key = 'sort-indexes/records';
  if (db.isTransaction) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(db);
    for (const w of await missingIndexes(db, wanted)) await sortIndexDdl(target, w.field, w.dir, partition).execute(db);
    return;
  }
  await db.connection().execute(async (conn) => {
    for (;;) {
      const { rows } = await sql<{ ok: boolean }>`select pg_try_advisory_lock(hashtextextended(${key}, 0)) as ok`.execute(conn);
      if (rows[0]?.ok === true) break;
      if ((await missingIndexes(conn, wanted)).length === 0) return;
      await sleep(200);
    }
    try {
      // Under the lock, an invalid index is a dead builder's leftover: rebuild it.
      for (const w of await missingIndexes(conn, wanted)) {
        await sql`drop index concurrently if exists ${sql.id(w.name)}`.execute(conn);
        await sortIndexDdl(target, w.field, w.dir, partition, true).execute(conn);
      }
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended(${key}, 0))`.execute(conn);
    }
  });
}
