/**
 * Builds the one `deps` object an entry point (api, worker, cli, demo) runs on. Nothing else
 * creates clients; tests build their own deps the same way.
 */
import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { Config } from '../config.js';
import { HttpConnectorRuntime, type ConnectorRuntime } from '../connectors/runtime-client.js';
import { AppError } from '../errors.js';
import { createLogger, type Logger } from '../logger.js';
import type { SearchBackend } from '../search/backend.js';
import { OpenSearchBackend } from '../search/opensearch/opensearch-backend.js';
import { PostgresSearchBackend } from '../search/postgres/postgres-backend.js';
import { Client as OpenSearchClient } from '@opensearch-project/opensearch';
import { ephemeralKeyring, parseKeyring, type Keyring } from '../store/crypto.js';
import { createDb, createSearchDb, type DB } from '../store/db.js';
import { SYNC_QUEUE, type SyncJob } from '../worker/jobs.js';
import { createQueueFactory, type QueueFactory } from '../worker/queue-factory.js';
import { SCHEDULE_QUEUE, type ScheduleJob } from '../worker/schedules.js';

/** Everything the app's modules need, built once per process. */
export interface Deps {
  readonly config: Config;
  readonly logger: Logger;
  readonly db: Kysely<DB>;
  readonly pool: pg.Pool;
  /** Searches run here: a pool whose connections carry SEARCH_TIMEOUT_MS as statement timeout. */
  readonly searchDb: Kysely<DB>;
  readonly backend: SearchBackend;
  readonly queues: QueueFactory;
  readonly syncQueue: Queue<SyncJob>;
  readonly scheduleQueue: Queue<ScheduleJob>;
  readonly runtime: ConnectorRuntime;
  readonly keyring: Keyring;
  readonly cursorSecret: string;
  close(): Promise<void>;
}

/** Options for throwaway processes (demo, tests): generate secrets instead of requiring them. */
export interface DepsOptions {
  readonly ephemeralSecrets?: boolean;
  readonly logger?: Logger;
  /**
   * For processes that only enqueue runs (CLI commands): no CONNECTOR_RUNTIME_URL needed, and
   * calling the runtime is a `config_invalid` error instead of a start-up failure.
   */
  readonly withoutRuntime?: boolean;
  /**
   * CLI: CREDENTIALS_KEY and CURSOR_SECRET are checked when a command first needs them (creating
   * a connector, searching), not up front, so `connectors list` or `sync` work without them.
   */
  readonly lazySecrets?: boolean;
}

const KEY_HINT = 'a base64 32-byte key, e.g. `openssl rand -base64 32`';
const CURSOR_HINT = 'a random string of 16+ characters shared by every API process';

function runtimeOf(config: Config, opts: DepsOptions): ConnectorRuntime {
  if (config.runtimeUrl === undefined && opts.withoutRuntime === true) {
    return { execute: () => Promise.reject(new AppError('config_invalid', 'this process has no connector runtime: set CONNECTOR_RUNTIME_URL', { path: 'CONNECTOR_RUNTIME_URL' })) };
  }
  const baseUrl = need(config.runtimeUrl, 'CONNECTOR_RUNTIME_URL', 'the connector runtime, e.g. `syncdex sandbox` at http://127.0.0.1:8090');
  return new HttpConnectorRuntime({ baseUrl, token: config.runtimeToken, timeoutMs: config.runtimeTimeoutMs });
}

function missing(name: string, hint: string): never {
  throw new AppError('config_invalid', `${name} is required: ${hint}`, { path: name });
}

function need<T>(value: T | undefined, name: string, hint: string): T {
  return value === undefined ? missing(name, hint) : value;
}

function searchBackend(config: Config): SearchBackend {
  if (config.searchBackend === 'opensearch') {
    const node = need(config.opensearchUrl, 'OPENSEARCH_URL', 'the OpenSearch cluster, e.g. http://localhost:9200');
    return new OpenSearchBackend({ client: new OpenSearchClient({ node }), prefix: config.opensearchIndexPrefix });
  }
  return new PostgresSearchBackend({ timeoutMs: config.searchTimeoutMs });
}

export function buildDeps(config: Config, opts: DepsOptions = {}): Deps {
  const logger = opts.logger ?? createLogger(config.logLevel);
  const databaseUrl = need(config.databaseUrl, 'DATABASE_URL', 'point it at Postgres, or run `syncdex demo` for the embedded setup');
  const keyring = config.credentialsKey !== undefined ? parseKeyring(config.credentialsKey) : opts.ephemeralSecrets === true ? ephemeralKeyring() : undefined;
  const cursorSecret = config.cursorSecret ?? (opts.ephemeralSecrets === true ? randomBytes(32).toString('base64url') : undefined);
  if (opts.lazySecrets !== true) {
    need(keyring, 'CREDENTIALS_KEY', KEY_HINT);
    need(cursorSecret, 'CURSOR_SECRET', CURSOR_HINT);
  }
  const runtime = runtimeOf(config, opts);
  const { db, pool } = createDb(databaseUrl, config.databasePoolMax, { preparedStatements: config.preparedStatements });
  // Connections open only when a search runs (workers never do).
  const searchDb = createSearchDb(databaseUrl, { statementTimeoutMs: config.searchTimeoutMs, preparedStatements: config.preparedStatements });
  const queueUrl = config.queueBackend === 'redis' ? need(config.redisUrl, 'REDIS_URL', 'or set QUEUE_BACKEND=postgres') : databaseUrl;
  const queues = createQueueFactory(config.queueBackend === 'redis' ? { kind: 'redis', url: queueUrl, prefix: config.queuePrefix } : { kind: 'postgres', url: queueUrl });
  const syncQueue = queues.queue<SyncJob>(SYNC_QUEUE);
  const scheduleQueue = queues.queue<ScheduleJob>(SCHEDULE_QUEUE);
  // Without a listener BullMQ prints connection errors raw (console.error, client object and all):
  // a database or Redis restart should read as one structured log line per queue instead.
  // Once closing, a connection dropped by the database shutting down too is expected, not news.
  let closing = false;
  for (const q of [syncQueue, scheduleQueue] as Queue[]) q.on('error', (e: Error) => void (closing || logger.warn({ queue: q.name, err: { message: e.message } }, 'queue connection error')));
  return {
    config,
    logger,
    db,
    pool,
    searchDb,
    backend: searchBackend(config),
    queues,
    syncQueue,
    scheduleQueue,
    runtime,
    get keyring() {
      return need(keyring, 'CREDENTIALS_KEY', KEY_HINT);
    },
    get cursorSecret() {
      return need(cursorSecret, 'CURSOR_SECRET', CURSOR_HINT);
    },
    close: async () => {
      closing = true;
      await syncQueue.close().catch(() => undefined);
      await scheduleQueue.close().catch(() => undefined);
      await db.destroy();
      await searchDb.destroy();
    },
  };
}
