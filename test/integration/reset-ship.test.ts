/**
 * A reset's tombstones reach the index even when the run that follows fails before reading a
 * page (a 401 while resolving parents is the typical case: revoked credentials are why people
 * reset). Postgres is real; OpenSearch is the recording HTTP server of the backend's unit tests.
 */
import { describe, expect, it } from 'vitest';
import { resetEntity } from '../../src/app/operations.js';
import type { ConnectorRuntime } from '../../src/connectors/runtime-client.js';
import { AppError } from '../../src/errors.js';
import { getRun } from '../../src/store/runs-repo.js';
import { executeRun } from '../../src/worker/sync-runner.js';
import { acceptBulk, type Recorded, type Reply } from '../unit/search/opensearch/fake-http.js';
import { recordingOpenSearch } from './helpers/recording-opensearch.js';

describe('reset and the index', () => {
  const rec = recordingOpenSearch((req) => answer(req));
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

  it("ships a reset's tombstones although its run fails on a 401 while resolving parents", async () => {
    const deps = { ...rec.h.deps, backend: rec.backend() };
    const { id } = await rec.h.createConnector(await rec.h.token(), { connector_type: 'table_platform', name: 'Tables', credentials: { api_key: 'k' }, replication_config: { entities: ['bases', 'tables'] } });
    for (const run of await rec.h.runsOf(id)) expect(await executeRun(deps, run.id)).toBe('succeeded');
    const tables = (await rec.h.deps.db.selectFrom('records').select('record_id').where('connector_id', '=', id).where('entity', '=', 'tables').execute()).map((r) => r.record_id);
    expect(tables.length).toBeGreaterThan(0);
    const docs = [...lastOp.keys()].filter((docId) => tables.some((t) => docId.endsWith(t)));
    expect(docs).toHaveLength(tables.length);
    expect(docs.every((d) => lastOp.get(d) === 'index')).toBe(true);

    const { tombstoned, run } = await resetEntity(deps, id, 'tables');
    expect(tombstoned).toBe(tables.length);
    const revoked: ConnectorRuntime = {
      execute: async (call, signal) => {
        if (call.entity === 'bases') throw new AppError('upstream_error', 'HTTP 401: the API key was revoked', { upstreamStatus: 401 });
        return rec.h.deps.runtime.execute(call, signal);
      },
    };
    await expect(executeRun({ ...deps, runtime: revoked }, run.id)).rejects.toMatchObject({ upstreamStatus: 401 });
    expect(await getRun(rec.h.deps.db, run.id)).toMatchObject({ pages: 0 });
    // Search agrees with the store (no live tables) instead of serving every reset record.
    expect(docs.map((d) => lastOp.get(d))).toEqual(docs.map(() => 'delete'));
  });
});
