/**
 * Sort keys → ORDER BY, and a cursor's sort values → the keyset condition "strictly after".
 * Same total order as the reference evaluator (order.ts): missing (null, absent, array, object)
 * last in both directions; present values numbers < strings < booleans; strings by code point
 * (COLLATE "C"); the id key, always last, breaks ties.
 */
import { sql, type RawBuilder } from 'kysely';
import type { FieldPath, SortKey } from '../dsl/ast.js';
import { valueAt } from './compile-filter.js';

type Sql = RawBuilder<unknown>;

/** Columns of the ranked row the sort reads. */
export interface RankedRow {
  readonly doc: Sql;
  readonly score: Sql;
  readonly id: Sql;
}

export interface FieldParts {
  readonly missing: Sql;
  readonly rank: Sql;
  readonly num: Sql;
  readonly str: Sql;
  readonly bool: Sql;
}

/** The five sort components of a field value (also the columns of the sort indexes). */
export function fieldParts(doc: Sql, path: FieldPath): FieldParts {
  const v = valueAt(doc, path);
  return {
    missing: sql`(coalesce(jsonb_typeof(${v}), 'null') not in ('number', 'string', 'boolean'))`,
    rank: sql`(case jsonb_typeof(${v}) when 'number' then 0 when 'string' then 1 when 'boolean' then 2 end)`,
    num: sql`(case when jsonb_typeof(${v}) = 'number' then (${v})::numeric end)`,
    str: sql`(case when jsonb_typeof(${v}) = 'string' then (${v} #>> '{}') end) collate "C"`,
    bool: sql`(case when jsonb_typeof(${v}) = 'boolean' then (${v})::boolean end)`,
  };
}

const dirSql = (dir: 'asc' | 'desc'): Sql => (dir === 'asc' ? sql`asc` : sql`desc`);

/** One ORDER BY item: an expression and its direction. */
export interface OrderItem {
  readonly expr: Sql;
  readonly dir: 'asc' | 'desc';
}

/** The ORDER BY items of a sort, in order: the id, the score, or a field's five sort components. */
export function orderItems(sort: readonly SortKey[], row: RankedRow): OrderItem[] {
  const items: OrderItem[] = [];
  for (const key of sort) {
    if (key.kind === 'id') items.push({ expr: row.id, dir: 'asc' });
    else if (key.kind === 'score') items.push({ expr: row.score, dir: 'desc' });
    else {
      const p = fieldParts(row.doc, key.path);
      items.push({ expr: p.missing, dir: 'asc' }, ...[p.rank, p.num, p.str, p.bool].map((expr) => ({ expr, dir: key.dir })));
    }
  }
  return items;
}

/** An ORDER BY list of items. */
export const orderList = (items: readonly OrderItem[]): Sql => sql.join(items.map((i) => sql`${i.expr} ${dirSql(i.dir)}`));

/** ORDER BY items. */
export const orderBy = (sort: readonly SortKey[], row: RankedRow): Sql => orderList(orderItems(sort, row));

const RANK: Record<string, number> = { number: 0, string: 1, boolean: 2 };

function typedConst(v: string | number | boolean): { part: keyof FieldParts; value: Sql } {
  if (typeof v === 'number') return { part: 'num', value: sql`${String(v)}::numeric` };
  if (typeof v === 'string') return { part: 'str', value: sql`${v}::text collate "C"` };
  return { part: 'bool', value: sql`${v}::boolean` };
}

/** [row is after v, row equals v] for one field key. */
function fieldAfter(key: Extract<SortKey, { kind: 'field' }>, row: RankedRow, v: unknown): [Sql, Sql] {
  const p = fieldParts(row.doc, key.path);
  if (v === null || v === undefined || typeof v === 'object') return [sql`false`, p.missing];
  const scalar = v as string | number | boolean;
  const rank = RANK[typeof scalar] as number;
  const { part, value } = typedConst(scalar);
  const beyond = key.dir === 'asc' ? sql`>` : sql`<`;
  const after = sql`(${p.missing} or ${p.rank} ${beyond} ${rank} or (${p.rank} = ${rank} and ${p[part]} ${beyond} ${value}))`;
  const equal = sql`(not ${p.missing} and ${p.rank} = ${rank} and ${p[part]} = ${value})`;
  return [after, equal];
}

function keyAfter(key: SortKey, row: RankedRow, v: unknown): [Sql, Sql] {
  if (key.kind === 'id') return [sql`${row.id} > ${String(v)}::text collate "C"`, sql`${row.id} = ${String(v)}::text`];
  if (key.kind === 'score') return [sql`${row.score} < ${Number(v)}::float8`, sql`${row.score} = ${Number(v)}::float8`];
  return fieldAfter(key, row, v);
}

/** Condition: the row sorts strictly after the cursor's values (lexicographic over keys). */
export function keysetAfter(sort: readonly SortKey[], row: RankedRow, after: readonly unknown[]): Sql {
  // The last key (the id) is unique: "after" there is a plain `>`, which an index range can serve.
  let cond: Sql = keyAfter(sort[sort.length - 1] as SortKey, row, after[sort.length - 1])[0];
  for (let i = sort.length - 2; i >= 0; i--) {
    const [gt, eq] = keyAfter(sort[i] as SortKey, row, after[i]);
    cond = sql`(${gt} or (${eq} and ${cond}))`;
  }
  return cond;
}
