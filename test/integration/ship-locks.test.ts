/**
 * The OpenSearch shipper and page writes, on a real Postgres and the real engine: a slow bulk
 * request must not hold the entity's page writes (they would wait for the engine on every page),
 * and two shippers of one entity must never send at once (an older version could land after a
 * newer delete). A proxy in front of the engine holds bulk requests until the test lets them through.
 */
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { shipAll } from '../../src/search/indexer.js';
import { searchTarget } from '../../src/search/target.js';
import { lockEntity, upsertPage } from '../../src/store/records-repo.js';
import { getWatermark } from '../../src/store/watermarks-repo.js';
import { ndjsonLines } from '../unit/search/opensearch/fake-http.js';
import { expectIndexEqualsStore } from './helpers/compare.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { openSearchProxy, type OpenSearchProxy, type ProxiedRequest } from './helpers/opensearch-proxy.js';
import { realOpenSearch } from './helpers/real-opensearch.js';

const TARGET = searchTarget('payments', 'customers');
const url = realOpenSearch('shipping locks on OpenSearch');

/** Resolves once `cond` holds, polling; fails naming `what` after 20 s. */
const until = (cond: () => boolean, what: string): Promise<void> =>
  vi.waitFor(() => {
    if (!cond()) throw new Error(`timed out waiting for ${what}`);
  }, { timeout: 20_000, interval: 20 });

describe.skipIf(url === null)('shipping to OpenSearch and page writes', () => {
  let h: Harness;
  let proxy: OpenSearchProxy;
  let token: string;
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => undefined;
  let inFlight = 0;
  let maxInFlight = 0;
  /** Every indexed document id, in the order bulk requests carried them. */
  const indexed: string[] = [];

  const closeGate = (): void => {
    gate = new Promise((r) => (open = r));
  };

  /** Bulk requests wait at the gate, counted and recorded, then go to the engine. */
  const hold = async (req: ProxiedRequest): Promise<undefined> => {
    if (req.path !== '/_bulk') return undefined;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await gate;
    inFlight -= 1;
    for (const line of ndjsonLines(req.body)) {
      if (typeof line === 'object' && line !== null && 'index' in line) indexed.push((line as { index: { _id: string } }).index._id);
    }
    return undefined;
  };

  beforeAll(async () => {
    proxy = await openSearchProxy(inject('opensearchUrl') as string);
    proxy.intercept = hold;
    h = await startHarness({ worker: false, search: 'opensearch', env: { OPENSEARCH_URL: proxy.url } });
    token = await h.token();
  });
  afterAll(async () => {
    open();
    await h?.close();
    await proxy?.close();
  });

  const watermark = async (connectorId: string): Promise<string | null> => getWatermark(h.deps.db, (await h.deps.backend.liveIndex(h.deps.db, TARGET)) as string, connectorId, 'customers');

  /** One page write as the worker does it on a shipping backend: under the exclusive entity lock. */
  const writeRecords = (connectorId: string, from: number, n: number): Promise<unknown> =>
    h.deps.db.transaction().execute(async (tx) => {
      await lockEntity(tx, connectorId, 'customers');
      const records = Array.from({ length: n }, (_, k) => ({ id: `cus_${from + k}`, data: { id: `cus_${from + k}`, email: `c${from + k}@example.com` } }));
      return upsertPage(tx, connectorId, 'customers', records);
    });

  const maxVersion = async (connectorId: string): Promise<string> => {
    const row = await h.deps.db.selectFrom('records').select((eb) => eb.fn.max('version').as('v')).where('connector_id', '=', connectorId).executeTakeFirstOrThrow();
    return String(row.v);
  };

  it('a page write is not held up by a bulk request in flight, and the next ship picks it up', async () => {
    const deps = h.deps;
    const { id } = await h.createConnector(token);
    await writeRecords(id, 0, 50);
    indexed.length = 0;
    closeGate();
    const first = shipAll(deps, id, TARGET);
    await until(() => inFlight === 1, 'the first bulk request');
    // With the entity lock held through the bulk request, this write would wait for the engine.
    let timer: NodeJS.Timeout | undefined;
    const held = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 15_000)));
    const written = await Promise.race([writeRecords(id, 50, 50).then(() => true), held]);
    clearTimeout(timer);
    expect(written).toBe(true);
    open();
    expect(await first).toBe(50);
    expect(await shipAll(deps, id, TARGET)).toBe(50);
    expect(new Set(indexed).size).toBe(100);
    expect(await watermark(id)).toBe(await maxVersion(id));
    await expectIndexEqualsStore(h, token, id, 'customers');
  });

  it('two shippers of one entity take turns: never two bulk requests at once, no document sent twice', async () => {
    const deps = h.deps;
    const { id } = await h.createConnector(token);
    await writeRecords(id, 0, 120);
    indexed.length = 0;
    maxInFlight = 0;
    closeGate();
    const both = Promise.all([shipAll(deps, id, TARGET), shipAll(deps, id, TARGET)]);
    await until(() => inFlight === 1, 'a bulk request');
    // Give a second shipper time to send, were it not waiting for the first.
    await new Promise((r) => setTimeout(r, 300));
    open();
    const shipped = await both;
    expect(maxInFlight).toBe(1);
    expect(shipped.reduce((a, b) => a + b, 0)).toBe(120);
    expect(indexed).toHaveLength(120);
    expect(await watermark(id)).toBe(await maxVersion(id));
    await expectIndexEqualsStore(h, token, id, 'customers');
  });
});
