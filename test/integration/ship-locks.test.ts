/**
 * The OpenSearch shipper and page writes, on a real Postgres: a slow bulk request must not hold
 * the entity's page writes (they would wait for the engine on every page), and two shippers of
 * one entity must never send at once (an older version could land after a newer delete).
 * OpenSearch is the recording HTTP server of the backend's unit tests, with bulk requests held
 * until the test lets them through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shipAll } from '../../src/search/indexer.js';
import { OpenSearchBackend } from '../../src/search/opensearch/opensearch-backend.js';
import { searchTarget } from '../../src/search/target.js';
import { lockEntity, upsertPage } from '../../src/store/records-repo.js';
import { getWatermark } from '../../src/store/watermarks-repo.js';
import { fakeOpenSearch, ndjsonLines, type FakeOpenSearch, type Recorded, type Reply } from '../unit/search/opensearch/fake-http.js';
import { startHarness, type Harness } from './helpers/harness.js';

const ALIAS = 'payments__customers';
const INDEX = `${ALIAS}__1`;
const TARGET = searchTarget('payments', 'customers');

/** Resolves once `cond` holds, polling; fails loudly after `ms`. */
async function until(cond: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('shipping to OpenSearch and page writes', () => {
  let h: Harness;
  let os: FakeOpenSearch;
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => undefined;
  let inFlight = 0;
  let maxInFlight = 0;
  /** Every indexed document id, in the order bulk requests carried them. */
  const indexed: string[] = [];

  const closeGate = (): void => {
    gate = new Promise((r) => (open = r));
  };

  const answer = async (req: Recorded): Promise<Reply> => {
    if (req.method === 'GET' && req.path === `/_alias/${ALIAS}`) return { status: 200, body: { [INDEX]: { aliases: { [ALIAS]: {} } } } };
    if (req.method === 'GET' && req.path === `/${INDEX}`) return { status: 200, body: { [INDEX]: { settings: { index: { uuid: 'uuid-1' } } } } };
    if (req.path !== '/_bulk') return { status: 200, body: { acknowledged: true } };
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await gate;
    inFlight -= 1;
    const actions = ndjsonLines(req.body).filter((l): l is Record<string, { _id: string }> => typeof l === 'object' && l !== null && ('index' in l || 'delete' in l));
    const items = actions.map((a) => {
      const [op, meta] = Object.entries(a)[0] as [string, { _id: string }];
      if (op === 'index') indexed.push(meta._id);
      return { [op]: { _index: INDEX, _id: meta._id, status: 201, result: 'created' } };
    });
    return { status: 200, body: { took: 1, errors: false, items } };
  };

  beforeAll(async () => {
    h = await startHarness({ worker: false });
    os = await fakeOpenSearch(answer);
  });
  afterAll(async () => {
    open();
    await os?.close();
    await h?.close();
  });

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
    const deps = { ...h.deps, backend: new OpenSearchBackend({ client: os.client, backoffMs: 1, maxRetries: 1, sleep: async () => undefined }) };
    const { id } = await h.createConnector(await h.token());
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
    expect(await getWatermark(h.deps.db, INDEX, id, 'customers')).toBe(await maxVersion(id));
  });

  it('two shippers of one entity take turns: never two bulk requests at once, no document sent twice', async () => {
    const deps = { ...h.deps, backend: new OpenSearchBackend({ client: os.client, backoffMs: 1, maxRetries: 1, sleep: async () => undefined }) };
    const { id } = await h.createConnector(await h.token());
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
    expect(await getWatermark(h.deps.db, INDEX, id, 'customers')).toBe(await maxVersion(id));
  });
});
