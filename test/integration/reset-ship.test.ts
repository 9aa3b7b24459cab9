/**
 * A reset's tombstones reach the real OpenSearch index even when the run that follows fails
 * before reading a page (a 401 while resolving parents is the typical case: revoked credentials
 * are why people reset).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEntity } from '../../src/app/operations.js';
import type { ConnectorRuntime } from '../../src/connectors/runtime-client.js';
import { AppError } from '../../src/errors.js';
import { getRun } from '../../src/store/runs-repo.js';
import { executeRun } from '../../src/worker/sync-runner.js';
import { expectIndexEqualsStore, searchAllIds } from './helpers/compare.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { realOpenSearch } from './helpers/real-opensearch.js';

const url = realOpenSearch('reset and the OpenSearch index');

describe.skipIf(url === null)('reset and the OpenSearch index', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ worker: false, search: 'opensearch' });
  });
  afterAll(async () => h?.close());

  it("ships a reset's tombstones although its run fails on a 401 while resolving parents", async () => {
    const token = await h.token();
    const { id } = await h.createConnector(token, { connector_type: 'table_platform', name: 'Tables', credentials: { api_key: 'k' }, replication_config: { entities: ['bases', 'tables'] } });
    for (const run of await h.runsOf(id)) expect(await executeRun(h.deps, run.id)).toBe('succeeded');
    const tables = (await h.deps.db.selectFrom('records').select('record_id').where('connector_id', '=', id).where('entity', '=', 'tables').execute()).map((r) => r.record_id);
    expect(tables.length).toBeGreaterThan(0);
    await h.refresh();
    expect((await searchAllIds(h, token, id, 'tables')).sort()).toEqual([...tables].sort());

    const { tombstoned, run } = await resetEntity(h.deps, id, 'tables');
    expect(tombstoned).toBe(tables.length);
    const revoked: ConnectorRuntime = {
      execute: async (call, signal) => {
        if (call.entity === 'bases') throw new AppError('upstream_error', 'HTTP 401: the API key was revoked', { upstreamStatus: 401 });
        return h.deps.runtime.execute(call, signal);
      },
    };
    await expect(executeRun({ ...h.deps, runtime: revoked }, run.id)).rejects.toMatchObject({ upstreamStatus: 401 });
    expect(await getRun(h.deps.db, run.id)).toMatchObject({ pages: 0 });
    // Search agrees with the store (no live tables) instead of serving every reset record.
    await expectIndexEqualsStore(h, token, id, 'tables');
    expect(await searchAllIds(h, token, id, 'tables')).toEqual([]);
    expect((await searchAllIds(h, token, id, 'bases')).length).toBeGreaterThan(0);
  });
});
