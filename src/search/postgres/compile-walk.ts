/**
 * The SQL of one walk of a `like` page (like-walk.ts): the tenant's first `budget` records after
 * the cursor in the page's order (along the primary key, or a time field's sort index), each
 * tested by the trigram condition and then the exact filter. It answers the matches (at most the
 * page) and, when it read its whole budget, the last record read (`n` = budget), where a next
 * walk goes on: it carries the tenant's record count, and the values of the sort's field keys.
 */
import { sql, type RawBuilder } from 'kysely';
import type { BackendSearch } from '../backend.js';
import type { SortKey } from '../dsl/ast.js';
import { compileFilter, TRUE, valueAt } from './compile-filter.js';
import { rowOf, scanAfter, SCANNED, textComplete, textPrefilter, type Relation, type SearchRow } from './compile-search.js';
import { orderItems, orderList, type OrderItem } from './compile-sort.js';
import type { IndexPlan } from './index-plan.js';
import { recordCountSql } from '../../store/entity-state-repo.js';

/**
 * A walk's row: a match (`ok`, with its document), or the last record of a whole budget (`n` =
 * budget), or both; `v0`, `v1`, …: the values of the sort's field keys as JSON text (null where
 * absent), which the last record's carry on to the next walk.
 */
export type WalkRow = Omit<SearchRow, 'doc'> & { doc: SearchRow['doc'] | null; ok: boolean; n: string; records: string | null } & Record<`v${number}`, unknown>;

/** The page's order, each item named: the id stays `record_id`, the others are columns `o0`, `o1`, … of the scan. */
function walkOrder(sort: readonly SortKey[]): (OrderItem & { readonly name: string })[] {
  return orderItems(sort, SCANNED).map((item, i) => ({ ...item, name: item.expr === SCANNED.id ? 'record_id' : `o${i}` }));
}

/** The same order on the named columns of `alias`. */
const orderOn = (order: readonly (OrderItem & { readonly name: string })[], alias: string) => orderList(order.map((o) => ({ expr: sql.ref(`${alias}.${o.name}`), dir: o.dir })));

/** The values of the sort's field keys, as columns `v<key index>`: where a next walk goes on. */
function sortValueColumns(sort: readonly SortKey[]): { readonly name: string; readonly expr: RawBuilder<unknown> }[] {
  return sort.flatMap((key, i) => (key.kind === 'field' ? [{ name: `v${i}`, expr: sql`(${valueAt(SCANNED.doc, key.path)})::text` }] : []));
}

/**
 * `ok` is computed once per row under the budget's LIMIT, and the document is kept only for
 * matches below a fence: the row numbering above would otherwise carry every row's document.
 * The scan orders by the sort's own expressions, so that Postgres walks the index that has them;
 * every level above keeps that order on the same columns, so the statement stops once the page
 * is full (ordered by the row number instead, it sorted the whole budget first).
 * The record count falls back to the table's estimate while the tenant's is unknown.
 */
export function compileWalkSearch(req: BackendSearch, plan: IndexPlan, budget: number, relation: Relation): RawBuilder<WalkRow> {
  const filter = req.query.filter;
  const exact = filter === null ? TRUE : compileFilter(filter, rowOf('t', req, plan));
  const text = sql.join(textPrefilter(plan.text), sql` and `);
  // Records written without search text (decision 15) are decided by the exact filter alone.
  const pass = plan.assumesText === true ? sql`(not ${textComplete(req)} or ${text})` : text;
  const records = sql`coalesce(${recordCountSql(req.connectorId, req.target.entity)}, (select greatest(c.reltuples, 0)::bigint from pg_class c where c.oid = ${relation}::regclass))`;
  const order = walkOrder(req.query.sort);
  const valueColumns = sortValueColumns(req.query.sort);
  const extra = [...order.filter((o) => o.name !== 'record_id'), ...valueColumns];
  const scanned = sql.join(extra.map((c) => sql`, ${c.expr} as ${sql.id(c.name)}`), sql``);
  const carried = sql.join(extra.map((c) => sql`, ${sql.ref(`k.${c.name}`)}`), sql``);
  const values = sql.join(valueColumns.map((c) => sql`, ${sql.ref(`w.${c.name}`)}`), sql``);
  return sql<WalkRow>`
    select w.record_id, w.doc, 1::float8 as score, w.ok, w.n${values}, ${records} as records from (
      select c.*, row_number() over (order by ${orderOn(order, 'c')}) as n from (
        select k.record_id, k.ok, case when k.ok then k.doc end as doc${carried} from (
          select t.record_id, t.data as doc, (case when ${pass} then ${exact} else false end) as ok${scanned}
            from ${sql.table(relation)} t
           where t.connector_id = ${req.connectorId}::uuid and t.entity = ${req.target.entity}
             and t.deleted_at is null and ${scanAfter(req)}
           order by ${orderList(order)}
           limit ${budget}
        ) k
        order by ${orderOn(order, 'k')}
        offset 0
      ) c
    ) w
    where w.ok or w.n = ${budget}
    order by ${orderOn(order, 'w')}
    limit ${req.size + 1}`;
}
