import { mkdtemp, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDb, type DB } from '../../src/store/db.js';
import { MIGRATIONS_DIR, migrateToLatest } from '../../src/store/migrate.js';
import { createDatabase } from './helpers/fresh-db.js';

const ALL = ['0001_init', '0002_lean_index', '0003_seen_batches', '0004_seen_fence', '0005_run_retention', '0006_lookup_gin_no_pending_list', '0007_search_index_identity', '0008_replay_of_index', '0009_connectors_keyset', '0010_run_progressed_at', '0011_connector_rate_limits', '0012_text_trigram_index', '0013_word_index', '0014_records_by_entity'];

/** Applies the first `n` migrations, then adds an organization and its connector (…0a, …0c) as that schema holds them. */
async function migrateWithConnector(db: Kysely<DB>, n: number): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sx-mig-'));
  for (const f of ALL.slice(0, n)) await copyFile(path.join(MIGRATIONS_DIR, `${f}.sql`), path.join(dir, `${f}.sql`));
  await migrateToLatest(db, dir);
  await sql`insert into organizations (id, name) values ('00000000-0000-0000-0000-00000000000a', 'o')`.execute(db);
  await sql`insert into connectors (id, organization_id, external_user_id, connector_type, name, secret_ciphertext, secret_key_id, auth_method, replication_config)
            values ('00000000-0000-0000-0000-00000000000c', '00000000-0000-0000-0000-00000000000a', 'u', 'payments', 'c', '\\x00', 'k', 'api_key', '{}')`.execute(db);
}

describe('migrations', () => {
  it('apply from an empty database, then are a no-op', async () => {
    const { db } = createDb(await createDatabase(), 2);
    try {
      const first = await migrateToLatest(db);
      expect(first).toEqual(ALL);
      const tables = await sql<{ t: string }>`select table_name as t from information_schema.tables where table_schema = 'public' order by 1`.execute(db);
      expect(tables.rows.map((r) => r.t)).toEqual(expect.arrayContaining(['api_tokens', 'connectors', 'entity_state', 'organizations', 'records', 'sync_run_seen_batches', 'sync_runs']));
      expect(await migrateToLatest(db)).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  it('refuse a database that is not UTF8, naming it and the fix', async () => {
    const url = new URL(await createDatabase());
    const name = `${url.pathname.slice(1)}_ascii`;
    const admin = createDb(url.toString(), 1);
    await sql.raw(`create database ${name} encoding 'SQL_ASCII' lc_collate 'C' lc_ctype 'C' template template0`).execute(admin.db);
    await admin.db.destroy();
    url.pathname = `/${name}`;
    const { db } = createDb(url.toString(), 1);
    try {
      await expect(migrateToLatest(db)).rejects.toMatchObject({ code: 'config_invalid', message: expect.stringContaining(`database ${name} is encoded SQL_ASCII`) });
      const tables = await sql<{ n: string }>`select count(*)::text as n from information_schema.tables where table_schema = 'public'`.execute(db);
      expect(tables.rows[0]?.n).toBe('0');
    } finally {
      await db.destroy();
    }
  });

  it('are safe when two processes start at once', async () => {
    const url = await createDatabase();
    const a = createDb(url, 2);
    const b = createDb(url, 2);
    try {
      const [ra, rb] = await Promise.all([migrateToLatest(a.db), migrateToLatest(b.db)]);
      expect([...ra, ...rb]).toEqual(ALL);
      const applied = await sql<{ n: string }>`select count(*)::text as n from syncdex_migrations`.execute(a.db);
      expect(applied.rows[0]?.n).toBe(String(ALL.length)); // each migration exactly once
    } finally {
      await a.db.destroy();
      await b.db.destroy();
    }
  });

  it('0003 carries the seen-sets of unfinished runs over to one row per run', async () => {
    const { db } = createDb(await createDatabase(), 2);
    try {
      await migrateWithConnector(db, 2);
      const run = await sql<{ id: string }>`insert into sync_runs (connector_id, entity, trigger, mode, status) values ('00000000-0000-0000-0000-00000000000c', 'customers', 'manual', 'full', 'failed') returning id::text`.execute(db);
      const id = run.rows[0]!.id;
      await sql`insert into sync_run_seen (run_id, record_id) values (${id}::bigint, 'a'), (${id}::bigint, 'b')`.execute(db);
      expect(await migrateToLatest(db)).toEqual(ALL.slice(2));
      const rows = await sql<{ ids: string[] }>`select record_ids as ids from sync_run_seen_batches where run_id = ${id}::bigint`.execute(db);
      expect(rows.rows.map((r) => [...r.ids].sort())).toEqual([['a', 'b']]);
    } finally {
      await db.destroy();
    }
  });

  it('0014 moves every record into its entity\'s partition, keeping every column, and later writes find it', async () => {
    const { db } = createDb(await createDatabase(), 2);
    try {
      await migrateWithConnector(db, 13);
      // Entities as the catalog names them, one no readable partition name can hold, and a tombstone.
      const entities = ['customers', 'issue_comments', "Odd 'entity'/ä"];
      for (const [i, entity] of entities.entries()) {
        await sql`insert into records (connector_id, entity, record_id, data, shadow, content_hash, version, deleted_at, keys, text_lc, words)
                  values ('00000000-0000-0000-0000-00000000000c', ${entity}, ${`r${i}`}, ${JSON.stringify({ n: i })}::jsonb, null, ${`h${i}`}, ${i + 1},
                          ${i === 1 ? sql`now()` : sql`null`}, ${JSON.stringify({ k: i })}::jsonb, ${`t${i}`}, ${[i, i + 7]}::int4[])`.execute(db);
      }
      const columns = sql`select entity, record_id, data, content_hash, version::text, deleted_at is not null as gone, keys, text_lc, words from records order by entity`;
      const before = (await columns.execute(db)).rows;
      expect(await migrateToLatest(db)).toEqual(ALL.slice(13));
      expect((await columns.execute(db)).rows).toEqual(before);
      const placed = await sql<{ p: string; entity: string }>`select tableoid::regclass::text as p, entity from records order by entity`.execute(db);
      expect(placed.rows).toEqual([
        { p: expect.stringMatching(/^"?records__h[0-9a-f]{16}"?$/), entity: "Odd 'entity'/ä" },
        { p: 'records__customers', entity: 'customers' },
        { p: 'records__issue_comments', entity: 'issue_comments' },
      ]);
      // The same partition for the same entity; a new entity gets one; every one has the text indexes.
      const partition = async (entity: string) => (await sql<{ p: string }>`select syncdex_records_partition(${entity}) as p`.execute(db)).rows[0]!.p;
      expect(await partition('customers')).toBe('records__customers');
      expect(await partition('tickets')).toBe('records__tickets');
      const gins = await sql<{ n: number }>`select count(*)::int as n from pg_indexes where tablename = 'records__tickets' and indexdef like '%USING gin%'`.execute(db);
      expect(gins.rows[0]!.n).toBe(3);
      const none = await sql<{ n: number }>`select count(*)::int as n from records_default`.execute(db);
      expect(none.rows[0]!.n).toBe(0);
    } finally {
      await db.destroy();
    }
  });
});
