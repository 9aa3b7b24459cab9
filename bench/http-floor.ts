/**
 * The floor under the HTTP search figures on this machine: a bare fastify route that runs as many
 * statements as an execute does (the caller's token and connector, then the search) as `select 1`
 * on a pool of the same database, and answers a given page (the real search's answer, built
 * beforehand: the same bytes to serialize, send and parse), timed by the same agent process on a
 * kept-alive connection with the same request body. What the execute endpoint adds above it is
 * syncdex's own work (routing hooks, auth, parsing, planning and running the search, reading
 * the documents out of Postgres). Its best case adds the search's own statements, read as text.
 * The route runs in a process of its own (lib/floor-server-process.ts), as the API does.
 */
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { forkChild } from './lib/fork-child.js';
import { ask, forkAgent } from './search-http.js';

/** Statements of an execute request (test/integration/execute-round-trips.test.ts counts them). */
export const EXECUTE_STATEMENTS = 2;

const EMPTY_PAGE = { hits: [], next_cursor: null, took_ms: 0 };

/** A statement as a search ran it: the best-case route replays it. */
export interface CapturedStatement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

// Every column as the text Postgres sent: documents pass through without being parsed.
const RAW_TEXT = { getTypeParser: () => (value: string) => value };

type Replayed = { readonly name: string; readonly text: string; readonly values: unknown[] };

/** What the floor's server process (lib/floor-server-process.ts) serves. */
export interface FloorSpec {
  readonly databaseUrl: string;
  readonly answer: unknown;
  readonly statements: readonly CapturedStatement[];
}

/** Names captured statements once, outside any timed loop (the name is the text's hash, so each connection parses a text once). */
export const replayable = (statements: readonly CapturedStatement[]): Replayed[] =>
  statements.map((s) => ({ name: `floor_${createHash('sha1').update(s.sql).digest('hex')}`, text: s.sql, values: [...s.parameters] }));

/**
 * Runs captured statements one after the other, every column read as text, as the search pool
 * runs them once they repeat: named, each execution planned for its values (statement-cache.ts).
 */
export async function replay(pool: pg.Pool, statements: readonly Replayed[]): Promise<void> {
  for (const s of statements) await pool.query({ ...s, types: RAW_TEXT });
}

/** A pool whose sessions plan every execution of a named statement for its own values, as the search pool's do. */
export const replayPool = (databaseUrl: string, max: number): pg.Pool => new pg.Pool({ connectionString: databaseUrl, max, options: '-c plan_cache_mode=force_custom_plan' });

/**
 * Milliseconds of `reps` requests to the floor route, with `body` as the request body and
 * `answer` as the response. With `statements`, the best case instead: the route runs the
 * execute's token-and-connector lookup as `select 1`, then the search's own statements with
 * every column left as text (no document parsed, projected or re-serialized by anyone), and
 * answers the same given page.
 */
export async function httpFloor(databaseUrl: string, body: string, reps: number, answer: unknown = EMPTY_PAGE, statements: readonly CapturedStatement[] = []): Promise<number[]> {
  const server = forkChild('floor-server-process', 'syncdex');
  const agent = forkAgent();
  try {
    const port = await serving(server, { databaseUrl, answer, statements });
    return (await ask(agent, { url: `http://127.0.0.1:${port}/floor`, token: 'floor', bodies: [body], reps, budgetMs: 30_000 })).ms;
  } finally {
    agent.kill();
    await stopped(server);
  }
}

function serving(server: ChildProcess, spec: FloorSpec): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`the bench's floor server exited (${code})`)));
    server.once('message', (m: { port: number } | { error: string }) => ('port' in m ? resolve(m.port) : reject(new Error(m.error))));
    server.send(spec);
  });
}

function stopped(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    server.once('exit', () => resolve());
    server.kill('SIGTERM');
  });
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
