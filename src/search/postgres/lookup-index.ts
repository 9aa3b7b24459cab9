/**
 * The exact-match index of the Postgres search backend: per entity, a GIN (jsonb_path_ops) over
 * an object of just its lookup fields (target.ts). Containment on that object equals
 * containment on the document for those fields, so `eq`/`in`/`contains` on them use the index;
 * other fields are checked on the rows the rest of the query selects. A GIN over whole
 * documents answered every field but cost more than the rest of a page write together.
 */
import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { SearchTarget } from '../dsl/ast.js';

type Sql = RawBuilder<unknown>;

/**
 * `sx_pick(data, '{email,name}')`: the indexed expression (migration 0002). Queries must spell
 * it the same way for the planner to match the index, so both come from here.
 */
export function lookupExpr(data: Sql, fields: readonly string[]): Sql {
  return sql`sx_pick(${data}, ${sql.lit(`{${fields.map((f) => JSON.stringify(f)).join(',')}}`)}::text[])`;
}

/** The lookup fields of a target (none for targets built without the catalog). */
export function lookupOf(target: SearchTarget): readonly string[] {
  return target.lookup ?? [];
}

/** Name of the entity's lookup index (stable per connector kind, entity and field list). */
export function lookupIndexName(target: SearchTarget): string {
  const h = createHash('sha1').update(`${target.connectorType}/${target.entity}/${lookupOf(target).join(',')}`).digest('hex').slice(0, 10);
  return `records_lookup_${h}`;
}

/** DDL of the entity's lookup index; null when it has no lookup fields. */
export function lookupIndexDdl(target: SearchTarget): Sql | null {
  const fields = lookupOf(target);
  if (fields.length === 0) return null;
  return sql`create index if not exists ${sql.id(lookupIndexName(target))} on records
    using gin (${lookupExpr(sql.ref('data'), fields)} jsonb_path_ops)
    where entity = ${sql.lit(target.entity)} and deleted_at is null`;
}
