/**
 * Faults of the index itself, on a real OpenSearch node of this file's own (so it can be killed):
 * the node SIGKILLed and restarted on the same data during a sync, searches and /readyz while it
 * is down, and bulk items the engine refuses with 429 (a write block, as the disk flood stage sets).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shipAll } from '../../src/search/indexer.js';
import { searchTarget } from '../../src/search/target.js';
import { localOpenSearchMissing, startLocalOpenSearch, type LocalOpenSearch } from '../../src/services/local-opensearch.js';
import { getRun } from '../../src/store/runs-repo.js';
import { getWatermark } from '../../src/store/watermarks-repo.js';
import { lockEntity, upsertPage } from '../../src/store/records-repo.js';
import { expectIndexEqualsStore, expectStoreEqualsSandbox } from './helpers/compare.js';
import { startHarness, type Harness } from './helpers/harness.js';
import { realOpenSearch } from './helpers/real-opensearch.js';

const TARGET = searchTarget('payments', 'customers');
const SIZE = 12_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Retries an assertion until it passes; after `ms`, its last failure is the test's. */
async function eventually(assertion: () => Promise<void>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await assertion();
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await sleep(500);
    }
  }
}
// A node of its own needs the local launcher, not only some cluster: skip loudly without it.
const missing = realOpenSearch('OpenSearch fault tests') === null ? 'no OpenSearch' : localOpenSearchMissing();
if (missing !== null && missing !== 'no OpenSearch') console.warn(`SKIPPING OpenSearch fault tests: a private node cannot start: ${missing}`);

describe.skipIf(missing !== null)('faults of the OpenSearch index', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'syncdex-os-faults-'));
  let node: LocalOpenSearch;
  let h: Harness;
  let token: string;

  beforeAll(async () => {
    node = await startLocalOpenSearch({ home, heapMb: 512 });
    h = await startHarness({ search: 'opensearch', env: { OPENSEARCH_URL: node.url } });
    token = await h.token();
  }, 240_000);
  afterAll(async () => {
    await h?.close();
    await node?.stop();
    fs.rmSync(home, { recursive: true, force: true });
  }, 120_000);

  const search = () => h.app.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${id}/execute`, headers: { authorization: `Bearer ${token}` }, payload: { entity: 'customers', action: 'search', params: { query: { filter: { like: { email: '%example%' } } }, limit: 5 } } });
  let id = '';

  it('a node killed and restarted mid-sync: 503 + Retry-After and /readyz 503 meanwhile; the run ends with the index equal to the store', async () => {
    h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: SIZE });
    // Paced pages, so the kill lands mid-run on any machine.
    h.sandbox.faults.arm({ kind: 'slow', delayMs: 25, count: -1 });
    id = (await h.createConnector(token)).id;
    const [run] = await h.runsOf(id);
    while (((await getRun(h.deps.db, run!.id))?.pages ?? 0) < 20) await sleep(20);
    await node.kill();
    expect((await getRun(h.deps.db, run!.id))?.status).toBe('running');

    const down = await search();
    expect(down.statusCode, down.body).toBe(503);
    expect(down.json()).toMatchObject({ error: { code: 'unavailable' } });
    expect(Number(down.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(down.body).not.toContain(node.url);
    const ready = await h.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ ok: false, checks: { store: 'ok', index: 'error' } });

    await sleep(1500);
    node = await startLocalOpenSearch({ home, httpPort: node.httpPort, heapMb: 512 });
    const final = await h.waitRun(run!.id, 240_000);
    h.sandbox.faults.clear();
    expect(final.status, JSON.stringify(final.error)).toBe('succeeded');
    await expectStoreEqualsSandbox(h, id, 'payments', 'customers');
    // The run commits its pages whether or not the index answers; what it could not ship goes
    // out with the job's retries (the run found succeeded ships from the watermark).
    await eventually(() => expectIndexEqualsStore(h, token, id, 'customers'), 120_000);
    const max = await h.deps.db.selectFrom('records').select((eb) => eb.fn.max('version').as('v')).where('connector_id', '=', id).executeTakeFirstOrThrow();
    const index = await h.deps.backend.liveIndex(h.deps.db, TARGET);
    expect(await getWatermark(h.deps.db, index as string, id, 'customers')).toBe(String(max.v));
    expect((await search()).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  }, 400_000);

  it('bulk items refused with 429 (an index write block) are retried until the block lifts, none dropped', async () => {
    const index = (await h.deps.backend.liveIndex(h.deps.db, TARGET)) as string;
    const client = new Client({ node: node.url });
    await h.deps.db.transaction().execute(async (tx) => {
      await lockEntity(tx, id, 'customers');
      await upsertPage(tx, id, 'customers', Array.from({ length: 40 }, (_, i) => ({ id: `cus_blocked_${i}`, data: { id: `cus_blocked_${i}`, email: `blocked${i}@example.com` } })));
    });
    // What the disk flood stage does: OpenSearch answers every write item 429 cluster_block_exception.
    await client.indices.putSettings({ index, body: { 'index.blocks.read_only_allow_delete': true } });
    const shipping = shipAll(h.deps, id, TARGET);
    await sleep(1200);
    await client.indices.putSettings({ index, body: { 'index.blocks.read_only_allow_delete': null } });
    expect(await shipping).toBe(40);
    await client.close();
    await expectIndexEqualsStore(h, token, id, 'customers');
  }, 120_000);
});
