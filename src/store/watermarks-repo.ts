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
