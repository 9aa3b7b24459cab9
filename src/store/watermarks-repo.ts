import { sql } from 'kysely';
import type { Db } from './db.js';

/** The highest record version an index holds for one (connector, entity); '0' when none. */
export async function getWatermark(db: Db, indexName: string, connectorId: string, entity: string): Promise<string> {
  const row = await db
    .selectFrom('search_watermarks')
    .select('watermark')
    .where('index_name', '=', indexName)
    .where('connector_id', '=', connectorId)
    .where('entity', '=', entity)
    .executeTakeFirst();
  return row?.watermark ?? '0';
}

/**
 * Moves a watermark. With `identity` (the engine index the shipped batch went to), only while the
 * name still stands for it: a batch shipped into an index that a replaced cluster's new one
 * superseded meanwhile must not mark the new, empty one as holding those versions. The row lock
 * (FOR SHARE) waits for a concurrent claim to commit or roll back before deciding.
 */
export async function setWatermark(db: Db, indexName: string, connectorId: string, entity: string, version: string, identity: string | null = null): Promise<void> {
  await sql`
    insert into search_watermarks (index_name, connector_id, entity, watermark)
    select ${indexName}, ${connectorId}::uuid, ${entity}, ${version}::bigint
     where ${identity}::text is null
        or exists (select 1 from search_indexes where name = ${indexName} and engine_uuid = ${identity} for share)
    on conflict (index_name, connector_id, entity) do update set watermark = excluded.watermark`.execute(db);
}

/**
 * Makes the watermarks of an index name belong to the engine index `identity` (its uuid): when
 * the name stood for another index before (a replaced cluster, an index re-created by hand),
 * its watermarks are deleted, since the new index holds nothing and unchanged records are never
 * shipped again. A name recorded before identities were (NULL) adopts it without a reset.
 * Returns whether watermarks were reset. The adoption and the reset commit together (one
 * transaction, the caller's or its own), and concurrent shippers of one name serialize on its
 * row only when the identity changes.
 */
export async function claimIndexIdentity(db: Db, indexName: string, identity: string): Promise<boolean> {
  const known = await db.selectFrom('search_indexes').select('engine_uuid').where('name', '=', indexName).executeTakeFirst();
  if (known === undefined || known.engine_uuid === identity) return false;
  if (!db.isTransaction) return db.transaction().execute((tx) => claimIndexIdentity(tx, indexName, identity));
  // Re-read under the row lock: another shipper may have claimed it meanwhile.
  const { rows } = await sql<{ previous: string | null }>`
    with prev as (select engine_uuid from search_indexes where name = ${indexName} for update)
    update search_indexes s set engine_uuid = ${identity}
      from prev where s.name = ${indexName} and prev.engine_uuid is distinct from ${identity}
    returning prev.engine_uuid as previous`.execute(db);
  const previous = rows[0]?.previous;
  if (previous === undefined || previous === null) return false;
  await db.deleteFrom('search_watermarks').where('index_name', '=', indexName).execute();
  return true;
}

/**
 * Registers a versioned search index. `search_watermarks` references `search_indexes`, so an
 * index must be known here before a watermark for it can be saved.
 */
export async function registerSearchIndex(db: Db, name: string, connectorType: string, entity: string): Promise<void> {
  await db.insertInto('search_indexes').values({ name, connector_type: connectorType, entity }).onConflict((oc) => oc.column('name').doNothing()).execute();
}
