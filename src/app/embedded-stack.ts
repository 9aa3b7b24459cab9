/**
 * The whole service on one machine with nothing installed: embedded Postgres (store, queue and
 * search index), the sandbox runtime, the API and a worker, in this process. Used by `demo`.
 */
import type { FastifyInstance } from 'fastify';
import { buildApi } from '../api/server.js';
import { loadConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { startSandboxServer } from '../sandbox/server.js';
import { Sandbox } from '../sandbox/sandbox.js';
import { freePort } from '../services/free-port.js';
import { providePostgres, type ProvidedService } from '../services/local-services.js';
import { createDb } from '../store/db.js';
import { startWorker, type RunningWorker } from '../worker/start-worker.js';
import { buildDeps, type Deps } from './deps.js';
import { migrateAll } from './migrate.js';

/** A running embedded stack. */
export interface EmbeddedStack {
  readonly deps: Deps;
  readonly apiUrl: string;
  readonly sandbox: Sandbox;
  readonly postgres: ProvidedService;
  stop(): Promise<void>;
}

/** Starts everything; `env` overrides process.env (DATABASE_URL reuses a server instead of embedding one). */
export async function startEmbeddedStack(opts: { logger: Logger; sandboxSize?: number; env?: Record<string, string | undefined> }): Promise<EmbeddedStack> {
  const base = loadConfig(opts.env ?? process.env);
  const postgres = await providePostgres(base.databaseUrl);
  const stops: (() => Promise<void>)[] = [() => postgres.stop()];
  const stopAll = async (): Promise<void> => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  try {
    const sandbox = new Sandbox({ defaultSize: opts.sandboxSize ?? 1000 });
    const sb = await startSandboxServer({ port: 0, sandbox });
    stops.push(() => sb.close());
    const port = base.port === 8080 ? await freePort() : base.port;
    const config = loadConfig({ ...(opts.env ?? process.env), DATABASE_URL: postgres.url, CONNECTOR_RUNTIME_URL: sb.url, PORT: String(port) });
    // BullMQ's Postgres backend checks its schema when a queue connects: migrate before building deps.
    const migrator = createDb(postgres.url, 1);
    await migrateAll(migrator.db, { kind: config.queueBackend, url: config.queueBackend === 'redis' ? (config.redisUrl ?? '') : postgres.url }).finally(() => migrator.db.destroy());
    const deps = buildDeps(config, { ephemeralSecrets: true, logger: opts.logger });
    stops.push(() => deps.close());
    const worker: RunningWorker = startWorker(deps, { concurrency: 2 });
    stops.push(() => worker.close());
    const api: FastifyInstance = buildApi(deps);
    await api.listen({ port, host: '127.0.0.1' });
    stops.push(() => api.close());
    return { deps, apiUrl: `http://127.0.0.1:${port}`, sandbox, postgres, stop: stopAll };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
