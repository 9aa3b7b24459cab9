/**
 * Ingest into OpenSearch: a full sync of N sandbox records with SEARCH_BACKEND=opensearch (worker
 * in its own process, writing the store and shipping every page), until the index holds them all,
 * against a raw `_bulk` of the same documents (projection plus derived fields) into an index with
 * the same mapping, in the same run: the engine's own ceiling for these documents.
 */
import { randomBytes } from 'node:crypto';
import { buildDeps } from '../src/app/deps.js';
import { createConnector, parseCreateConnector } from '../src/app/connector-service.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { startSandboxServer } from '../src/sandbox/server.js';
import { projectSearchable } from '../src/search/doc.js';
import { chunkOps, ndjson, upsertOps } from '../src/search/opensearch/bulk.js';
import { createIndex } from '../src/search/opensearch/indices.js';
import { searchTarget } from '../src/search/target.js';
import { getRun } from '../src/store/runs-repo.js';
import { createToken, ensureOrganization, findPrincipal } from '../src/store/tokens-repo.js';
import { spawnWorker } from '../test/integration/helpers/worker-process.js';
import type { BenchOpenSearch } from './lib/opensearch.js';
import { benchDb } from './lib/stack.js';
import { round, type Figure } from './lib/stats.js';

const TARGET = searchTarget('payments', 'customers');

/** Seconds to `_bulk` the dataset's documents into a fresh index of the backend's mapping (5 MiB requests, one at a time, as the indexer sends them). */
async function rawBulkSeconds(os: BenchOpenSearch, sandbox: Sandbox, n: number): Promise<number> {
  const ds = sandbox.dataset('payments', 'customers');
  const index = `${os.prefix}raw-bulk`;
  await createIndex(os.client, index, TARGET, { shards: 1, replicas: 0 });
  const connectorId = '00000000-0000-4000-8000-000000000000';
  let sec = 0;
  for (let i = 0; i < n; i += 5000) {
    const changes = Array.from({ length: Math.min(5000, n - i) }, (_, k) => {
      const r = ds.recordAt(i + k);
      return { recordId: String(r.id), version: String(i + k + 1), doc: projectSearchable(TARGET.searchable, r) };
    });
    // Documents are derived before the clock runs: the baseline is the engine's work alone.
    const bodies = chunkOps(upsertOps(TARGET, index, connectorId, changes), 5 * 1024 * 1024).map(ndjson);
    const t = performance.now();
    for (const body of bodies) {
      const res = await os.client.bulk({ body: body as never });
      if (res.body.errors === true) throw new Error('raw bulk baseline: OpenSearch refused documents');
    }
    sec += (performance.now() - t) / 1000;
  }
  return sec;
}

async function indexCount(os: BenchOpenSearch, alias: string, connectorId: string): Promise<number> {
  await os.client.indices.refresh({ index: alias });
  const res = await os.client.count({ index: alias, body: { query: { term: { 'sx.c': connectorId } } } as never });
  return Number(res.body.count);
}

/** Full sync into OpenSearch vs raw `_bulk` of the same documents. */
export async function openSearchIngestBench(os: BenchOpenSearch, n: number, log: (s: string) => void): Promise<Figure[]> {
  const sandbox = new Sandbox({ defaultSize: n });
  sandbox.configure({ connectorType: 'payments', entity: 'customers', size: n });
  const bulkSec = await rawBulkSeconds(os, sandbox, n);
  log(`opensearch ingest: raw _bulk of ${n} documents ${round(bulkSec)} s (${Math.round(n / bulkSec)} docs/s)`);
  sandbox.dataset('payments', 'customers').prerender();
  const b = await benchDb();
  const sb = await startSandboxServer({ port: 0, sandbox });
  const env = { DATABASE_URL: b.pg.url, CONNECTOR_RUNTIME_URL: sb.url, CREDENTIALS_KEY: `k1:${randomBytes(32).toString('base64')}`, CURSOR_SECRET: randomBytes(24).toString('hex'), QUEUE_BACKEND: 'postgres', LOG_LEVEL: 'warn', SEARCH_BACKEND: 'opensearch', OPENSEARCH_URL: os.service.url, OPENSEARCH_INDEX_PREFIX: `${os.prefix}sync-` };
  const deps = buildDeps(loadConfig(env), { logger: createLogger('warn') });
  const worker = spawnWorker(env);
  try {
    const principal = await findPrincipal(deps.db, (await createToken(deps.db, await ensureOrganization(deps.db, 'bench'))).token);
    const t0 = performance.now();
    const connector = await createConnector(deps, principal!, parseCreateConnector({ external_user_id: 'b', connector_type: 'payments', name: 'bench', credentials: { api_key: 'k' }, replication_config: { entities: ['customers'] } }));
    const [run] = await deps.db.selectFrom('sync_runs').select('id').where('connector_id', '=', connector.id).execute();
    const alias = `${os.prefix}sync-payments__customers`;
    for (;;) {
      const r = await getRun(deps.db, run!.id);
      if (r !== null && ['failed', 'cancelled'].includes(r.status)) throw new Error(`run ${r.id} ${r.status}: ${r.error?.message}`);
      if (r?.status === 'succeeded' && (await indexCount(os, alias, connector.id)) === n) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    const syncSec = (performance.now() - t0) / 1000;
    log(`opensearch ingest: full sync into OpenSearch ${round(syncSec)} s (${Math.round(n / syncSec)} rec/s)`);
    return [{ group: 'ingest (opensearch)', name: `full sync ${n} records into OpenSearch (store + index)`, unit: 'rec/s', value: Math.round(n / syncSec), baseline: Math.round(n / bulkSec), ratio: round(bulkSec / syncSec, 3), target: 'reported: baseline = raw _bulk of the same documents', pass: null }];
  } finally {
    await worker.kill('SIGTERM');
    await deps.close();
    await sb.close();
    await b.close();
  }
}
