/**
 * The SQL of one walk of a `like` page (like-walk.ts): the tenant's first `budget` records after
 * the cursor in id order, read along the primary key, each tested by the trigram condition and
 * then the exact filter. It answers the matches (at most the page) and, when it read its whole
 * budget, the last record read (`n` = budget), where a next walk goes on, which carries the
 * tenant's record count.
 */
import { sql, type RawBuilder } from 'kysely';
import type { BackendSearch } from '../backend.js';
import { compileFilter, TRUE } from './compile-filter.js';
import { rowOf, scanAfter, textComplete, textPrefilter, type Relation, type SearchRow } from './compile-search.js';
import type { IndexPlan } from './index-plan.js';
import { recordCountSql } from '../../store/entity-state-repo.js';

/** A walk's row: a match (`ok`, with its document), or the last record of a whole budget (`n` = budget), or both. */
export type WalkRow = Omit<SearchRow, 'doc'> & { doc: SearchRow['doc'] | null; ok: boolean; n: string; records: string | null };

/**
 * `ok` is computed once per row under the budget's LIMIT, and the document is kept only for
 * matches below a fence: the row numbering above would otherwise carry every row's document.
 * The record count falls back to the table's estimate while the tenant's is unknown.
 */
export function compileWalkSearch(req: BackendSearch, plan: IndexPlan, budget: number, relation: Relation): RawBuilder<WalkRow> {
  const filter = req.query.filter;
  const exact = filter === null ? TRUE : compileFilter(filter, rowOf('t', req, plan));
  const text = sql.join(textPrefilter(plan.text), sql` and `);
  // Records written without search text (decision 15) are decided by the exact filter alone.
  const pass = plan.assumesText === true ? sql`(not ${textComplete(req)} or ${text})` : text;
  const records = sql`coalesce(${recordCountSql(req.connectorId, req.target.entity)}, (select greatest(c.reltuples, 0)::bigint from pg_class c where c.oid = ${relation}::regclass))`;
  return sql<WalkRow>`
    select w.record_id, w.doc, 1::float8 as score, w.ok, w.n, ${records} as records from (
      select c.record_id, c.ok, c.doc, row_number() over (order by c.record_id) as n from (
        select k.record_id, k.ok, case when k.ok then k.doc end as doc from (
          select t.record_id, t.data as doc, (case when ${pass} then ${exact} else false end) as ok
            from ${sql.table(relation)} t
           where t.connector_id = ${req.connectorId}::uuid and t.entity = ${req.target.entity}
             and t.deleted_at is null and ${scanAfter(req)}
           order by t.record_id
           limit ${budget}
        ) k
        order by k.record_id
        offset 0
      ) c
    ) w
    where w.ok or w.n = ${budget}
    order by w.record_id
    limit ${req.size + 1}`;
}
