/** A fresh, migrated database per test file on the shared server: files never see each other's rows. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { migrateAll } from '../../../src/app/migrate.js';
import { createDb } from '../../../src/store/db.js';

/** Creates an empty database and returns its URL. */
export async function createDatabase(): Promise<string> {
  const admin = inject('databaseUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates a database and applies every migration (store and BullMQ's Postgres schema). */
export async function migratedDatabase(): Promise<string> {
  const url = await createDatabase();
  const { db } = createDb(url, 1);
  await migrateAll(db, { kind: 'postgres', url });
  await db.destroy();
  return url;
}
