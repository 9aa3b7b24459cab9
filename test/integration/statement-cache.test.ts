/**
 * The search pool names the statements each connection repeats (src/store/statement-cache.ts):
 * parsed once per connection, still planned for every execution's own values, the least recently
 * used deallocated past the limit, and a statement the session lost run again unnamed.
 */
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, createSearchDb, type DB } from '../../src/store/db.js';
import { GENERIC_PLAN } from '../../src/store/plan-marker.js';
import type { StatementCacheLimits } from '../../src/store/statement-cache.js';
import { createDatabase } from './helpers/fresh-db.js';

type Prepared = { name: string; statement: string; generic_plans: string; custom_plans: string };

/** The statements prepared in the session of a one-connection pool. */
async function prepared(db: Kysely<DB>): Promise<Prepared[]> {
  const { rows } = await sql<Prepared>`select name, statement, generic_plans, custom_plans from pg_prepared_statements order by name`.execute(db);
  return rows;
}

describe('the search pool statement cache', () => {
  let url: string;
  const dbs: Kysely<DB>[] = [];
  /** A pool of one connection, opened: the cache starts once the connection's plan mode is confirmed. */
  const oneConnection = async (statements: StatementCacheLimits | undefined, preparedStatements = true): Promise<Kysely<DB>> => {
    const { db } = createDb(url, 1, { preparedStatements, ...(statements === undefined ? {} : { statements }) });
    dbs.push(db);
    await sql`select 1`.execute(db);
    return db;
  };
  /** The plan mode and backend of the connection a statement with leading comment `mark` runs on. */
  const sessionOf = async (db: Kysely<DB>, mark: string) => (await db.executeQuery(CompiledQuery.raw(`${mark}select current_setting('plan_cache_mode') as m, pg_backend_pid() as pid`, []))).rows[0] as { m: string; pid: number };
  // A lookup whose best plan depends on the value: most rows hold 'common', one holds 'rare'.
  const lookup = (db: Kysely<DB>, v: string) => sql<{ n: number }>`select count(*)::int as n from skewed where v = ${v}`.execute(db).then((r) => r.rows[0]?.n);

  beforeAll(async () => {
    url = await createDatabase();
    const db = await oneConnection(undefined);
    await sql`create table skewed (id int primary key, v text not null)`.execute(db);
    await sql`insert into skewed select i, case when i = 1 then 'rare' else 'common' end from generate_series(1, 5000) i`.execute(db);
    await sql`create index on skewed (v)`.execute(db);
    await sql`analyze skewed`.execute(db);
  });
  afterAll(async () => {
    for (const db of dbs) await db.destroy();
  });

  it('names a statement the second time it runs, and plans every execution for its own values', async () => {
    const db = await oneConnection({ entries: 10, maxChars: 1000 });
    expect(await lookup(db, 'rare')).toBe(1);
    expect((await prepared(db)).filter((p) => p.statement.includes('skewed'))).toEqual([]);
    for (let i = 0; i < 12; i++) expect(await lookup(db, i % 2 === 0 ? 'rare' : 'common')).toBe(i % 2 === 0 ? 1 : 4999);
    const named = (await prepared(db)).filter((p) => p.statement.includes('skewed'));
    expect(named).toHaveLength(1);
    expect(named[0]?.name).toMatch(/^sx_q\d+$/);
    expect(Number(named[0]?.custom_plans)).toBe(12);
    expect(Number(named[0]?.generic_plans)).toBe(0);
    // A key lookup costs the same whatever its value: left to the automatic mode, Postgres would
    // switch it to one generic plan after five executions (as it would a tenant's search).
    for (let id = 1; id <= 12; id++) expect((await sql<{ v: string }>`select v from skewed where id = ${id}`.execute(db)).rows).toHaveLength(1);
    const byId = (await prepared(db)).find((p) => p.statement.includes('where id ='));
    expect(Number(byId?.custom_plans)).toBe(11);
    expect(Number(byId?.generic_plans)).toBe(0);
    expect((await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(db)).rows[0]?.plan_cache_mode).toBe('force_custom_plan');
  });

  it('keeps at most its limit: the least recently used is deallocated, and runs again when asked', async () => {
    const db = await oneConnection({ entries: 3, maxChars: 1000 });
    // Five texts, each run twice: the first ones are pushed out by the later ones.
    const text = (k: number) => `select count(*)::int as n, ${k} as k from skewed where v = $1`;
    const run = async (k: number) => (await db.executeQuery(CompiledQuery.raw(text(k), ['rare']))).rows[0];
    for (let k = 0; k < 5; k++) for (let i = 0; i < 2; i++) expect(await run(k)).toEqual({ n: 1, k });
    const named = (await prepared(db)).filter((p) => p.statement.includes('skewed'));
    expect(named.length).toBeGreaterThan(0);
    expect(named.length).toBeLessThanOrEqual(3);
    expect(named.map((p) => p.statement)).not.toContain(text(0));
    // The evicted text runs again (unnamed, then named afresh), with the right answer.
    for (let i = 0; i < 2; i++) expect(await run(0)).toEqual({ n: 1, k: 0 });
    const now = (await prepared(db)).filter((p) => p.statement.includes('skewed'));
    expect(now.length).toBeLessThanOrEqual(3);
    expect(now.map((p) => p.statement)).toContain(text(0));
  });

  it('runs long texts unnamed', async () => {
    const db = await oneConnection({ entries: 10, maxChars: 40 });
    for (let i = 0; i < 3; i++) expect(await lookup(db, 'rare')).toBe(1);
    expect((await prepared(db)).filter((p) => p.statement.includes('skewed'))).toEqual([]);
  });

  it('runs a statement the session lost again, unnamed, and names it afresh', async () => {
    const db = await oneConnection({ entries: 10, maxChars: 1000 });
    for (let i = 0; i < 2; i++) await lookup(db, 'rare');
    const before = (await prepared(db)).filter((p) => p.statement.includes('skewed'));
    expect(before).toHaveLength(1);
    await sql`deallocate all`.execute(db);
    // The first run after finds its name gone: it runs unnamed and is seen anew; the next is named again.
    expect(await lookup(db, 'rare')).toBe(1);
    expect(await lookup(db, 'common')).toBe(4999);
    expect(await lookup(db, 'rare')).toBe(1);
    const after = (await prepared(db)).filter((p) => p.statement.includes('skewed'));
    expect(after).toHaveLength(1);
    expect(after[0]?.name).not.toBe(before[0]?.name);
  });

  it('reruns a lost statement with nothing else queued behind the failed one (pg 8.19 warns of a second query queued, pg 9 refuses it)', async () => {
    const { db, pool } = createDb(url, 1, { statements: { entries: 10, maxChars: 1000 } });
    dbs.push(db);
    // What pg itself checks before it warns: how many queries wait behind the one running.
    const waiting: number[] = [];
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
        waiting.push((client as unknown as { _queryQueue: unknown[] })._queryQueue.length);
        return query(...args);
      };
    });
    await sql`select 1`.execute(db);
    for (let i = 0; i < 2; i++) await lookup(db, 'rare');
    await sql`deallocate all`.execute(db);
    expect(await lookup(db, 'rare')).toBe(1);
    // The stale name is deallocated once the rerun is done: the next statements find the connection free, and it is named again.
    expect(await lookup(db, 'common')).toBe(4999);
    expect(await lookup(db, 'rare')).toBe(1);
    expect((await prepared(db)).filter((p) => p.statement.includes('skewed'))).toHaveLength(1);
    expect(waiting.length).toBeGreaterThan(6);
    expect(Math.max(...waiting)).toBe(0);
  });

  it('runs a statement marked as planned once on its own connections, which keep its first plan; the rest stay planned per value', async () => {
    const { db } = createDb(url, 1, { statements: { entries: 10, maxChars: 1000 }, genericMax: 1 });
    dbs.push(db);
    const marked = (v: string) => db.executeQuery(CompiledQuery.raw(`${GENERIC_PLAN}select count(*)::int as n from skewed where v = $1`, [v])).then((r) => (r.rows[0] as { n: number }).n);
    for (let i = 0; i < 6; i++) expect(await marked(i % 2 === 0 ? 'rare' : 'common')).toBe(i % 2 === 0 ? 1 : 4999);
    for (let i = 0; i < 6; i++) expect(await lookup(db, i % 2 === 0 ? 'rare' : 'common')).toBe(i % 2 === 0 ? 1 : 4999);
    const [generic, custom] = [await sessionOf(db, GENERIC_PLAN), await sessionOf(db, '')];
    expect(generic.m).toBe('force_generic_plan');
    expect(custom.m).toBe('force_custom_plan');
    expect(generic.pid).not.toBe(custom.pid);
    // Each pool's one connection: the marked statement was planned once and kept; the other per value.
    const byMode = async (mark: string) => (await db.executeQuery(CompiledQuery.raw(`${mark}select statement, generic_plans::int as g, custom_plans::int as c from pg_prepared_statements where statement like '%from skewed%'`, []))).rows as { statement: string; g: number; c: number }[];
    expect((await byMode(GENERIC_PLAN)).map((p) => [p.g > 0, p.c])).toEqual([[true, 0]]);
    expect((await byMode('')).map((p) => [p.g, p.c > 0])).toEqual([[0, true]]);
  });

  it('the search pool keeps no connections for statements planned once where prepared statements are off', async () => {
    const pidOf = async (db: Kysely<DB>, mark: string) => (await sessionOf(db, mark)).pid;
    const on = createSearchDb(url, { statementTimeoutMs: 10_000 });
    const off = createSearchDb(url, { statementTimeoutMs: 10_000, preparedStatements: false });
    dbs.push(on, off);
    // One statement at a time: an unmarked one and a marked one share a connection only without the second pool.
    expect(await pidOf(on, GENERIC_PLAN)).not.toBe(await pidOf(on, ''));
    expect(await pidOf(off, GENERIC_PLAN)).toBe(await pidOf(off, ''));
  });

  it('names nothing and leaves the plan mode alone where prepared statements are off', async () => {
    const db = await oneConnection({ entries: 10, maxChars: 1000 }, false);
    for (let i = 0; i < 3; i++) expect(await lookup(db, 'rare')).toBe(1);
    expect(await prepared(db)).toEqual([]);
    expect((await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(db)).rows[0]?.plan_cache_mode).toBe('auto');
  });
});
