/**
 * Right after a sync, searches are planned on statistics that know the synced rows, whatever
 * autovacuum has done: writers analyze `records` when it changed by more than a tenth.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchParams } from '../../src/search/dsl/parse.js';
import { compileSearch } from '../../src/search/postgres/postgres-backend.js';
import { searchTarget } from '../../src/search/target.js';
import { statsKeeper } from '../../src/store/table-stats.js';
import { startHarness, type Harness } from './helpers/harness.js';

const SIZE = 8000;

describe('planner statistics right after a sync', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: SIZE });
  });
  afterAll(async () => h?.close());

  it('the run leaves records analyzed, and an eq on a lookup email is planned on its index', async () => {
    const { id } = await h.createConnector(await h.token());
    const [run] = await h.runsOf(id);
    expect((await h.waitRun(run!.id)).status).toBe('succeeded');
    await statsKeeper(h.deps.db).settle();
    const stats = await sql<{ rows: number; changed: string }>`
      select c.reltuples::float8 as rows, s.n_mod_since_analyze::text as changed
        from pg_class c join pg_stat_user_tables s on s.relid = c.oid where c.relname = 'records'`.execute(h.deps.db);
    expect(stats.rows[0]!.rows).toBeGreaterThanOrEqual(SIZE * 0.9);
    const target = searchTarget('payments', 'customers');
    const email = (await h.deps.db.selectFrom('records').select(sql<string>`data->>'email'`.as('e')).where('connector_id', '=', id).limit(1).executeTakeFirstOrThrow()).e;
    const query = parseSearchParams(target, { query: { filter: { eq: { email } } }, limit: 50 });
    const compiled = compileSearch({ target, connectorId: id, query, after: null, size: 51 }).compile(h.deps.db);
    const plan = await h.deps.pool.query(`explain (format json) ${compiled.sql}`, compiled.parameters as unknown[]);
    const text = JSON.stringify(plan.rows[0]);
    expect(text, text).toContain('records_keys_gin');
  });
});
