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
import { GENERIC_PLAN } from './plan-marker.js';
import { StatementCache, STALE_STATEMENT, type StatementCacheLimits } from './statement-cache.js';

/** How the pool runs statements. */
export interface CallbackPoolOptions {
  /**
   * Name statements run through executePrepared (prepared-statements.ts); false behind a
   * connection pooler that cannot keep them, such as PgBouncer before 1.21 in transaction mode.
   */
  readonly prepared?: boolean;
  /**
   * Name repeated statements per connection (statement-cache.ts), on connections set to plan
   * every execution for its own values. Only for a pool that runs single read-only statements
   * outside transactions (the search pool): a statement the server lost is run again unnamed.
   */
  readonly statements?: StatementCacheLimits;
  /**
   * A second pool for statements whose text starts with {@link GENERIC_PLAN}: its connections
   * plan a named statement once and keep that plan (`force_generic_plan`). Such a statement's
   * plan does not depend on its values, so planning each execution only cost time: about a third
   * of a small tenant's ranked `keyword` (bench/README.md, session 31). Each connection taken
   * from this pool is then taken from the pool its first statement belongs to.
   */
  readonly generic?: pg.Pool;
}

type PlanMode = 'force_custom_plan' | 'force_generic_plan';

type Done = (err: Error | null, res: pg.QueryResult) => void;

/** Runs `text` named when the connection's caches say so; a stale named statement runs again unnamed once. */
function runOn(client: pg.PoolClient, cache: StatementCache | null, prepared: boolean, text: string, values: unknown[], done: Done): void {
  const name = prepared ? (preparedName(text) ?? cache?.nameFor(text)) : undefined;
  if (name === undefined) return void client.query(text, values, done);
  client.query({ name, text, values }, (err: Error | null, res: pg.QueryResult) => {
    if (err === null || cache === null || !STALE_STATEMENT.has(String((err as { code?: unknown }).code))) return done(err, res);
    // The failed statement holds the connection until its ReadyForQuery: queue the rerun alone,
    // and the stale name's deallocation from the rerun's callback.
    const stale = cache.drop(text);
    client.query(text, values, (rerunErr: Error | null, rerun: pg.QueryResult) => {
      if (stale !== null) cache.deallocate(stale);
      done(rerunErr, rerun);
    });
  });
}

/**
 * Whether the server ended the session with `err` (FATAL or PANIC: pg_terminate_backend, a
 * shutdown, a failover). pg reports that error as soon as it arrives, before the socket closes;
 * released without it, the dead client would go back to the pool and fail the next statement.
 */
function endsSession(err: Error): boolean {
  const severity = (err as { severity?: unknown }).severity;
  return severity === 'FATAL' || severity === 'PANIC';
}

/** The pool kysely's PostgresDialect runs on; `pool` (and `opts.generic`) stay the caller's (their events), ended with it. */
export function callbackPool(pool: pg.Pool, opts: CallbackPoolOptions = {}): PostgresPool {
  const prepared = opts.prepared !== false;
  // One wrapper per pg client: kysely keeps its connection objects per client it is given.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient, mode: PlanMode): PostgresPoolClient => {
    let w = wrappers.get(client);
    if (w === undefined) {
      let cache: StatementCache | null = null;
      let ended: Error | undefined;
      const limits = opts.statements;
      // Queued ahead of the client's first statement; until it is confirmed, nothing is cached.
      if (prepared && limits !== undefined) client.query(`set plan_cache_mode = ${mode}`, (err: Error | null) => void (err === null && (cache = new StatementCache(client, limits))));
      w = {
        query: ((text: string, values: readonly unknown[]) =>
          new Promise<PostgresQueryResult<unknown>>((resolve, reject) => {
            runOn(client, cache, prepared, text, values as unknown[], (err, res) => {
              if (err === null) return resolve(res as unknown as PostgresQueryResult<unknown>);
              if (endsSession(err)) ended = err;
              reject(err);
            });
          })) as PostgresPoolClient['query'],
        release: () => {
          const err = ended;
          ended = undefined;
          client.release(err);
        },
      };
      wrappers.set(client, w);
    }
    return w;
  };
  const custom = async (): Promise<PostgresPoolClient> => wrap(await pool.connect(), 'force_custom_plan');
  const generic = opts.generic;
  if (generic === undefined) return { connect: custom, end: () => pool.end() };
  const fromGeneric = async (): Promise<PostgresPoolClient> => wrap(await generic.connect(), 'force_generic_plan');
  // A connection is taken when its first statement says from which pool; the search pool runs
  // one statement per connection, and a transaction would stay on its first statement's pool.
  const deferred = (): PostgresPoolClient => {
    let taken: Promise<PostgresPoolClient> | null = null;
    return {
      query: (async (text: string, values: readonly unknown[]) => {
        taken ??= text.startsWith(GENERIC_PLAN) ? fromGeneric() : custom();
        return (await taken).query(text, values);
      }) as PostgresPoolClient['query'],
      release: () => void taken?.then((c) => c.release(), () => undefined),
    };
  };
  return {
    connect: async () => deferred(),
    end: async () => {
      await Promise.all([pool.end(), generic.end()]);
    },
  };
}
