/**
 * A run whose final shipping to the index failed after its commit: the job's retry finds the
 * run succeeded and must still ship, or its changes wait for the entity's next run. The engine
 * is the real OpenSearch behind a proxy that answers its bulk requests with 503 until told not to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { searchTarget } from '../../src/search/target.js';
import { getRun } from '../../src/store/runs-repo.js';
import { getWatermark } from '../../src/store/watermarks-repo.js';
import { executeRun } from '../../src/worker/sync-runner.js';
import { expectIndexEqualsStore, searchAllIds } from './helpers/compare.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { openSearchProxy, type OpenSearchProxy } from './helpers/opensearch-proxy.js';
import { realOpenSearch } from './helpers/real-opensearch.js';

const url = realOpenSearch('shipping retries on OpenSearch');

describe.skipIf(url === null)('shipping after a run that succeeded', () => {
  let proxy: OpenSearchProxy;
  let h: Harness;
  beforeAll(async () => {
    proxy = await openSearchProxy(inject('opensearchUrl') as string);
    h = await startHarness({ worker: false, search: 'opensearch', env: { OPENSEARCH_URL: proxy.url } });
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 150 });
  });
  afterAll(async () => {
    await h?.close();
    await proxy?.close();
  });

  it('a retried job of a succeeded run ships what the failed shipping left behind', async () => {
    let refuseBulk = true;
    proxy.intercept = (req) => (refuseBulk && req.path === '/_bulk' ? { status: 503, body: { error: { type: 'unavailable_shards_exception', reason: 'test' }, status: 503 } } : undefined);
    const token = await h.token();
    const { id } = await h.createConnector(token);
    const [run] = await h.runsOf(id);
    await expect(executeRun(h.deps, run!.id)).rejects.toMatchObject({ retryable: true });
    expect(await getRun(h.deps.db, run!.id)).toMatchObject({ status: 'succeeded' });
    await h.refresh();
    expect(await searchAllIds(h, token, id, 'customers')).toEqual([]);
    // The index is back; BullMQ retries the job.
    refuseBulk = false;
    expect(await executeRun(h.deps, run!.id)).toBe('skipped');
    const max = await h.deps.db.selectFrom('records').select((eb) => eb.fn.max('version').as('v')).where('connector_id', '=', id).executeTakeFirstOrThrow();
    const index = await h.deps.backend.liveIndex(h.deps.db, searchTarget('payments', 'customers'));
    expect(await getWatermark(h.deps.db, index as string, id, 'customers')).toBe(String(max.v));
    await expectIndexEqualsStore(h, token, id, 'customers');
    expect(await searchAllIds(h, token, id, 'customers')).toHaveLength(150);
  });
});
