/**
 * Physical index tables of the Postgres search backend: one table per (connector type, entity)
 * version in schema `search_idx`, named by an alias row so a reindex can build and swap.
 */
import { sql } from 'kysely';
import { AppError } from '../../errors.js';
import type { Db } from '../../store/db.js';
import type { IndexChange } from '../backend.js';
import type { SearchTarget } from '../dsl/ast.js';
import { textShadow } from '../doc.js';

const IDENT = /^[a-z][a-z0-9_]{0,62}$/;

/** Index names come from catalog keys; anything else never reaches SQL. */
export function checkIndexName(name: string): string {
  if (!IDENT.test(name)) throw new AppError('internal', `invalid index name "${name}"`);
  return name;
}

export function indexNameFor(target: SearchTarget, generation: number): string {
  return checkIndexName(`${target.connectorType}__${target.entity}__${generation}`.slice(0, 63));
}

/** The live index table of a target, or null. */
export async function aliasTarget(db: Db, target: SearchTarget): Promise<string | null> {
  const row = await db
    .selectFrom('search_aliases')
    .select('index_name')
    .where('connector_type', '=', target.connectorType)
    .where('entity', '=', target.entity)
    .executeTakeFirst();
  return row?.index_name ?? null;
}

/** Creates an index table (idempotent). `record_id` uses the C collation: ids sort by code point. */
export async function createIndexTable(db: Db, name: string, target: SearchTarget): Promise<void> {
  const table = sql.table(`search_idx.${checkIndexName(name)}`);
  await sql`create table if not exists ${table} (
      connector_id uuid not null,
      record_id text collate "C" not null,
      version bigint not null,
      doc jsonb not null,
      shadow jsonb not null,
      primary key (connector_id, record_id)
    )`.execute(db);
  await db
    .insertInto('search_indexes')
    .values({ name, connector_type: target.connectorType, entity: target.entity })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/** Ensures the target has a live index; concurrent callers serialize on an advisory lock. */
export async function ensureIndexTable(db: Db, target: SearchTarget): Promise<string> {
  const existing = await aliasTarget(db, target);
  if (existing !== null) return existing;
  await sql`select pg_advisory_xact_lock(hashtextextended(${`search-alias/${target.connectorType}/${target.entity}`}, 0))`.execute(db);
  const again = await aliasTarget(db, target);
  if (again !== null) return again;
  const name = indexNameFor(target, 1);
  await createIndexTable(db, name, target);
  await db.insertInto('search_aliases').values({ connector_type: target.connectorType, entity: target.entity, index_name: name }).execute();
  return name;
}

/** Upserts and deletes a batch; a row only moves forward in version (external versioning). */
export async function applyToIndexTable(db: Db, name: string, connectorId: string, changes: readonly IndexChange[]): Promise<void> {
  const table = sql.table(`search_idx.${checkIndexName(name)}`);
  const upserts = changes.filter((c) => c.doc !== null).map((c) => ({ id: c.recordId, v: c.version, doc: c.doc, shadow: textShadow(c.doc) }));
  const deletes = changes.filter((c) => c.doc === null);
  if (upserts.length > 0) {
    await sql`
      insert into ${table} as t (connector_id, record_id, version, doc, shadow)
      select ${connectorId}::uuid, u.id, u.v, u.doc, u.shadow
        from jsonb_to_recordset(${JSON.stringify(upserts)}::jsonb) as u(id text, v bigint, doc jsonb, shadow jsonb)
      on conflict (connector_id, record_id) do update
         set version = excluded.version, doc = excluded.doc, shadow = excluded.shadow
       where t.version < excluded.version`.execute(db);
  }
  if (deletes.length > 0) {
    await sql`
      delete from ${table} t
       using jsonb_to_recordset(${JSON.stringify(deletes.map((d) => ({ id: d.recordId, v: d.version })))}::jsonb) as d(id text, v bigint)
       where t.connector_id = ${connectorId}::uuid and t.record_id = d.id and t.version < d.v`.execute(db);
  }
}
