import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { createDatabase } from './helpers/fresh-db.js';

describe('migrations', () => {
  it('apply from an empty database, then are a no-op', async () => {
    const { db } = createDb(await createDatabase(), 2);
    try {
      const first = await migrateToLatest(db);
      expect(first).toEqual(['0001_init', '0002_lean_index']);
      const tables = await sql<{ t: string }>`select table_name as t from information_schema.tables where table_schema = 'public' order by 1`.execute(db);
      expect(tables.rows.map((r) => r.t)).toEqual(expect.arrayContaining(['api_tokens', 'connectors', 'entity_state', 'organizations', 'records', 'sync_run_seen', 'sync_runs']));
      expect(await migrateToLatest(db)).toEqual([]);
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
      expect([...ra, ...rb]).toEqual(['0001_init', '0002_lean_index']);
      const applied = await sql<{ n: string }>`select count(*)::text as n from syncdex_migrations`.execute(a.db);
      expect(applied.rows[0]?.n).toBe('2'); // each migration exactly once
    } finally {
      await a.db.destroy();
      await b.db.destroy();
    }
  });
});
