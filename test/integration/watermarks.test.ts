/**
 * Watermarks of the OpenSearch shipper, on a real Postgres: a new index under a reused name
 * (a replaced cluster creates generation 1 again) must start from version 0, not inherit.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DB } from '../../src/store/db.js';
import { clearWatermarks, getWatermark, setWatermark } from '../../src/store/watermarks-repo.js';
import { insertConnectorRow } from '../conformance/postgres-page.js';
import { migratedDatabase } from './helpers/fresh-db.js';

describe('search watermarks', () => {
  let db: Kysely<DB>;
  let a: string;
  let b: string;

  beforeAll(async () => {
    db = createDb(await migratedDatabase(), 2).db;
    a = await insertConnectorRow(db, 'payments');
    b = await insertConnectorRow(db, 'payments');
    for (const name of ['payments__customers__1', 'payments__customers__2']) {
      await db.insertInto('search_indexes').values({ name, connector_type: 'payments', entity: 'customers' }).execute();
    }
  });
  afterAll(async () => db?.destroy());

  it('clearing an index name forgets every connector’s watermark in it, and only in it', async () => {
    await setWatermark(db, 'payments__customers__1', a, 'customers', '120');
    await setWatermark(db, 'payments__customers__1', b, 'customers', '340');
    await setWatermark(db, 'payments__customers__2', a, 'customers', '560');
    expect(await clearWatermarks(db, 'payments__customers__1')).toBe(2);
    expect(await getWatermark(db, 'payments__customers__1', a, 'customers')).toBe('0');
    expect(await getWatermark(db, 'payments__customers__1', b, 'customers')).toBe('0');
    expect(await getWatermark(db, 'payments__customers__2', a, 'customers')).toBe('560');
  });
});
