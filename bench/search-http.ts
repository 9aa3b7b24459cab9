/**
 * Searches as an agent sends them: through the HTTP execute endpoint of a real API (fastify,
 * bearer token, connector lookup, JSON both ways) on loopback, against the bench's database.
 * The agent is a process of its own (lib/http-agent-process.ts) with a kept-alive connection.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { buildApi } from '../src/api/server.js';
import { buildDeps } from '../src/app/deps.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createToken, ensureOrganization } from '../src/store/tokens-repo.js';
import type { TimingAnswer, TimingJob } from './lib/http-agent-process.js';

/** A running API and an agent process that times searches through it. */
export interface HttpSearcher {
  /** Milliseconds of each of `reps` searches with these params (round-robin), as the agent measured them; and the hits of the first. */
  time(connectorId: string, params: readonly unknown[], reps: number): Promise<{ ms: number[]; hits: number }>;
  close(): Promise<void>;
}

/** Forks the agent process (lib/http-agent-process.ts). */
export function forkAgent(): ChildProcess {
  return fork(fileURLToPath(new URL('./lib/http-agent-process.ts', import.meta.url)), { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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

/** `env`: the search backend's variables (SEARCH_BACKEND, OPENSEARCH_URL, OPENSEARCH_INDEX_PREFIX). */
export async function httpSearcher(databaseUrl: string, env: Record<string, string> = {}): Promise<HttpSearcher> {
  const deps = buildDeps(loadConfig({ DATABASE_URL: databaseUrl, CONNECTOR_RUNTIME_URL: 'http://127.0.0.1:9', CREDENTIALS_KEY: `k1:${randomBytes(32).toString('base64')}`, CURSOR_SECRET: randomBytes(24).toString('hex'), QUEUE_BACKEND: 'postgres', LOG_LEVEL: 'warn', ...env }), { logger: createLogger('warn') });
  const app = buildApi(deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // The bench's connectors belong to the organization insertConnectorRow uses.
  const { token } = await createToken(deps.db, await ensureOrganization(deps.db, 'conformance'));
  const agent = forkAgent();
  return {
    time: (connectorId, params, reps) => {
      const bodies = params.map((p) => JSON.stringify({ entity: 'customers', action: 'search', params: p }));
      return ask(agent, { url: `${base}/api/v1/integrations/connectors/${connectorId}/execute`, token, bodies, reps, budgetMs: 30_000 });
    },
    close: async () => {
      agent.kill();
      await app.close();
      await deps.close();
    },
  };
}
