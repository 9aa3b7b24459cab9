/**
 * A reset's tombstones reach the index even when the run that follows fails before reading a
 * page (a 401 while resolving parents is the typical case: revoked credentials are why people
 * reset). Postgres is real; OpenSearch is the recording HTTP server of the backend's unit tests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEntity } from '../../src/app/operations.js';
import type { ConnectorRuntime } from '../../src/connectors/runtime-client.js';
import { AppError } from '../../src/errors.js';
import { OpenSearchBackend } from '../../src/search/opensearch/opensearch-backend.js';
import { getRun } from '../../src/store/runs-repo.js';
import { executeRun } from '../../src/worker/sync-runner.js';
import { acceptBulk, fakeOpenSearch, type FakeOpenSearch, type Recorded, type Reply } from '../unit/search/opensearch/fake-http.js';
import { startHarness, type Harness } from './helpers/harness.js';

describe('reset and the index', () => {
  let h: Harness;
  let os: FakeOpenSearch;
  /** Last bulk operation per document id. */
  const lastOp = new Map<string, string>();

  /** Every index exists as `<alias>__1`; bulk items are all accepted. */
  const answer = (req: Recorded): Reply => {
    const alias = /^\/_alias\/([^/]+)$/.exec(req.path)?.[1];
    if (req.method === 'GET' && alias !== undefined) return { status: 200, body: { [`${alias}__1`]: { aliases: { [alias]: {} } } } };
    const index = /^\/([a-z_]+__1)$/.exec(req.path)?.[1];
    if (req.method === 'GET' && index !== undefined) return { status: 200, body: { [index]: { settings: { index: { uuid: `uuid-${index}` } } } } };
    if (req.path !== '/_bulk') return { status: 200, body: { acknowledged: true } };
    return acceptBulk(req.body, (op, meta) => lastOp.set(meta._id, op));
  };

  beforeAll(async () => {
    h = await startHarness({ worker: false });
    os = await fakeOpenSearch(answer);
  });
  afterAll(async () => {
    await os?.close();
    await h?.close();
  });

  it("ships a reset's tombstones although its run fails on a 401 while resolving parents", async () => {
    const deps = { ...h.deps, backend: new OpenSearchBackend({ client: os.client, backoffMs: 1, maxRetries: 1, sleep: async () => undefined }) };
    const { id } = await h.createConnector(await h.token(), { connector_type: 'table_platform', name: 'Tables', credentials: { api_key: 'k' }, replication_config: { entities: ['bases', 'tables'] } });
    for (const run of await h.runsOf(id)) expect(await executeRun(deps, run.id)).toBe('succeeded');
    const tables = (await h.deps.db.selectFrom('records').select('record_id').where('connector_id', '=', id).where('entity', '=', 'tables').execute()).map((r) => r.record_id);
    expect(tables.length).toBeGreaterThan(0);
    const docs = [...lastOp.keys()].filter((docId) => tables.some((t) => docId.endsWith(t)));
    expect(docs).toHaveLength(tables.length);
    expect(docs.every((d) => lastOp.get(d) === 'index')).toBe(true);

    const { tombstoned, run } = await resetEntity(deps, id, 'tables');
    expect(tombstoned).toBe(tables.length);
    const revoked: ConnectorRuntime = {
      execute: async (call, signal) => {
        if (call.entity === 'bases') throw new AppError('upstream_error', 'HTTP 401: the API key was revoked', { upstreamStatus: 401 });
        return h.deps.runtime.execute(call, signal);
      },
    };
    await expect(executeRun({ ...deps, runtime: revoked }, run.id)).rejects.toMatchObject({ upstreamStatus: 401 });
    expect(await getRun(h.deps.db, run.id)).toMatchObject({ pages: 0 });
    // Search agrees with the store (no live tables) instead of serving every reset record.
    expect(docs.map((d) => lastOp.get(d))).toEqual(docs.map(() => 'delete'));
  });
});
