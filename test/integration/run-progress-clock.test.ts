/**
 * How long a run has gone without progress, on a real Postgres: what the rate-limit budget
 * (src/worker/jobs.ts) measures, so a long sync that keeps writing pages between quota windows
 * is never failed for them, and a run that writes nothing is.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DB } from '../../src/store/db.js';
import { createRun, msSinceProgress, recordPageWrite, startRun } from '../../src/store/runs-repo.js';
import { insertConnectorRow } from '../conformance/postgres-page.js';
import { migratedDatabase } from './helpers/fresh-db.js';

const HOUR = 3_600_000;

describe('msSinceProgress', () => {
  let db: Kysely<DB>;
  let connectorId: string;

  beforeAll(async () => {
    db = createDb(await migratedDatabase(), 2).db;
    connectorId = await insertConnectorRow(db, 'payments');
  });
  afterAll(async () => db?.destroy());

  it('counts from the start until the first page, from the last page after it; null for an unknown run', async () => {
    const run = await createRun(db, { connectorId, entity: 'customers', mode: 'full', trigger: 'manual' });
    await startRun(db, run.id);
    await sql`update sync_runs set started_at = now() - interval '25 hours' where id = ${run.id}::bigint`.execute(db);
    expect(await msSinceProgress(db, run.id)).toBeGreaterThanOrEqual(25 * HOUR);
    expect(await recordPageWrite(db, { id: run.id, checkpoint: { partition: 0, page: null }, counters: { seen: 1, inserted: 1, updated: 0, unchanged: 0 } })).toBe(true);
    expect(await msSinceProgress(db, run.id)).toBeLessThan(60_000);
    expect(await msSinceProgress(db, '999999')).toBeNull();
  });
});
