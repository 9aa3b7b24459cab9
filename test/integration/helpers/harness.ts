import { randomBytes } from 'node:crypto';
/**
 * A whole syncdex on real services for one test file: fresh database, sandbox runtime, deps,
 * worker and API app, plus helpers to create connectors and wait for runs.
 */
import { Writable } from 'node:stream';
import { Client } from '@opensearch-project/opensearch';
import type { FastifyInstance } from 'fastify';
import { expect, inject } from 'vitest';
import { buildDeps, type Deps } from '../../../src/app/deps.js';
import { buildApi } from '../../../src/api/server.js';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/logger.js';
import { Sandbox } from '../../../src/sandbox/sandbox.js';
import { startSandboxServer } from '../../../src/sandbox/server.js';
import { getRun } from '../../../src/store/runs-repo.js';
import type { SyncRunRow } from '../../../src/store/schema.js';
import { createToken, ensureOrganization } from '../../../src/store/tokens-repo.js';
import { startWorker, type RunningWorker } from '../../../src/worker/start-worker.js';
import { executeRun } from '../../../src/worker/sync-runner.js';
import { migratedDatabase } from './fresh-db.js';
import { deleteIndexes, testPrefix } from './real-opensearch.js';

/** A running stack for tests. */
export interface Harness {
  readonly deps: Deps;
  readonly app: FastifyInstance;
  readonly sandbox: Sandbox;
  readonly logs: string[];
  /** The environment the stack was configured with (for child processes). */
  readonly env: Record<string, string>;
  worker: RunningWorker | null;
  token(org?: string, admin?: boolean): Promise<string>;
  createConnector(token: string, body?: Record<string, unknown>): Promise<{ id: string }>;
  waitRun(runId: string, timeoutMs?: number): Promise<SyncRunRow>;
  runsOf(connectorId: string): Promise<SyncRunRow[]>;
  /** Makes everything shipped so far searchable (OpenSearch refreshes every second by itself). */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/** The environment of a harness searching with this run's real OpenSearch, and its cleanup. */
function openSearchEnv(): { env: Record<string, string>; client: Client; prefix: string } {
  const url = inject('opensearchUrl');
  if (url === null) throw new Error(`this test needs OpenSearch: ${inject('opensearchMissing')}`);
  const prefix = testPrefix();
  return { env: { SEARCH_BACKEND: 'opensearch', OPENSEARCH_URL: url, OPENSEARCH_INDEX_PREFIX: prefix }, client: new Client({ node: url }), prefix };
}

/** Options: queue backend and whether a worker runs. */
export interface HarnessOptions {
  readonly queue?: 'postgres' | 'redis';
  readonly worker?: boolean;
  readonly sandboxSize?: number;
  /** Extra environment (e.g. a fixed CREDENTIALS_KEY shared with worker child processes). */
  readonly env?: Record<string, string>;
  /** Lock of in-process workers (how fast a dead worker's job is resumed). */
  readonly lockMs?: number;
  /** Search backend; `opensearch` uses this run's real cluster under an index prefix of its own. */
  readonly search?: 'postgres' | 'opensearch';
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const url = await migratedDatabase();
  const sandbox = new Sandbox({ defaultSize: opts.sandboxSize ?? 25 });
  const sb = await startSandboxServer({ port: 0, sandbox });
  const logs: string[] = [];
  const sink = new Writable({ write: (chunk, _enc, cb) => (logs.push(String(chunk)), cb()) });
  const redisUrl = inject('redisUrl');
  const os = opts.search === 'opensearch' ? openSearchEnv() : null;
  // Whole-list reads unless a test asks for time slices: many tests count pages and calls exactly.
  const env: Record<string, string> = { DATABASE_URL: url, CONNECTOR_RUNTIME_URL: sb.url, QUEUE_BACKEND: opts.queue ?? 'postgres', LOG_LEVEL: 'info', SYNC_TIME_SLICES: '1', ...(opts.queue === 'redis' && redisUrl !== null ? { REDIS_URL: redisUrl, QUEUE_PREFIX: `t${randomBytes(4).toString('hex')}` } : {}), ...os?.env, ...opts.env };
  const deps = buildDeps(loadConfig(env), { ephemeralSecrets: true, logger: createLogger('info', sink) });
  const app = buildApi(deps);
  await app.ready();
  const h: Harness = {
    deps,
    app,
    sandbox,
    logs,
    env,
    worker: opts.worker === false ? null : startWorker(deps, { concurrency: 2, ...(opts.lockMs === undefined ? {} : { lockMs: opts.lockMs }) }),
    token: async (org = 'acme', admin = false) => (await createToken(deps.db, await ensureOrganization(deps.db, org), { admin })).token,
    createConnector: async (token, body) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/integrations/connectors',
        headers: { authorization: `Bearer ${token}` },
        payload: { external_user_id: 'u1', connector_type: 'payments', name: 'Payments', credentials: { api_key: 'sk_test_123' }, replication_config: { entities: ['customers'] }, ...body },
      });
      if (res.statusCode !== 201) throw new Error(`create connector: ${res.statusCode} ${res.body}`);
      return res.json() as { id: string };
    },
    waitRun: async (runId, timeoutMs = 90_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const run = await getRun(deps.db, runId);
        if (run !== null && ['succeeded', 'failed', 'cancelled'].includes(run.status)) return run;
        if (Date.now() > deadline) throw new Error(`run ${runId} still ${run?.status} after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    runsOf: (connectorId) => deps.db.selectFrom('sync_runs').selectAll().where('connector_id', '=', connectorId).orderBy('id').execute(),
    refresh: async () => void (await os?.client.indices.refresh({ index: `${os.prefix}*` })),
    close: async () => {
      await h.worker?.close();
      await app.close();
      await deps.close();
      await sb.close();
      if (os !== null) await deleteIndexes(os.client, os.prefix), await os.client.close();
    },
  };
  return h;
}

/**
 * A harness without a worker, and one payments connector whose first customers run (of `size`
 * records, or the sandbox's default) was executed here and is searchable on `search`.
 */
export async function startSyncedHarness(size?: number, search: 'postgres' | 'opensearch' = 'postgres'): Promise<{ h: Harness; id: string }> {
  const h = await startHarness({ worker: false, search });
  if (size !== undefined) h.sandbox.configure({ connectorType: 'payments', entity: 'customers', size });
  const id = (await h.createConnector(await h.token())).id;
  const [first] = await h.runsOf(id);
  expect(await executeRun(h.deps, first!.id)).toBe('succeeded');
  await h.refresh();
  return { h, id };
}
