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
import { provideOpenSearch } from '../services/local-opensearch.js';
import { providePostgres, type ProvidedService } from '../services/local-services.js';
import { AppError } from '../errors.js';
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
  /** The OpenSearch searches go to, when the stack searches with it. */
  readonly opensearch: ProvidedService | null;
  stop(): Promise<void>;
}

/** Options of the embedded stack. */
export interface EmbeddedStackOptions {
  readonly logger: Logger;
  readonly sandboxSize?: number;
  /** Overrides process.env (DATABASE_URL reuses a server instead of embedding one). */
  readonly env?: Record<string, string | undefined>;
  /** `opensearch`: OPENSEARCH_URL, else a container, else a local node (Java + Maven). Default: as configured. */
  readonly search?: 'postgres' | 'opensearch';
}

async function provideSearch(search: 'postgres' | 'opensearch', url: string | undefined): Promise<ProvidedService | null> {
  if (search === 'postgres') return null;
  const os = await provideOpenSearch(url);
  if (!os.ok) throw new AppError('config_invalid', os.reason, { path: 'OPENSEARCH_URL' });
  return os.service;
}

/** Starts everything; nothing is left running if a part fails to start. */
export async function startEmbeddedStack(opts: EmbeddedStackOptions): Promise<EmbeddedStack> {
  const base = loadConfig(opts.env ?? process.env);
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async (): Promise<void> => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  try {
    const postgres = await providePostgres(base.databaseUrl);
    stops.push(() => postgres.stop());
    const opensearch = await provideSearch(opts.search ?? base.searchBackend, base.opensearchUrl);
    if (opensearch !== null) stops.push(() => opensearch.stop());
    const searchEnv = opensearch === null ? { SEARCH_BACKEND: 'postgres' } : { SEARCH_BACKEND: 'opensearch', OPENSEARCH_URL: opensearch.url };
    const sandbox = new Sandbox({ defaultSize: opts.sandboxSize ?? 1000 });
    const sb = await startSandboxServer({ port: 0, sandbox });
    stops.push(() => sb.close());
    const port = base.port === 8080 ? await freePort() : base.port;
    const config = loadConfig({ ...(opts.env ?? process.env), ...searchEnv, DATABASE_URL: postgres.url, CONNECTOR_RUNTIME_URL: sb.url, PORT: String(port) });
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
    return { deps, apiUrl: `http://127.0.0.1:${port}`, sandbox, postgres, opensearch, stop: stopAll };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
