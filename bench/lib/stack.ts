/** A bench database: embedded Postgres (default settings), migrated, with one payments connector. */
import type { Kysely } from 'kysely';
import { migrateAll } from '../../src/app/migrate.js';
import { providePostgres, type ProvidedService } from '../../src/services/local-services.js';
import { createDb, type DB } from '../../src/store/db.js';
import { insertConnectorRow } from '../../test/conformance/postgres-page.js';

export interface BenchDb {
  readonly pg: ProvidedService;
  readonly db: Kysely<DB>;
  readonly connectorId: string;
  close(): Promise<void>;
}

export async function benchDb(): Promise<BenchDb> {
  const pg = await providePostgres(process.env.DATABASE_URL, { settings: { shared_buffers: '1GB', work_mem: '64MB', maintenance_work_mem: '512MB', max_wal_size: '4GB' } });
  const { db } = createDb(pg.url, 4);
  await migrateAll(db, { kind: 'postgres', url: pg.url });
  const connectorId = await insertConnectorRow(db, 'payments');
  return { pg, db, connectorId, close: async () => { await db.destroy(); await pg.stop(); } };
}
