/**
 * The floor under the HTTP search figures on this machine: a bare fastify route that runs as many
 * statements as an execute does (the caller's token and connector, then the search) as `select 1`
 * on a pool of the same database, and answers a given page (the real search's answer, built
 * beforehand: the same bytes to serialize, send and parse), timed by the same agent process on a
 * kept-alive connection with the same request body. What the execute endpoint adds above it is
 * syncdex's own work (routing hooks, auth, parsing, planning and running the search, reading
 * the documents out of Postgres).
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import pg from 'pg';
import { ask, forkAgent } from './search-http.js';

/** Statements of an execute request (test/integration/execute-round-trips.test.ts counts them). */
const EXECUTE_STATEMENTS = 2;

const EMPTY_PAGE = { hits: [], next_cursor: null, took_ms: 0 };

/** Milliseconds of `reps` requests to the floor route, with `body` as the request body and `answer` as the response. */
export async function httpFloor(databaseUrl: string, body: string, reps: number, answer: unknown = EMPTY_PAGE): Promise<number[]> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const app = Fastify();
  app.post('/floor', async () => {
    for (let i = 0; i < EXECUTE_STATEMENTS; i++) await pool.query('select 1');
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
