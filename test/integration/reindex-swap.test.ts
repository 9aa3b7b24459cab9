/**
 * An OpenSearch reindex on the real engine while a run keeps writing and shipping, and searches
 * keep running. Until the alias swaps, the run ships to the old index; what it committed after
 * the reindex's pass over its connector must still reach the new index. A proxy in front of the
 * engine holds the swap request while the run writes, so that moment is not left to chance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { reindexEntity } from '../../src/app/reindex.js';
import { shipAll } from '../../src/search/indexer.js';
import { searchTarget } from '../../src/search/target.js';
import { lockEntity, upsertPage } from '../../src/store/records-repo.js';
import { expectIndexEqualsStore, searchAllIds } from './helpers/compare.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { openSearchProxy, type OpenSearchProxy } from './helpers/opensearch-proxy.js';
import { realOpenSearch } from './helpers/real-opensearch.js';

const TARGET = searchTarget('payments', 'customers');
const url = realOpenSearch('reindex with the alias swap on OpenSearch');

describe.skipIf(url === null)('reindex on OpenSearch while a run ships and searches run', () => {
  let proxy: OpenSearchProxy;
  let h: Harness;

  beforeAll(async () => {
    proxy = await openSearchProxy(inject('opensearchUrl') as string);
    h = await startHarness({ worker: false, search: 'opensearch', env: { OPENSEARCH_URL: proxy.url } });
  });
  afterAll(async () => {
    await h?.close();
    await proxy?.close();
  });

  const writeRecords = (connectorId: string, ids: readonly number[], tag: string): Promise<unknown> =>
    h.deps.db.transaction().execute(async (tx) => {
      await lockEntity(tx, connectorId, 'customers');
      return upsertPage(tx, connectorId, 'customers', ids.map((i) => ({ id: `cus_${i}`, data: { id: `cus_${i}`, email: `c${i}@example.com`, description: tag } })));
    });

  it('changes shipped to the old index after the reindex passed their connector reach the new index; no search misses a record', async () => {
    const token = await h.token();
    const { id } = await h.createConnector(token);
    const first = Array.from({ length: 300 }, (_, i) => i);
    await writeRecords(id, first, 'v1');
    await shipAll(h.deps, id, TARGET);
    await h.refresh();
    expect(await searchAllIds(h, token, id, 'customers')).toHaveLength(300);

    // Searches run throughout the reindex: each must find at least the 300 records shipped before it.
    let searching = true;
    const counts: number[] = [];
    const searches = (async () => {
      while (searching) counts.push((await searchAllIds(h, token, id, 'customers')).length);
    })();

    // The run commits an update and new records when the swap request arrives, and ships them to
    // the alias, which still names the old index; then the swap goes on.
    let swapsHeld = 0;
    proxy.intercept = async (req) => {
      if (req.method !== 'POST' || req.path !== '/_aliases' || swapsHeld > 0) return undefined;
      swapsHeld++;
      await writeRecords(id, [0, 300, 301, 302], 'v2');
      await shipAll(h.deps, id, TARGET);
      return undefined;
    };
    const result = await reindexEntity(h.deps, 'payments', 'customers');
    proxy.intercept = () => undefined;
    expect(result).toMatchObject({ backend: 'opensearch', index: expect.stringMatching(/payments__customers__2$/) });
    expect(swapsHeld).toBe(1);
    // Searches right after the swap already see what the copy shipped (the new index is refreshed
    // before the alias moves); what was shipped after it shows within the 1 s refresh interval.
    const afterSwap = await searchAllIds(h, token, id, 'customers');
    const deadline = Date.now() + 3000;
    let settled = afterSwap.length;
    while (settled < 303 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      settled = (await searchAllIds(h, token, id, 'customers')).length;
    }
    searching = false;
    await searches;
    expect(afterSwap.length).toBeGreaterThanOrEqual(300);
    expect(counts.length).toBeGreaterThan(3);
    expect(Math.min(...counts), `search hit counts during the reindex: ${counts.join(',')}`).toBeGreaterThanOrEqual(300);
    expect(settled).toBe(303);
    // Every record at its stored content (cus_0 at v2), in the index the alias now names.
    await expectIndexEqualsStore(h, token, id, 'customers');
  });
});
