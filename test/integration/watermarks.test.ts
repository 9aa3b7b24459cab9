/**
 * Watermarks of the OpenSearch shipper, on a real Postgres: a new engine index under a reused
 * name (a replaced cluster creates generation 1 again) must start from version 0, not inherit.
 */
import type { Kysely } from 'kysely';
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
});
