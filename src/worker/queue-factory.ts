/**
 * BullMQ on either backend: Redis (production) or BullMQ's PostgreSQL backend (embedded default,
 * same database as the store). Callers get Queue/Worker constructors bound to the connection.
 */
import pg from 'pg';
import { createPostgresBackend, Queue, runMigrations, withBackend, Worker, type Processor, type WorkerOptions } from 'bullmq';

/** Which queue backend, and where. */
export type QueueBackendConfig = { readonly kind: 'redis'; readonly url: string; readonly prefix?: string } | { readonly kind: 'postgres'; readonly url: string };

/** A queue backend bound to its connection. */
export interface QueueFactory {
  readonly kind: QueueBackendConfig['kind'];
  queue<T>(name: string): Queue<T>;
  worker<T>(name: string, processor: Processor<T>, opts?: Omit<WorkerOptions, 'connection'>): Worker<T>;
}

/** Creates the BullMQ schema on Postgres (idempotent; BullMQ serializes concurrent callers). */
export async function migrateQueueSchema(cfg: QueueBackendConfig): Promise<void> {
  if (cfg.kind !== 'postgres') return;
  const client = new pg.Client({ connectionString: cfg.url });
  await client.connect();
  try {
    await runMigrations(client);
  } finally {
    await client.end();
  }
}

export function createQueueFactory(cfg: QueueBackendConfig): QueueFactory {
  if (cfg.kind === 'redis') {
    const connection = { url: cfg.url, maxRetriesPerRequest: null };
    const prefix = cfg.prefix ?? 'bull';
    return {
      kind: 'redis',
      queue: <T>(name: string) => new Queue<T>(name, { connection, prefix }),
      worker: <T>(name: string, processor: Processor<T>, opts = {}) => new Worker<T>(name, processor, { ...opts, connection, prefix }),
    };
  }
  const classes = withBackend(createPostgresBackend);
  const connection = { connectionString: cfg.url, max: 8 };
  return {
    kind: 'postgres',
    queue: <T>(name: string) => new classes.Queue<T>(name, { connection }) as unknown as Queue<T>,
    worker: <T>(name: string, processor: Processor<T>, opts = {}) =>
      new classes.Worker<T>(name, processor as never, { ...opts, connection }) as unknown as Worker<T>,
  };
}
