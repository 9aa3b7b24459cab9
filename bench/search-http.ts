/**
 * Searches as an agent sends them: through the HTTP execute endpoint of a real API (fastify,
 * bearer token, connector lookup, JSON both ways) on loopback, against the bench's database.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildApi } from '../src/api/server.js';
import { buildDeps } from '../src/app/deps.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createToken, ensureOrganization } from '../src/store/tokens-repo.js';

/** A running API and a function that runs one search through it. */
export interface HttpSearcher {
  search(connectorId: string, params: unknown): Promise<{ hits: unknown[] }>;
  close(): Promise<void>;
}

/** `env`: the search backend's variables (SEARCH_BACKEND, OPENSEARCH_URL, OPENSEARCH_INDEX_PREFIX). */
export async function httpSearcher(databaseUrl: string, env: Record<string, string> = {}): Promise<HttpSearcher> {
  const deps = buildDeps(loadConfig({ DATABASE_URL: databaseUrl, CONNECTOR_RUNTIME_URL: 'http://127.0.0.1:9', CREDENTIALS_KEY: `k1:${randomBytes(32).toString('base64')}`, CURSOR_SECRET: randomBytes(24).toString('hex'), QUEUE_BACKEND: 'postgres', LOG_LEVEL: 'warn', ...env }), { logger: createLogger('warn') });
  const app = buildApi(deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // The bench's connectors belong to the organization insertConnectorRow uses.
  const { token } = await createToken(deps.db, await ensureOrganization(deps.db, 'conformance'));
  return {
    search: async (connectorId, params) => {
      const res = await fetch(`${base}/api/v1/integrations/connectors/${connectorId}/execute`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ entity: 'customers', action: 'search', params }) });
      const body = (await res.json()) as { hits: unknown[] };
      if (!res.ok) throw new Error(`search over HTTP: ${res.status} ${JSON.stringify(body)}`);
      return body;
    },
    close: async () => {
      await app.close();
      await deps.close();
    },
  };
}
