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
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../store/db.js';
import type { SearchTarget } from '../dsl/ast.js';
import { fieldParts } from './compile-sort.js';

const TIME_FIELD = /^(created|updated|modified)(_at|At|_time|Time|_date|Date)?$/;
const MAX_SORT_FIELDS = 2;

/** Searchable scalar fields worth a sort index: creation/update times. */
export function sortIndexFields(target: SearchTarget): string[] {
  return Object.entries(target.searchable)
    .filter(([name, type]) => TIME_FIELD.test(name) && (type === 'int' || type === 'number' || type === 'string'))
    .map(([name]) => name)
    .slice(0, MAX_SORT_FIELDS);
}

function indexName(target: SearchTarget, field: string, dir: 'asc' | 'desc'): string {
  const h = createHash('sha1').update(`${target.connectorType}/${target.entity}/${field}/${dir}`).digest('hex').slice(0, 10);
  return `records_sort_${h}`;
}

/** DDL of the sort index of `field` in `dir` (exported for tests). */
export function sortIndexDdl(target: SearchTarget, field: string, dir: 'asc' | 'desc'): RawBuilder<unknown> {
  const p = fieldParts(sql.ref('data'), { field, sub: [], type: target.searchable[field] ?? 'dynamic' });
  const d = dir === 'asc' ? sql`asc` : sql`desc`;
  return sql`create index if not exists ${sql.id(indexName(target, field, dir))} on records
    (connector_id, ${p.missing} asc, ${p.rank} ${d}, ${p.num} ${d}, ${p.str} ${d}, ${p.bool} ${d}, record_id asc)
    where entity = ${sql.lit(target.entity)} and deleted_at is null`;
}

/** Creates the entity's sort indexes if missing; serialized so concurrent first syncs don't race. */
export async function ensureEntityIndexes(db: Db, target: SearchTarget): Promise<void> {
  const wanted = sortIndexFields(target).flatMap((field) => (['asc', 'desc'] as const).map((dir) => ({ name: indexName(target, field, dir), ddl: sortIndexDdl(target, field, dir) })));
  if (wanted.length === 0) return;
  // CREATE INDEX takes a share lock on records even when the index exists: look first.
  const { rows } = await sql<{ n: string }>`select indexname as n from pg_indexes where tablename = 'records' and indexname = any(${wanted.map((w) => w.name)})`.execute(db);
  const missing = wanted.filter((w) => !rows.some((r) => r.n === w.name));
  if (missing.length === 0) return;
  // `create index if not exists` is not safe against a concurrent create of the same name (it
  // fails on pg_class's unique index), so creators queue on a lock held to their commit.
  const create = async (tx: Db): Promise<void> => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`sort-indexes/${target.connectorType}/${target.entity}`}, 0))`.execute(tx);
    for (const w of missing) await w.ddl.execute(tx);
  };
  if (db.isTransaction) await create(db);
  else await db.transaction().execute(create);
}
