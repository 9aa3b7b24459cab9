/**
 * Searches as an agent sends them: through the HTTP execute endpoint of a real API (fastify,
 * bearer token, connector lookup, JSON both ways) on loopback, against the bench's database.
 * The API is `syncdex api` in a process of its own (lib/api-process.ts), as operators run it;
 * the agent is another (lib/http-agent-process.ts), with a kept-alive connection.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createDb } from '../src/store/db.js';
import { createToken, ensureOrganization } from '../src/store/tokens-repo.js';
import { startApiProcess } from './lib/api-process.js';
import { forkChild } from './lib/fork-child.js';
import type { TimingAnswer, TimingJob } from './lib/http-agent-process.js';

/** A running API and an agent process that times searches through it. */
export interface HttpSearcher {
  /** Milliseconds of each of `reps` searches with these params (round-robin), as the agent measured them; and the hits of the first. */
  time(connectorId: string, params: readonly unknown[], reps: number): Promise<{ ms: number[]; hits: number }>;
  close(): Promise<void>;
}

/** Forks the agent process (lib/http-agent-process.ts). */
export function forkAgent(): ChildProcess {
  return forkChild('http-agent-process', 'none');
}

/** One timing job run by the agent. */
export function ask(child: ChildProcess, job: TimingJob): Promise<{ ms: number[]; hits: number }> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null): void => reject(new Error(`the bench's HTTP agent exited (${code})`));
    child.once('exit', onExit);
    child.once('message', (answer: TimingAnswer) => {
      child.off('exit', onExit);
      if ('error' in answer) reject(new Error(answer.error));
      else resolve(answer);
    });
    child.send(job);
  });
}

/** A bearer token of the organization the bench's connectors belong to (insertConnectorRow's). */
async function benchToken(databaseUrl: string): Promise<string> {
  const { db } = createDb(databaseUrl, 1);
  try {
    return (await createToken(db, await ensureOrganization(db, 'conformance'))).token;
  } finally {
    await db.destroy();
  }
}

/** `env`: the search backend's variables (SEARCH_BACKEND, OPENSEARCH_URL, OPENSEARCH_INDEX_PREFIX); `flags`: more node flags for the API (a profiler). */
export async function httpSearcher(databaseUrl: string, env: Record<string, string> = {}, flags: readonly string[] = []): Promise<HttpSearcher> {
  const token = await benchToken(databaseUrl);
  const api = await startApiProcess({ DATABASE_URL: databaseUrl, CONNECTOR_RUNTIME_URL: 'http://127.0.0.1:9', CREDENTIALS_KEY: `k1:${randomBytes(32).toString('base64')}`, CURSOR_SECRET: randomBytes(24).toString('hex'), QUEUE_BACKEND: 'postgres', LOG_LEVEL: 'warn', ...env }, flags);
  const agent = forkAgent();
  return {
    time: (connectorId, params, reps) => {
      const bodies = params.map((p) => JSON.stringify({ entity: 'customers', action: 'search', params: p }));
      return ask(agent, { url: `${api.base}/api/v1/integrations/connectors/${connectorId}/execute`, token, bodies, reps, budgetMs: 30_000 });
    },
    close: async () => {
      agent.kill();
      await api.stop();
    },
  };
}
