/**
 * Watermarks of the OpenSearch shipper, on a real Postgres: a new engine index under a reused
 * name (a replaced cluster creates generation 1 again) must start from version 0, not inherit.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DB } from '../../src/store/db.js';
import { claimIndexIdentity, getWatermark, setWatermark } from '../../src/store/watermarks-repo.js';
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

  it('a name first seen with an identity adopts it and keeps its watermarks (stores from before migration 0007)', async () => {
    await setWatermark(db, 'payments__customers__1', a, 'customers', '120');
    expect(await claimIndexIdentity(db, 'payments__customers__1', 'uuid-1')).toBe(false);
    expect(await getWatermark(db, 'payments__customers__1', a, 'customers')).toBe('120');
    expect(await claimIndexIdentity(db, 'payments__customers__1', 'uuid-1')).toBe(false);
  });

  it('a name that now stands for another engine index forgets every connector’s watermark in it, and only in it', async () => {
    await setWatermark(db, 'payments__customers__1', a, 'customers', '130');
    await setWatermark(db, 'payments__customers__1', b, 'customers', '340');
    await setWatermark(db, 'payments__customers__2', a, 'customers', '560');
    expect(await claimIndexIdentity(db, 'payments__customers__2', 'uuid-2')).toBe(false);
    // The cluster was replaced: generation 1 exists again, as a new, empty index.
    expect(await claimIndexIdentity(db, 'payments__customers__1', 'uuid-1b')).toBe(true);
    expect(await getWatermark(db, 'payments__customers__1', a, 'customers')).toBe('0');
    expect(await getWatermark(db, 'payments__customers__1', b, 'customers')).toBe('0');
    expect(await getWatermark(db, 'payments__customers__2', a, 'customers')).toBe('560');
  });

  it('two shippers noticing the same new index at once reset it once: the second waits, then finds it claimed', async () => {
    await setWatermark(db, 'payments__customers__2', b, 'customers', '777');
    const results = await Promise.all([0, 1].map((i) => db.transaction().execute(async (tx) => {
      const reset = await claimIndexIdentity(tx, 'payments__customers__2', 'uuid-2b');
      // The first keeps its transaction open a moment, holding the row.
      if (reset) await new Promise((r) => setTimeout(r, 100 + i));
      if (reset) await setWatermark(tx, 'payments__customers__2', a, 'customers', '5');
      return reset;
    })));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await getWatermark(db, 'payments__customers__2', b, 'customers')).toBe('0');
    expect(await getWatermark(db, 'payments__customers__2', a, 'customers')).toBe('5');
  });

  it('a batch shipped under the identity a reset replaced does not move the new index’s watermark', async () => {
    await db.insertInto('search_indexes').values({ name: 'payments__customers__3', connector_type: 'payments', entity: 'customers' }).execute();
    expect(await claimIndexIdentity(db, 'payments__customers__3', 'uuid-3')).toBe(false);
    await setWatermark(db, 'payments__customers__3', a, 'customers', '40', 'uuid-3');
    expect(await getWatermark(db, 'payments__customers__3', a, 'customers')).toBe('40');
    // The cluster was replaced while a shipper's batch (read under uuid-3) was in flight.
    expect(await claimIndexIdentity(db, 'payments__customers__3', 'uuid-3b')).toBe(true);
    await setWatermark(db, 'payments__customers__3', a, 'customers', '90', 'uuid-3');
    expect(await getWatermark(db, 'payments__customers__3', a, 'customers')).toBe('0');
    await setWatermark(db, 'payments__customers__3', a, 'customers', '90', 'uuid-3b');
    expect(await getWatermark(db, 'payments__customers__3', a, 'customers')).toBe('90');
  });

  it('outside a transaction, a claim resets in one: the new identity never stands beside old watermarks', async () => {
    await setWatermark(db, 'payments__customers__3', b, 'customers', '55', 'uuid-3b');
    // A claim that fails after adopting the identity must not keep the adoption: make the delete fail.
    await sql`create function sx_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`.execute(db);
    await sql`create trigger sx_test_refuse before delete on search_watermarks for each statement execute function sx_test_refuse()`.execute(db);
    try {
      await expect(claimIndexIdentity(db, 'payments__customers__3', 'uuid-3c')).rejects.toThrow(/refused/);
    } finally {
      await sql`drop trigger sx_test_refuse on search_watermarks`.execute(db);
      await sql`drop function sx_test_refuse()`.execute(db);
    }
    const row = await db.selectFrom('search_indexes').select('engine_uuid').where('name', '=', 'payments__customers__3').executeTakeFirstOrThrow();
    expect(row.engine_uuid).toBe('uuid-3b');
    expect(await claimIndexIdentity(db, 'payments__customers__3', 'uuid-3c')).toBe(true);
    expect(await getWatermark(db, 'payments__customers__3', b, 'customers')).toBe('0');
  });
});
