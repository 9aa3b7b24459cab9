/**
 * The store's kysely runs every statement in pg's callback mode (src/store/callback-pool.ts): in
 * promise mode a searching process's young-generation collections promoted megabytes and paused
 * it for milliseconds. Same rows, errors and transactions as pg gives.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type pg from 'pg';
import { createDb, type DB } from '../../src/store/db.js';
import { createDatabase } from './helpers/fresh-db.js';

describe('the store pool', () => {
  let db: Kysely<DB>;
  let pool: pg.Pool;
  /** How pg's client.query was called, per statement: with a callback or not. */
  const modes: string[] = [];

  beforeAll(async () => {
    ({ db, pool } = createDb(await createDatabase(), 2));
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
        modes.push(typeof args[args.length - 1] === 'function' ? 'callback' : 'promise');
        return query(...args);
      };
    });
  });
  afterAll(async () => db?.destroy());

  it('runs statements in callback mode, with pg rows and errors', async () => {
    modes.length = 0;
    const { rows } = await sql<{ n: number; t: string }>`select 1::int as n, ${'x'}::text as t`.execute(db);
    expect(rows).toEqual([{ n: 1, t: 'x' }]);
    const failed = await sql`select 1/0`.execute(db).catch((e: unknown) => e);
    expect((failed as { code?: string }).code).toBe('22012');
    expect(modes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(modes)).toEqual(new Set(['callback']));
  });

  it('keeps transactions on one connection: a rollback leaves nothing', async () => {
    await sql`create table t (v int)`.execute(db);
    await db.transaction().execute(async (tx) => {
      await sql`insert into t values (1)`.execute(tx);
      // Another connection does not see it before the commit.
      expect((await pool.query('select count(*)::int as n from t')).rows[0].n).toBe(0);
    });
    const rollback = db.transaction().execute(async (tx) => {
      await sql`insert into t values (2)`.execute(tx);
      throw new Error('rolled back');
    });
    await expect(rollback).rejects.toThrow('rolled back');
    expect((await sql<{ v: number }>`select v from t`.execute(db)).rows).toEqual([{ v: 1 }]);
  });

  it('drops a connection the server ended (FATAL) on release, before its socket closes: the next statement gets a live one', async () => {
    const { db: one, pool: single } = createDb(await createDatabase(), 1);
    try {
      await sql`select 1`.execute(one);
      const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(one)).rows[0]!.pid;
      // Caught at once: the error may arrive before the terminating statement's own answer.
      const sleeping = sql`select pg_sleep(30)`.execute(one).catch((e: unknown) => e);
      const state = async () => (await pool.query('select state from pg_stat_activity where pid = $1', [pid])).rows[0]?.state;
      await vi.waitFor(async () => expect(await state()).toBe('active'), { timeout: 10_000, interval: 25 });
      await pool.query('select pg_terminate_backend($1)', [pid]);
      const failed = await sleeping;
      // Postgres sends its FATAL error before it closes the socket; pg reports the first at once.
      expect((failed as { code?: string }).code).toBe('57P01');
      expect(single.idleCount).toBe(0);
      expect((await sql<{ n: number }>`select 1::int as n`.execute(one)).rows).toEqual([{ n: 1 }]);
    } finally {
      await one.destroy();
    }
  });
});
