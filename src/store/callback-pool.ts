/**
 * pg's pool as kysely takes it, with every statement run in pg's callback mode. Measured at a
 * million records (bench/README.md, session 18): with pg 8's promise mode, each young-generation
 * collection of a process running searches promoted 2–4 MB and paused it 8–19 ms, a pause every
 * 15 or so searches, which set their p95; run in callback mode, the same loop's collections
 * promoted a few KB and paused under 2 ms. The rows, the errors and the pool are pg's own.
 */
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { preparedName } from './prepared-statements.js';

/**
 * The pool kysely's PostgresDialect runs on; `pool` stays the caller's (its events, its end).
 * `prepared`: statements run through executePrepared (prepared-statements.ts) are named (false behind a
 * connection pooler that cannot keep them, such as PgBouncer before 1.21 in transaction mode).
 */
export function callbackPool(pool: pg.Pool, prepared = true): PostgresPool {
  // One wrapper per pg client: kysely keeps its connection objects per client it is given.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let w = wrappers.get(client);
    if (w === undefined) {
      w = {
        query: ((text: string, values: readonly unknown[]) =>
          new Promise<PostgresQueryResult<unknown>>((resolve, reject) => {
            const done = (err: Error | null, res: pg.QueryResult): void => (err ? reject(err) : resolve(res as unknown as PostgresQueryResult<unknown>));
            const name = prepared ? preparedName(text) : undefined;
            if (name === undefined) client.query(text, values as unknown[], done);
            else client.query({ name, text, values: values as unknown[] }, done);
          })) as PostgresPoolClient['query'],
        release: () => client.release(),
      };
      wrappers.set(client, w);
    }
    return w;
  };
  return { connect: async () => wrap(await pool.connect()), end: () => pool.end() };
}
