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

export async function setWatermark(db: Db, indexName: string, connectorId: string, entity: string, version: string): Promise<void> {
  await db
    .insertInto('search_watermarks')
    .values({ index_name: indexName, connector_id: connectorId, entity, watermark: version })
    .onConflict((oc) => oc.columns(['index_name', 'connector_id', 'entity']).doUpdateSet({ watermark: version }))
    .execute();
}

/**
 * Forgets every watermark of an index name. Names are reused (generation 1 again on a new or
 * restored cluster, or after an index was deleted by hand): a new index under an old name holds
 * nothing, and shipping from the old watermarks would leave it empty for good, because unchanged
 * records never get a new version.
 */
export async function clearWatermarks(db: Db, indexName: string): Promise<number> {
  const res = await db.deleteFrom('search_watermarks').where('index_name', '=', indexName).executeTakeFirst();
  return Number(res.numDeletedRows);
}
