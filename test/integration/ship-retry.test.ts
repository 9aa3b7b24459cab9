/**
 * A run whose final shipping to the index failed after its commit: the job's retry finds the
 * run succeeded and must still ship, or its changes wait for the entity's next run. Postgres is
 * real; OpenSearch is the recording HTTP server of the backend's unit tests (no engine runs
 * here), answering each request the backend makes and accepting or refusing bulk requests.
 */
import { describe, expect, it } from 'vitest';
import { getWatermark } from '../../src/store/watermarks-repo.js';
import { getRun } from '../../src/store/runs-repo.js';
import { executeRun } from '../../src/worker/sync-runner.js';
import { acceptBulk, type Recorded, type Reply } from '../unit/search/opensearch/fake-http.js';
import { recordingOpenSearch } from './helpers/recording-opensearch.js';

const ALIAS = 'payments__customers';
const INDEX = `${ALIAS}__1`;

describe('shipping after a run that succeeded', () => {
  const rec = recordingOpenSearch((req) => answer(req), (h) => h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size: 150 }));
  let refuseBulk = true;
  const shipped = new Set<string>();

  /** What an existing index answers; bulk items are all accepted unless refused as a whole. */
  const answer = (req: Recorded): Reply => {
    if (req.method === 'GET' && req.path === `/_alias/${ALIAS}`) return { status: 200, body: { [INDEX]: { aliases: { [ALIAS]: {} } } } };
    if (req.method === 'GET' && req.path === `/${INDEX}`) return { status: 200, body: { [INDEX]: { settings: { index: { uuid: 'uuid-1' } } } } };
    if (req.path !== '/_bulk') return { status: 200, body: { acknowledged: true } };
    if (refuseBulk) return { status: 503, body: { error: { type: 'unavailable_shards_exception' }, status: 503 } };
    return acceptBulk(req.body, (_op, meta) => shipped.add(meta._id));
  };

  it('a retried job of a succeeded run ships what the failed shipping left behind', async () => {
    const backend = rec.backend();
    const deps = { ...rec.h.deps, backend };
    const { id } = await rec.h.createConnector(await rec.h.token());
    const [run] = await rec.h.runsOf(id);
    await expect(executeRun(deps, run!.id)).rejects.toMatchObject({ retryable: true });
    expect(await getRun(rec.h.deps.db, run!.id)).toMatchObject({ status: 'succeeded' });
    expect(shipped.size).toBe(0);
    // The index is back; BullMQ retries the job.
    refuseBulk = false;
    expect(await executeRun(deps, run!.id)).toBe('skipped');
    expect(shipped.size).toBe(150);
    const max = await rec.h.deps.db.selectFrom('records').select((eb) => eb.fn.max('version').as('v')).where('connector_id', '=', id).executeTakeFirstOrThrow();
    expect(await getWatermark(rec.h.deps.db, INDEX, id, 'customers')).toBe(String(max.v));
  });
});
