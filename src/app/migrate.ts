import type { Kysely } from 'kysely';
import type { DB } from '../store/db.js';
import { migrateToLatest } from '../store/migrate.js';
import { migrateQueueSchema, type QueueBackendConfig } from '../worker/queue-factory.js';

/** Brings the store (and, on the Postgres queue backend, BullMQ's schema) up to date. */
export async function migrateAll(db: Kysely<DB>, queue: QueueBackendConfig): Promise<string[]> {
  const applied = await migrateToLatest(db);
  await migrateQueueSchema(queue);
  return applied;
}
