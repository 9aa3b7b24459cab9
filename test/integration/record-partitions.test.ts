/**
 * `records` is partitioned by entity (migration 0014): each entity gets its partition once,
 * whoever asks at the same moment; an entity whose rows already sit in the default partition
 * stays there; and searches find the table that holds an entity's records.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DB } from '../../src/store/db.js';
import { DEFAULT_PARTITION, ensureRecordPartition, findRecordPartition, RecordRelations } from '../../src/store/record-partitions.js';
import { insertConnectorRow } from '../conformance/postgres-page.js';
import { migratedDatabase } from './helpers/fresh-db.js';

describe('records partitions', () => {
  let db: Kysely<DB>;
  beforeAll(async () => {
    db = createDb(await migratedDatabase(), 8).db;
  });
  afterAll(async () => db.destroy());

  const insertRecord = async (entity: string, id: string) => {
    const connectorId = await insertConnectorRow(db, 'payments');
    await sql`insert into records (connector_id, entity, record_id, data, content_hash, version) values (${connectorId}::uuid, ${entity}, ${id}, '{}'::jsonb, 'h', 1)`.execute(db);
  };
  const home = async (entity: string) => (await sql<{ p: string }>`select tableoid::regclass::text as p from records where entity = ${entity}`.execute(db)).rows.map((r) => r.p);

  it('creates an entity\'s partition once when many ask at the same moment, and its rows go there', async () => {
    const names = await Promise.all(Array.from({ length: 8 }, () => ensureRecordPartition(db, 'invoices')));
    expect(new Set(names)).toEqual(new Set(['records__invoices']));
    await insertRecord('invoices', 'in_1');
    expect(await home('invoices')).toEqual(['records__invoices']);
    expect(await findRecordPartition(db, 'invoices')).toBe('records__invoices');
  });

  it('leaves an entity whose rows the default partition holds where they are, and writes keep landing', async () => {
    await insertRecord('early_entity', 'e_1');
    expect(await home('early_entity')).toEqual([DEFAULT_PARTITION]);
    expect(await ensureRecordPartition(db, 'early_entity')).toBe(DEFAULT_PARTITION);
    expect(await findRecordPartition(db, 'early_entity')).toBeNull();
    await insertRecord('early_entity', 'e_2');
    expect(await home('early_entity')).toEqual([DEFAULT_PARTITION, DEFAULT_PARTITION]);
  });

  it('names a partition by a hash when the entity is no plain identifier or its name is taken', async () => {
    expect(await ensureRecordPartition(db, 'Odd-Entity')).toMatch(/^records__h[0-9a-f]{16}$/);
    // `records__invoices_pkey` is the invoices partition's primary key: a table cannot take that name.
    expect(await ensureRecordPartition(db, 'invoices_pkey')).toMatch(/^records__h[0-9a-f]{16}$/);
    await insertRecord('invoices_pkey', 'x');
    expect(await home('invoices_pkey')).toEqual([await findRecordPartition(db, 'invoices_pkey')]);
  });

  it('searches read the parent until an entity has a partition, then the partition, for good', async () => {
    const relations = new RecordRelations();
    expect(await relations.of(db, 'tickets', 0)).toBe('records');
    await ensureRecordPartition(db, 'tickets');
    // Known without a partition: asked again only after a while.
    expect(await relations.of(db, 'tickets', 5_000)).toBe('records');
    expect(await relations.of(db, 'tickets', 20_000)).toBe('records__tickets');
    expect(await relations.of(db, 'tickets', Number.MAX_SAFE_INTEGER)).toBe('records__tickets');
  });
});
