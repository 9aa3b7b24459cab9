/**
 * The floor under the HTTP search figures on this machine: a bare fastify route that runs as many
 * statements as an execute does (the caller's token and connector, then the search) as `select 1`
 * on a pool of the same database, and answers a given page (the real search's answer, built
 * beforehand: the same bytes to serialize, send and parse), timed by the same agent process on a
 * kept-alive connection with the same request body. What the execute endpoint adds above it is
 * syncdex's own work (routing hooks, auth, parsing, planning and running the search, reading
 * the documents out of Postgres). Its best case adds the search's own statements, read as text.
 */
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import pg from 'pg';
import { ask, forkAgent } from './search-http.js';

/** Statements of an execute request (test/integration/execute-round-trips.test.ts counts them). */
const EXECUTE_STATEMENTS = 2;

const EMPTY_PAGE = { hits: [], next_cursor: null, took_ms: 0 };

/** A statement as a search ran it: the best-case route replays it. */
export interface CapturedStatement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

// Every column as the text Postgres sent: documents pass through without being parsed.
const RAW_TEXT = { getTypeParser: () => (value: string) => value };

type Replayed = { readonly name: string; readonly text: string; readonly values: unknown[] };

/** Names captured statements once, outside any timed loop (the name is the text's hash, so each connection parses a text once). */
const replayable = (statements: readonly CapturedStatement[]): Replayed[] =>
  statements.map((s) => ({ name: `floor_${createHash('sha1').update(s.sql).digest('hex')}`, text: s.sql, values: [...s.parameters] }));

/**
 * Runs captured statements one after the other, every column read as text, as the search pool
 * runs them once they repeat: named, each execution planned for its values (statement-cache.ts).
 */
async function replay(pool: pg.Pool, statements: readonly Replayed[]): Promise<void> {
  for (const s of statements) await pool.query({ ...s, types: RAW_TEXT });
}

/** A pool whose sessions plan every execution of a named statement for its own values, as the search pool's do. */
const replayPool = (databaseUrl: string, max: number): pg.Pool => new pg.Pool({ connectionString: databaseUrl, max, options: '-c plan_cache_mode=force_custom_plan' });

/**
 * Milliseconds of `reps` requests to the floor route, with `body` as the request body and
 * `answer` as the response. With `statements`, the best case instead: the route runs the
 * execute's token-and-connector lookup as `select 1`, then the search's own statements with
 * every column left as text (no document parsed, projected or re-serialized by anyone), and
 * answers the same given page.
 */
export async function httpFloor(databaseUrl: string, body: string, reps: number, answer: unknown = EMPTY_PAGE, statements: readonly CapturedStatement[] = []): Promise<number[]> {
  const pool = replayPool(databaseUrl, 4);
  const named = replayable(statements);
  const app = Fastify();
  app.post('/floor', async () => {
    if (statements.length === 0) for (let i = 0; i < EXECUTE_STATEMENTS; i++) await pool.query('select 1');
    else {
      await pool.query('select 1');
      await replay(pool, named);
    }
    return answer;
  });
  const agent = forkAgent();
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/floor`;
    return (await ask(agent, { url, token: 'floor', bodies: [body], reps, budgetMs: 30_000 })).ms;
  } finally {
    agent.kill();
    await app.close();
    await pool.end();
  }
}

/** Milliseconds of `reps` runs of a search's own statements alone, in this process, every column read as text: the in-process limit. */
export async function statementsAlone(databaseUrl: string, statements: readonly CapturedStatement[], reps: number): Promise<number[]> {
  const pool = replayPool(databaseUrl, 1);
  const named = replayable(statements);
  try {
    for (let i = 0; i < 4; i++) await replay(pool, named);
    const ms: number[] = [];
    for (let i = 0; i < reps; i++) {
      const t = performance.now();
      await replay(pool, named);
      ms.push(performance.now() - t);
    }
    return ms;
  } finally {
    await pool.end();
  }
}
